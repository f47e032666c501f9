/**
 * What one `tool_search` call answers with: the ranked matches, of which the leaders load and the
 * rest are shown as candidates (leaders.ts); for `discover:<query>`, the matches with their full
 * parameter schemas, selecting nothing; and when nothing matches, or the
 * best match is weaker than {@link WEAK_MATCH_FLOOR}, a result that loads nothing and gives the
 * model its next move (the weak matches and, in a hybrid index, the nearest tools by meaning as
 * candidates, the names spelled like its words, the deferred groups, and the `select:` form)
 * instead of a bare `[]`. Only matching tools ever load: a tool that merely fills the core's
 * page (`fill`) is a candidate at most.
 */

import type { JsonValue } from '@deepseek-ai/dsh-session'
import { ownTurn } from '../host/loop-turns.ts'
import { namesTools, type CatalogOutline, type SearchAnswer, type SearchHit, type ToolIndex } from '../host/native.ts'
import type { PayloadDefinitions } from './definitions.ts'
import { LEADER_SHARE, leaders, type Leaders } from './leaders.ts'
import { PAYLOAD_SCHEMA_VERSION } from '../contract.ts'
import type { PayloadTool, ToolSearchPayload } from './payload.ts'

/**
 * How strong the best ranked match must be for a search to load anything, in the core's unit
 * (`ToolIndex.matchStrength`: 1 is a match worth one word that only one tool has). Below it the
 * matches share only incidental words with the query; they are shown as candidates instead. Chosen by `bench/calibrate-floor.mjs` on the dev parts of the eval sets
 * (it prints the floor it would choose, and what this one does); re-run it whenever the ranking
 * changes.
 */
export const WEAK_MATCH_FLOOR = 0.55

/** How `discover:` starts a query, in any case, like `select:` (which the core reads). */
const DISCOVER = 'discover:'
/** Groups an empty or weak result lists, largest first. */
const LISTED_GROUPS = 12
/** A leader share that loads every confident hit. */
const NO_CUT = 0
/** What a result that loads its leaders and shows the rest tells the model about the rest. */
const CUT_NOTE = 'The candidates matched far less well than the best tool and were not loaded; select:name loads one.'

/** What a search needs to know about the calling Agent's catalog. */
export interface SearchScope {
  readonly index: ToolIndex
  /** Tools the Agent can already call: never suggested again. */
  readonly exclude: readonly string[]
  /** A registered tool's parameter schema (for `discover:`). */
  readonly parametersOf: (name: string) => JsonValue | undefined
  /** The deferred tools in outline. */
  readonly outline: () => Promise<CatalogOutline>
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
export async function answerSearch(query: string, limit: number, scope: SearchScope): Promise<ToolSearchPayload> {
  const discovered = discoverQuery(query)
  const ranked = discovered ?? query
  // All of the answer's native work in one call, ranked once and off the JavaScript thread: the
  // matches, their strengths and, when the answer will load nothing (a weak best match; for
  // `discover:`, no match), the candidates and the nearest names (as many as the core's default).
  const answer = await scope.index.answerAsync(ranked, limit, {
    exclude: [...scope.exclude],
    weakBelow: discovered === undefined ? WEAK_MATCH_FLOOR : 0,
  })
  await ownTurn()
  const hits = answer.hits
  if (discovered !== undefined) {
    const tools = hits.map((hit): PayloadTool => withParameters(hit, scope.parametersOf(hit.name)))
    const payload: ToolSearchPayload = { schemaVersion: PAYLOAD_SCHEMA_VERSION, query, discover: true, tools }
    return tools.length > 0 ? payload : { ...payload, ...await nextMove(false, answer, scope) }
  }
  // The leader cut is stable loading's: there a search breaks no cache, so loading fewer keeps the
  // conversation small; under native each search that loads tools bills the conversation again,
  // and the near misses loaded beside the leaders spare later searches (docs/search.md, "The
  // leader cut", has the measured costs).
  const { loaded, shown } = searchLoads(ranked, answer, scope.define === undefined ? NO_CUT : LEADER_SHARE)
  if (loaded.length > 0) {
    const stable = scope.define === undefined ? {} : { loading: 'stable' as const, definitions: scope.define(loaded) }
    const cut = shown.length > 0 ? { note: CUT_NOTE, candidates: shown } : {}
    return { schemaVersion: PAYLOAD_SCHEMA_VERSION, query, ...stable, tools: loaded, ...cut }
  }
  return { schemaVersion: PAYLOAD_SCHEMA_VERSION, query, tools: [], ...await nextMove(hits.length > 0, answer, scope) }
}

/**
 * What a search (not `discover:`) loads and what it only shows. A `select:` query loads every
 * tool it names, and a query that is one tool's exact name loads that tool alone: both ask for
 * named tools, so the rest of the catalog's scores have no say. Otherwise nothing loads unless the
 * best hit reaches {@link WEAK_MATCH_FLOOR}, and then only the leaders do.
 * @param query - the ranked query.
 * @param answer - its matches, best first, with their strengths (`ToolIndex.answerAsync`).
 * @param share - the leaders' least share of the best score (the benchmark tries others).
 */
export function searchLoads(query: string, answer: Pick<SearchAnswer, 'hits' | 'strengths'>, share = LEADER_SHARE): Leaders {
  if (namesTools(query)) return { loaded: answer.hits, shown: [] }
  if (namedExactly(query, answer, 0)) return { loaded: answer.hits.slice(0, 1), shown: answer.hits.slice(1) }
  return strong(query, answer, 0) ? leaders(answer.hits, share) : { loaded: [], shown: answer.hits }
}

/**
 * The hits that each reach {@link WEAK_MATCH_FLOOR} (all of them for a query that names tools):
 * what is loaded when nobody asked, as a prefetch is.
 * @param query - the ranked query.
 * @param answer - its matches, best first, with their strengths (`ToolIndex.answerAsync`).
 */
export function strongHits(query: string, answer: Pick<SearchAnswer, 'hits' | 'strengths'>): SearchHit[] {
  if (namesTools(query)) return answer.hits
  return answer.hits.filter((_, at) => strong(query, answer, at))
}

/** Whether the answer's hit at `at` is the tool the query names exactly, or matches it as strongly as the floor. */
function strong(query: string, answer: Pick<SearchAnswer, 'hits' | 'strengths'>, at: number): boolean {
  return namedExactly(query, answer, at) || (answer.strengths[at] ?? 0) >= WEAK_MATCH_FLOOR
}

/** Whether the answer's hit at `at` is the tool the query names exactly. */
function namedExactly(query: string, answer: Pick<SearchAnswer, 'hits'>, at: number): boolean {
  return answer.hits[at]?.name === query.trim()
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
 * @param answer - the core's next move: the candidates (the weak matches, and in a hybrid index
 *   the nearest others by meaning) and the names spelled like the query.
 */
async function nextMove(matched: boolean, answer: SearchAnswer, scope: SearchScope): Promise<Partial<ToolSearchPayload>> {
  const outline = await scope.outline()
  const candidates = answer.candidates ?? []
  const nearest = answer.nearest ?? []
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
