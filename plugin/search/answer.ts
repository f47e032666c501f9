/**
 * What one `tool_search` call answers with, rendered from the core's decision
 * (`ToolIndex.decideAsync`, one call, ranked once off the JavaScript thread): the core reads the
 * query's form (`select:`, `+word`, `discover:`), decides which hits load and which are only
 * shown, and when nothing fits, the next move. This module passes in the two parameters, the
 * weak-match floor and the leader share (leaders.ts), and renders: the loaded tools (under
 * `loading: stable` with their definitions), the shown ones as candidates, for `discover:` the
 * matches with their full parameter schemas, and for a result that loads nothing the model's
 * next move (the candidates and names the core found, the deferred groups, the `select:` form)
 * instead of a bare `[]`.
 */

import type { JsonValue } from '@deepseek-ai/dsh-session'
import { ownTurn } from '../host/loop-turns.ts'
import type { CatalogOutline, NextMove, SearchHit, ToolIndex } from '../host/native.ts'
import type { PayloadDefinitions } from './definitions.ts'
import { leaderShare } from './leaders.ts'
import { PAYLOAD_SCHEMA_VERSION } from '../contract.ts'
import type { PayloadTool, ToolSearchPayload } from './payload.ts'

/**
 * How strong the best ranked match must be for a search to load anything, and each match a
 * prefetch loads, in the core's unit (`ToolIndex.matchStrength`: 1 is a match worth one word that
 * only one tool has). Below it the matches share only incidental words with the query; they are
 * shown as candidates instead. Chosen by `bench/calibrate-floor.mjs` on the dev parts of the eval
 * sets (it prints the floor it would choose, and what this one does); re-run it whenever the
 * ranking changes. Since the query reader it asks for 0.35, for one ToolTalk request of 55; the
 * floor stays, as at 0.35 messages with no confident match load tools (docs/search.md).
 */
export const WEAK_MATCH_FLOOR = 0.5

/** Groups an empty or weak result lists, largest first. */
const LISTED_GROUPS = 12
/** What a result that loads some hits and shows the rest tells the model about the rest. */
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
 * The parameters a search is decided by (`ToolIndex.decideAsync`'s options besides `exclude`).
 * @param stable - whether found tools load as definitions (`loading: stable`).
 */
export function searchRules(stable: boolean): { floor: number; leaderShare: number } {
  return { floor: WEAK_MATCH_FLOOR, leaderShare: leaderShare(stable) }
}

/**
 * @param query - the validated, trimmed query as the model sent it.
 * @param limit - results to return.
 * @param scope - the caller's catalog.
 * @returns the payload.
 * @throws when a `discover:` query has nothing after the prefix (the core's error).
 */
export async function answerSearch(query: string, limit: number, scope: SearchScope): Promise<ToolSearchPayload> {
  const decision = await scope.index.decideAsync(query, limit, { exclude: [...scope.exclude], ...searchRules(scope.define !== undefined) })
  await ownTurn()
  const answered = { schemaVersion: PAYLOAD_SCHEMA_VERSION, query } as const
  const next = decision.nextMove === undefined ? {} : await nextMove(decision.nextMove, scope)
  if (decision.form === 'discover') {
    const tools = decision.shown.map((hit): PayloadTool => withParameters(hit, scope.parametersOf(hit.name)))
    return { ...answered, discover: true, tools, ...next }
  }
  const { loaded, shown } = decision
  if (loaded.length === 0) return { ...answered, tools: [], ...next }
  const stable = scope.define === undefined ? {} : { loading: 'stable' as const, definitions: scope.define(loaded) }
  const cut = shown.length > 0 ? { note: CUT_NOTE, candidates: shown } : {}
  return { ...answered, ...stable, tools: loaded, ...cut }
}

function withParameters(hit: SearchHit, parameters: JsonValue | undefined): PayloadTool {
  return parameters === undefined ? hit : { ...hit, parameters }
}

/**
 * The fields of a result that loads nothing: what there is, and how to get it.
 * @param next - the core's next move: whether anything matched (weakly), the candidates (the weak
 *   matches, and in a hybrid index the nearest others by meaning) and the names spelled like the
 *   query.
 */
async function nextMove({ matched, candidates, nearest }: NextMove, scope: SearchScope): Promise<Partial<ToolSearchPayload>> {
  const outline = await scope.outline()
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
