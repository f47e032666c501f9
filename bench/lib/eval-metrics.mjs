// Retrieval metrics for a ranked list against a set of relevant names (binary relevance): the
// command line's (bin/cli/metrics.js, shipped with the package), their means, and the parts.
export { ndcgAt, recallAt } from '../../bin/cli/metrics.js'

/** @typedef {{r1: number, r5: number, r10: number, ndcg10: number}} RequestMetrics */

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

/**
 * The held-back part of the dev set: a fixed 30% of requests chosen by a hash of their id, so the
 * split never depends on file order and never changes between runs.
 */
/** @param {string} id */
export function isHeldBack(id) {
  let hash = 0x811c9dc5
  for (const byte of Buffer.from(id, 'utf8')) {
    hash ^= byte
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash % 10 < 3
}
