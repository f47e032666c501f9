/**
 * The leader cut's parameter. Every loaded tool costs tokens for the rest of the Agent's life (its
 * schema in every request under `loading: native`, its definition in the conversation under
 * `stable`), and a long list also dilutes the model's choice; so of a confident search's hits,
 * one whose score falls below {@link LEADER_SHARE} of the best hit's is shown, not loaded: it
 * stays in the result as a candidate the model can still load by name. The core applies the cut
 * (`decideAsync`; the rules are listed in src/answer/mod.rs); this module only says how deep it
 * cuts, and where.
 */

/**
 * The least share of the best hit's score a hit needs to be loaded: the highest, in steps of
 * 0.05, at which no source of the eval sets' dev parts loses more than 1% of the relevant tools
 * its searches load, as `bench/calibrate-cut.mjs` prints it (docs/search.md, "The leader cut",
 * has its figures). Re-run it whenever the ranking changes. Since the query reader it asks for
 * 0.3, for one relevant tool of ToolTalk's 55 requests; the share stays (docs/search.md says why).
 */
export const LEADER_SHARE = 0.35

/** A leader share that loads every confident hit. */
const NO_CUT = 0

/**
 * The leader share a search applies. The cut is stable loading's: there a search breaks no
 * cache, so loading fewer keeps the conversation small. Under native loading each search that
 * loads tools bills the conversation again, and the near misses loaded beside the leaders spare
 * later searches (docs/search.md, "The leader cut", has the measured costs).
 * @param stable - whether found tools load as definitions (`loading: stable`).
 */
export function leaderShare(stable: boolean): number {
  return stable ? LEADER_SHARE : NO_CUT
}
