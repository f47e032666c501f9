/**
 * What one `tool_search` call answers with: the ranked matches; for `discover:<query>`, the
 * matches with their full parameter schemas, selecting nothing; and when nothing matches, or the
 * best match is weaker than {@link WEAK_MATCH_FLOOR}, a result that loads nothing and gives the
 * model its next move (the weak matches and, in a hybrid index, the nearest tools by meaning as
 * candidates, the names spelled like its words, the deferred groups, and the `select:` form)
 * instead of a bare `[]`. Only matching tools ever load: a tool that merely fills the core's
 * page (`fill`) is a candidate at most.
 */

import type { JsonValue } from '@deepseek-ai/dsh-session'
import { coreTakesName, namesTools, type CatalogOutline, type SearchHit, type ToolIndex } from '../host/native.ts'
import type { PayloadDefinitions } from './definitions.ts'
import { PAYLOAD_SCHEMA_VERSION, type PayloadTool, type ToolSearchPayload } from './payload.ts'

/**
 * How strong the best ranked match must be for a search to load anything, in the core's unit
 * (`ToolIndex.matchStrength`: 1 is a match worth one word that only one tool has). Below it the
 * matches share only incidental words with the query; they are shown as candidates instead. Chosen by `bench/calibrate-floor.mjs` on the dev parts of the eval sets
 * (it prints the floor it would choose, and what this one does); re-run it whenever the ranking
 * changes.
 */
export const WEAK_MATCH_FLOOR = 0.6

/** How `discover:` starts a query, in any case, like `select:` (which the core reads). */
const DISCOVER = 'discover:'
/** Names spelled like the query that an empty or weak result lists. */
const NEAREST_NAMES = 5
/** Groups an empty or weak result lists, largest first. */
const LISTED_GROUPS = 12

/** What a search needs to know about the calling Agent's catalog. */
export interface SearchScope {
  readonly index: ToolIndex
  /** Tools the Agent can already call: never suggested again. */
  readonly exclude: readonly string[]
  /** A registered tool's parameter schema (for `discover:`). */
  readonly parametersOf: (name: string) => JsonValue | undefined
  /** The deferred tools in outline. */
  readonly outline: () => CatalogOutline
  /** Under `loading: stable`, the definitions a result carries for the tools it loads. */
  readonly define?: (hits: readonly SearchHit[]) => PayloadDefinitions
}

/**
 * @param query - the validated, trimmed query as the model sent it.
 * @param limit - results to return.
 * @param scope - the caller's catalog.
 * @returns the payload.
 * @throws when a `discover:` query has nothing after the prefix.
 */
export function answerSearch(query: string, limit: number, scope: SearchScope): ToolSearchPayload {
  const discovered = discoverQuery(query)
  const ranked = discovered ?? query
  const exclude = [...scope.exclude]
  const hits = scope.index.search(ranked, limit, { exclude, fill: false })
  const candidates = () => scope.index.search(ranked, limit, { exclude })
  if (discovered !== undefined) {
    const tools = hits.map((hit): PayloadTool => withParameters(hit, scope.parametersOf(hit.name)))
    const payload: ToolSearchPayload = { schemaVersion: PAYLOAD_SCHEMA_VERSION, query, discover: true, tools }
    return tools.length > 0 ? payload : { ...payload, ...nextMove(ranked, false, candidates(), scope) }
  }
  if (confidentHits(scope.index, ranked, hits).length > 0) {
    const stable = scope.define === undefined ? {} : { loading: 'stable' as const, definitions: scope.define(hits) }
    return { schemaVersion: PAYLOAD_SCHEMA_VERSION, query, ...stable, tools: hits }
  }
  return { schemaVersion: PAYLOAD_SCHEMA_VERSION, query, tools: [], ...nextMove(ranked, hits.length > 0, candidates(), scope) }
}

/**
 * The hits worth loading: all of them when the query names tools (`select:`, or the exact name
 * of its first hit) or its best hit reaches {@link WEAK_MATCH_FLOOR}; none otherwise.
 * @param index - the index the hits came from.
 * @param query - the ranked query.
 * @param hits - its results, best first.
 */
function confidentHits(index: ToolIndex, query: string, hits: SearchHit[]): SearchHit[] {
  const best = hits[0]
  if (best === undefined || namesTools(query)) return hits
  return strong(index, query, best) ? hits : []
}

/**
 * The hits that each reach {@link WEAK_MATCH_FLOOR} (all of them for a query that names tools):
 * what is loaded when nobody asked, as a prefetch is.
 * @param index - the index the hits came from.
 * @param query - the ranked query.
 * @param hits - its results, best first.
 */
export function strongHits(index: ToolIndex, query: string, hits: SearchHit[]): SearchHit[] {
  if (namesTools(query)) return hits
  return hits.filter(hit => strong(index, query, hit))
}

/**
 * Whether a hit is the tool the query names exactly, or matches it as strongly as the floor. A
 * name longer than the core looks up again (another plugin may register one) is taken as it
 * ranked: its strength cannot be asked for.
 */
function strong(index: ToolIndex, query: string, hit: SearchHit): boolean {
  if (hit.name === query.trim() || !coreTakesName(hit.name)) return true
  return index.matchStrength(query, hit.name) >= WEAK_MATCH_FLOOR
}

/** The rest of a `discover:` query, or undefined for any other query. */
function discoverQuery(query: string): string | undefined {
  if (query.slice(0, DISCOVER.length).toLowerCase() !== DISCOVER) return undefined
  const rest = query.slice(DISCOVER.length).trim()
  if (rest === '') throw new Error('tool_search: discover: needs a query after it, for example "discover:github issue"')
  return rest
}

function withParameters(hit: SearchHit, parameters: JsonValue | undefined): PayloadTool {
  return parameters === undefined ? hit : { ...hit, parameters }
}

/**
 * The fields of a result that loads nothing: what there is, and how to get it.
 * @param matched - whether any tool matched the query (weakly).
 * @param candidates - the weak matches, and in a hybrid index the nearest others by meaning.
 */
function nextMove(query: string, matched: boolean, candidates: SearchHit[], scope: SearchScope): Partial<ToolSearchPayload> {
  const outline = scope.outline()
  // The core takes no name longer than it looks up; such a candidate may come back as nearest.
  const exclude = [...scope.exclude, ...candidates.map(hit => hit.name).filter(coreTakesName)]
  const nearest = scope.index.nearest(query, NEAREST_NAMES, { exclude })
  const found = matched
    ? 'Only weak matches (the candidates)'
    : `No deferred tool matches this query${candidates.length > 0 ? ' (the candidates are the nearest by meaning)' : ''}`
  return {
    note: `${found}; nothing was loaded. Next: load a tool by its exact name with select:name (several: select:a,b), `
      + 'or search again with other words. Tools you can already call are not listed.',
    ...(candidates.length > 0 ? { candidates } : {}),
    ...(nearest.length > 0 ? { nearest } : {}),
    ...(outline.groups.length > 0 ? { groups: outline.groups.slice(0, LISTED_GROUPS).map(({ name, tools, words }) => ({ name, tools, words })) } : {}),
    ...(outline.ungrouped.length > 0 ? { otherTools: outline.ungrouped.length } : {}),
  }
}
