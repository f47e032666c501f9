// Retrieval metrics for a ranked list against a set of relevant names (binary relevance), and their
// means over requests: what `dsh-tool-search eval` and the repository's `pnpm eval` report.

/**
 * Share of the relevant names found in the first k results.
 * @param {string[]} ranked @param {string[]} relevant @param {number} k
 */
export function recallAt(ranked, relevant, k) {
  const top = new Set(ranked.slice(0, k))
  return relevant.filter((name) => top.has(name)).length / relevant.length
}

/**
 * NDCG@k with binary gain: rewards relevant names near the top.
 * @param {string[]} ranked @param {string[]} relevant @param {number} k
 */
export function ndcgAt(ranked, relevant, k) {
  const wanted = new Set(relevant)
  let dcg = 0
  ranked.slice(0, k).forEach((name, i) => {
    if (wanted.has(name)) dcg += 1 / Math.log2(i + 2)
  })
  let ideal = 0
  for (let i = 0; i < Math.min(k, relevant.length); i++) ideal += 1 / Math.log2(i + 2)
  return dcg / ideal
}

/** @typedef {{r1: number, r5: number, r10: number, ndcg10: number}} RequestMetrics */

/**
 * One request's figures, from its ranked page (at least 10 long when the catalog allows).
 * @param {string[]} ranked @param {string[]} relevant
 * @returns {RequestMetrics}
 */
export function requestMetrics(ranked, relevant) {
  return { r1: recallAt(ranked, relevant, 1), r5: recallAt(ranked, relevant, 5), r10: recallAt(ranked, relevant, 10), ndcg10: ndcgAt(ranked, relevant, 10) }
}

/**
 * Mean of per-request metrics, rounded to three decimals as reported.
 * @param {RequestMetrics[]} rows
 */
export function summarize(rows) {
  /** @param {keyof RequestMetrics} key */
  const mean = (key) => rows.reduce((sum, row) => sum + row[key], 0) / rows.length
  /** @param {number} x */
  const round = (x) => Math.round(x * 1000) / 1000
  return {
    requests: rows.length,
    r1: round(mean('r1')),
    r5: round(mean('r5')),
    r10: round(mean('r10')),
    ndcg10: round(mean('ndcg10')),
  }
}
