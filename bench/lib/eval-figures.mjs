// The shape of `pnpm eval`'s figures and the rows its tables show, apart from eval.mjs so the
// report can render recorded figures without loading the native addon.

/**
 * @typedef {'lexical' | 'hybrid'} Ranking
 * @typedef {ReturnType<typeof import('./eval-metrics.mjs').summarize> & ReturnType<typeof import('./eval-metrics.mjs').summarizeLoads>
 *   & ReturnType<typeof import('./eval-metrics.mjs').summarizeFirstSteps>} Metrics `hit5` in a set scored by steps only
 * @typedef {{exactNameR1: number, all: Metrics, dev?: Metrics, held?: Metrics}} RankingFigures
 *   a set kept whole has `all` only; a split set has its dev and held parts too
 *   (a set of dev requests only, `devOnly`, has no held part)
 * @typedef {{id: string, label: string, whole: boolean, devOnly?: boolean, literal?: boolean, tools: number} & Record<Ranking, RankingFigures>} SetFigures
 *   a literal-phrase check (`literal`) is shown in a table of its own
 * @typedef {{defaultRanking: Ranking, sets: SetFigures[]}} EvalResults
 */

/** @type {Ranking[]} */
export const RANKINGS = ['lexical', 'hybrid']

/**
 * The rows a ranking's table shows: the dev and held parts of each split set, the dev part of a
 * set of dev requests only, `all` of a set kept whole; no literal-phrase check.
 * @param {SetFigures[]} sets @param {Ranking} ranking
 * @returns {{set: SetFigures, part: 'all' | 'dev' | 'held', metrics: Metrics, first: boolean}[]}
 */
export function tableRows(sets, ranking) {
  return sets.filter((set) => !set.literal).flatMap((set) => {
    const parts = set.whole ? /** @type {const} */ (['all']) : set.devOnly ? /** @type {const} */ (['dev']) : /** @type {const} */ (['dev', 'held'])
    return parts.map((part, i) => {
      const metrics = set[ranking][part]
      if (metrics === undefined) throw new Error(`${set.id} has no ${part} part`)
      return { set, part, metrics, first: i === 0 }
    })
  })
}

/**
 * The literal-phrase table's rows: each check's dev and held parts (a part without a request is
 * left out), with R@1 in both rankings.
 * @param {SetFigures[]} sets
 * @returns {{set: SetFigures, part: 'dev' | 'held', hybrid: Metrics, lexical: Metrics, first: boolean}[]}
 */
export function literalRows(sets) {
  return sets.filter((set) => set.literal).flatMap((set) => {
    const parts = /** @type {const} */ (['dev', 'held']).filter((part) => set.hybrid[part] !== undefined)
    return parts.map((part, i) => {
      const [hybrid, lexical] = [set.hybrid[part], set.lexical[part]]
      if (hybrid === undefined || lexical === undefined) throw new Error(`${set.id} has no ${part} part in both rankings`)
      return { set, part, hybrid, lexical, first: i === 0 }
    })
  })
}
