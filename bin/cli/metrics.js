// Retrieval metrics for a ranked list against a set of relevant names (binary relevance): what
// `dsh-tool-search eval` and the repository's `pnpm eval` report.

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
