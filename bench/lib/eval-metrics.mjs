// Retrieval metrics, the command line's (bin/cli/metrics.js, shipped with the package), and the
// parts a labelled set is split into.
export { ndcgAt, recallAt, requestMetrics, summarize } from '../../bin/cli/metrics.js'

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
