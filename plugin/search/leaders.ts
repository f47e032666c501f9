/**
 * Which of a confident search's hits are loaded: the leaders. Every loaded tool costs tokens for
 * the rest of the Agent's life (its schema in every request under `loading: native`, its
 * definition in the conversation under `stable`), and a long list also dilutes the model's
 * choice. So a hit whose score falls below {@link LEADER_SHARE} of the best hit's is shown, not
 * loaded: it stays in the result as a candidate the model can still load by name. A `select:`
 * query is not cut: it loads what it names (`searchLoads` in answer.ts); nor is a query that is a
 * tool's exact name: that tool loads alone, and every other hit is shown.
 */

import type { SearchHit } from '../host/native.ts'

/**
 * The least share of the best hit's score a hit needs to be loaded. Chosen by
 * `bench/calibrate-cut.mjs` on the dev parts of the eval sets as the highest share, in steps of
 * 0.05, at which no source loses more than 1% of the relevant tools its searches load; it prints
 * what it would choose and what this share does. It chose 0.4 until the transformer's floor let
 * more tools in by meaning (`contextual_floor` in src/index/params.rs): there 0.4 cost ToolTalk
 * 1.2% of its relevant tools. It chose 0.3 until the encoder was trained on the written requests
 * (docs/model.md), and 0.35 since: no source loses a relevant tool, and on these sets the cut
 * loads about as many tools as no cut; the benchmark's scripted searches, whose scores stand
 * further apart, are where it saves. Re-run it whenever the ranking changes.
 */
export const LEADER_SHARE = 0.35

/** The hits to load and the ones only shown, best first. */
export interface Leaders {
  readonly loaded: SearchHit[]
  readonly shown: SearchHit[]
}

/**
 * @param hits - a confident search's hits, best first (the best one always loads).
 * @param share - the least share of the best score a loaded hit has.
 */
export function leaders(hits: readonly SearchHit[], share = LEADER_SHARE): Leaders {
  const best = hits[0]?.score ?? 0
  const loaded: SearchHit[] = []
  const shown: SearchHit[] = []
  for (const [rank, hit] of hits.entries()) (rank === 0 || hit.score >= share * best ? loaded : shown).push(hit)
  return { loaded, shown }
}
