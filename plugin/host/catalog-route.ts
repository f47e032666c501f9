/**
 * The JSON catalog the web settings page reads: `GET /tool-search/catalog[?filter=text]`.
 *
 * It carries only what the page renders (names, one-line descriptions, each tool's standing
 * policy and how many live Agents selected it, and per Agent how many tools its searches and
 * prefetches selected, which, how they load and what its last request's tools weigh), never
 * schemas or Agent/session ids, and at most
 * {@link CATALOG_MAX_ROWS} rows, so a catalog of thousands of MCP tools stays a small response;
 * `total` and `truncated` tell the page to ask for a narrower filter.
 */

import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Context } from '@deepseek-ai/cordis'
import {
  CATALOG_DESCRIPTION_CHARS, CATALOG_MAX_AGENTS, CATALOG_MAX_FILTER_CHARS, CATALOG_MAX_FOUND, CATALOG_MAX_NAME_CHARS, CATALOG_MAX_ROWS, CATALOG_ROUTE_PATH,
  compareNames, type AgentSelection, type CatalogResponse, type CatalogRow,
} from '../contract.ts'
import type { AgentRow, ToolSearchView } from './view.ts'

/** The structural slices of the DSH services this route uses; neither package is a dependency. */
interface WebServer {
  register(route: { kind: 'exact'; path: string; handler: (req: IncomingMessage, res: ServerResponse) => Promise<void> }): () => void
}
interface StandingKeys {
  standingKeyFor(id?: string): Promise<object>
}

function service<T>(ctx: Context, name: string): T | undefined {
  return (ctx as unknown as { get(name: string): unknown }).get(name) as T | undefined
}

/**
 * Serve the catalog while DSH's web server is mounted. The plugin also runs without one
 * (headless), so the server is an optional dependency: the route comes and goes with it.
 * @param ctx - the plugin context.
 * @param view - the plugin's read-only view.
 */
export function installCatalogRoute(ctx: Context, view: ToolSearchView): void {
  ctx.inject(['webServer'], (web) => {
    web.effect(() => service<WebServer>(web, 'webServer')!.register({
      kind: 'exact',
      path: CATALOG_ROUTE_PATH,
      handler: (req, res) => handleCatalogRequest(web, view, req, res),
    }), 'dsh-tool-search: catalog route')
  })
}

/**
 * Answer one request.
 * @param ctx - a context that may hold `agentPresets`.
 * @param view - the plugin's read-only view.
 */
async function handleCatalogRequest(ctx: Context, view: ToolSearchView, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET') {
    send(res, 405, { error: 'method not allowed' }, { Allow: 'GET' })
    return
  }
  // The catalog shows which tools the user always offers or blocks, i.e. part of the settings
  // document, which DSH serves to loopback pages only (its /api fence); the same fence applies.
  if (!isLoopbackPageRequest(req)) {
    send(res, 403, { error: 'forbidden' })
    return
  }
  const filter = new URL(req.url ?? '/', 'http://localhost').searchParams.get('filter') ?? ''
  if (filter.length > CATALOG_MAX_FILTER_CHARS) {
    send(res, 400, { error: `filter is longer than ${CATALOG_MAX_FILTER_CHARS} characters` })
    return
  }
  let rows: CatalogRow[]
  try {
    rows = view.catalog(await standingScope(ctx))
  } catch (error) {
    ctx.logger.warn(`dsh-tool-search: the catalog route could not read the tool registry: ${error instanceof Error ? error.message : String(error)}`)
    send(res, 500, { error: 'the tool catalog cannot be read' })
    return
  }
  const unavailable = view.unavailable()
  send(res, 200, { ...catalogResponse(rows, view.agents(), filter), ...unavailable === undefined ? {} : { searchUnavailable: unavailable } })
}

/**
 * Filter, cap and trim rows into a response body.
 * @param rows - the catalog, sorted by name.
 * @param agents - live Agents.
 * @param filter - case-insensitive text matched against names and descriptions; blank matches all.
 */
function catalogResponse(rows: readonly CatalogRow[], agents: readonly AgentRow[], filter: string): CatalogResponse {
  const needle = filter.trim().toLowerCase()
  const matching = needle === ''
    ? rows
    : rows.filter(row => row.name.toLowerCase().includes(needle) || row.description.toLowerCase().includes(needle))
  // With the row cap and the description cut, the name bound keeps a response to about 1.3 MB
  // however hostile the catalog (every character escaped).
  const listed = matching.filter(row => row.name.length <= CATALOG_MAX_NAME_CHARS).slice(0, CATALOG_MAX_ROWS)
  return {
    schemaVersion: 1,
    agents: agents.length,
    agentSelections: agents.slice(0, CATALOG_MAX_AGENTS).map(agentSelection),
    total: matching.length,
    truncated: listed.length < matching.length,
    tools: listed.map(row => ({
      name: row.name,
      description: shortDescription(row.description),
      policy: row.policy,
      selectedBy: row.selectedBy,
    })),
  }
}

/** One Agent's entry: its counts, loading, found names within the caps, and its last request's weight. */
function agentSelection(agent: AgentRow): AgentSelection {
  const { selected, prefetched, loading, offeredTokens, allTokens, cacheBreaks } = agent
  const found = agent.found.filter(name => name.length <= CATALOG_MAX_NAME_CHARS).sort(compareNames).slice(0, CATALOG_MAX_FOUND)
  return {
    selected,
    prefetched,
    loading,
    found,
    ...(offeredTokens === undefined ? {} : { offeredTokens }),
    ...(allTokens === undefined ? {} : { allTokens }),
    ...(cacheBreaks === undefined ? {} : { cacheBreaks }),
  }
}

/**
 * The default preset's standing view, where the web profile mounts its tools; the global layer
 * when no preset roster is mounted (headless, tests) or the default preset cannot be composed.
 */
async function standingScope(ctx: Context): Promise<object | undefined> {
  const presets = service<StandingKeys>(ctx, 'agentPresets')
  if (presets === undefined) return undefined
  try {
    return await presets.standingKeyFor()
  } catch (error) {
    ctx.logger.warn(`dsh-tool-search: listing the global tools only; the default preset has no standing view: ${error instanceof Error ? error.message : String(error)}`)
    return undefined
  }
}

function shortDescription(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length <= CATALOG_DESCRIPTION_CHARS ? line : `${line.slice(0, CATALOG_DESCRIPTION_CHARS - 1).trimEnd()}…`
}

/**
 * DSH's browser-trust rule for its configuration plane: the Host header names a loopback
 * authority (which DNS rebinding cannot forge), and a browser-marked request is same-origin.
 */
function isLoopbackPageRequest(req: IncomingMessage): boolean {
  const host = req.headers.host
  if (host === undefined) return false
  let authority: URL
  try {
    authority = new URL(`http://${host}`)
  } catch {
    return false
  }
  if (!isLoopbackHostname(authority.hostname)) return false
  if (req.headers['sec-fetch-site'] === 'cross-site') return false
  const origin = req.headers.origin
  if (origin === undefined) return true
  try {
    return new URL(origin).host === authority.host
  } catch {
    return false
  }
}

function isLoopbackHostname(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true
  const parts = hostname.split('.')
  return parts.length === 4 && parts[0] === '127' && parts.every(part => /^\d{1,3}$/.test(part) && Number(part) <= 255)
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  })
  res.end(text)
}
