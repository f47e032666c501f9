/**
 * The `tool_search` tool definition: argument checks, the canonical payload, the content
 * finalizer and the call card. Ranking, the answer's shape and selection live elsewhere; this
 * file only turns a call into a {@link SearchRequest} and its answer into the tool's value.
 */

import type { Agent } from '@deepseek-ai/dsh-agent'
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools'
import { CALL_TOOL_NAME, MAX_LIMIT, MAX_QUERY_CHARS, MIN_LIMIT, TOOL_SEARCH_NAME, type ChoiceOf } from '../contract.ts'
import { PAYLOAD_SCHEMA, payloadContent, type ToolSearchPayload } from './payload.ts'

/** One validated search. */
export interface SearchRequest {
  /** The calling Agent, absent for a direct `ctx.tools.execute` without one. */
  readonly agent: Agent | undefined
  /** Trimmed, 1 to {@link MAX_QUERY_CHARS} characters. */
  readonly query: string
  /** Whole number, {@link MIN_LIMIT} to {@link MAX_LIMIT}. */
  readonly limit: number
}

/** How the description says found tools are used, by `loading`. */
const FOUND_TOOLS = {
  native: 'the full definitions of the returned tools are added from your next step on, and you call them by name like any other tool. ',
  stable: 'the result also carries the full definition of each returned tool, and you run one with '
    + `${CALL_TOOL_NAME}({"name": "<tool name>", "arguments": {...}}) (inside run_code, as tools.<tool name>(args)). `,
} as const satisfies Record<ChoiceOf<'loading'>, string>

/**
 * The description as registered under a `loading` mode; the model reads it with the catalog
 * outline appended (outline.ts).
 */
export function searchDescription(loading: ChoiceOf<'loading'>): string {
  return 'Find tools that are installed but not loaded yet. Only a small set of tools is '
    + 'offered up front; many more (MCP servers, integrations, less common built-ins) are deferred to '
    + 'keep requests small. Describe the capability you need in a few keywords (for example '
    + '"create github issue" or "query postgres"), or pass a tool\'s exact name. Each match comes back '
    + `with its name, a short description and a relevance score; ${FOUND_TOOLS[loading]}`
    + 'Query forms: "select:name_a,name_b" loads exactly those tools; "+word" requires the word in every '
    + 'match ("+github issue"); "discover:<query>" shows the matches with their full parameter schemas '
    + 'and loads none. When nothing matches well nothing is loaded, and the result says what to try next. '
    + 'Tools you can already call are left out of the matches unless you ask for one by exact name.'
}

/**
 * Build the definition for the current default limit and loading mode, which its text states:
 * the plugin registers a fresh definition whenever either setting changes.
 * @param defaultLimit - results returned when the call omits `limit`.
 * @param loading - how found tools are used (the `loading` in force).
 * @param search - answers one validated request (rejects with a clear `Error` when it cannot).
 * @returns the registry-ready definition.
 */
export function createToolSearchTool(
  defaultLimit: number,
  loading: ChoiceOf<'loading'>,
  search: (request: SearchRequest) => Promise<ToolSearchPayload>,
): ToolDefinition {
  return defineTool({
    name: TOOL_SEARCH_NAME,
    description: searchDescription(loading),
    parameters: {
      query: {
        type: 'string',
        required: true,
        description: `What the tool should do, in a few keywords, or a tool's exact name (at most ${MAX_QUERY_CHARS} characters).`,
      },
      limit: {
        type: 'integer',
        description: `How many tools to return, from ${MIN_LIMIT} to ${MAX_LIMIT}. Default: ${defaultLimit}.`,
      },
    },
    output: {
      schema: PAYLOAD_SCHEMA,
      render: (_args, value) => payloadContent(value),
    },
    // Ranking reads shared state without changing it; the selection is committed later, by the
    // `tools/result` observer, so parallel searches cannot interfere.
    isConcurrencySafe: () => true,
    execute(args, exec) {
      const query = checkQuery(args.query)
      const limit = checkLimit(args.limit ?? defaultLimit)
      return search({ agent: exec.agent, query, limit })
    },
    // The registry calls this after `tools/post-execute`, right before the result is frozen and
    // logged: whatever a policy listener did to the content, the durable copy is the canonical
    // JSON of the final value, which is what the live selection is committed from.
    finalizeContent(_exec, result) {
      return result.isError ? undefined : payloadContent(result.value as unknown as ToolSearchPayload)
    },
    presentCall: args => ({
      card: 'generic',
      title: `Search tools: ${clip(args.query.trim(), 80)}`,
      kind: 'search',
      rawInput: args.limit === undefined ? { query: args.query } : { query: args.query, limit: args.limit },
    }),
  })
}

function checkQuery(raw: string): string {
  const query = raw.trim()
  if (query.length === 0) throw new Error('tool_search: query is empty; describe the tool you need in a few words')
  if (exceeds(query, MAX_QUERY_CHARS)) {
    throw new Error(`tool_search: query is longer than ${MAX_QUERY_CHARS} characters; use a few keywords instead`)
  }
  return query
}

function checkLimit(limit: number): number {
  // DSH validates `integer` before execute; a direct caller of this definition may not have.
  if (!Number.isInteger(limit) || limit < MIN_LIMIT || limit > MAX_LIMIT) {
    throw new Error(`tool_search: limit must be a whole number from ${MIN_LIMIT} to ${MAX_LIMIT}, got ${limit}`)
  }
  return limit
}

/** Whether `text` has more than `max` code points, without walking a huge string to the end. */
function exceeds(text: string, max: number): boolean {
  if (text.length <= max) return false // UTF-16 units >= code points
  let count = 0
  for (const _ of text) if (++count > max) return true
  return false
}

function clip(text: string, max: number): string {
  // Cut by UTF-16 unit (the query may be arbitrarily long here) and drop a split surrogate half.
  return text.length <= max ? text : `${text.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, '')}…`
}
