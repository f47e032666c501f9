// Retrieval metrics, the command line's (bin/cli/metrics.js, shipped with the package), what the
// plugin's searches load, and the parts a labelled set is split into.
export { ndcgAt, recallAt, requestMetrics, summarize } from '../../bin/cli/metrics.js'

/**
 * What a part's searches load: tools per search (a search that loads nothing counts), and the
 * share of the loaded tools that are relevant, pooled over the part; rounded as reported.
 * @param {{loaded: number, relevantLoaded: number}[]} rows - per request, the tools loaded and the relevant ones among them.
 */
export function summarizeLoads(rows) {
  const loaded = rows.reduce((sum, row) => sum + row.loaded, 0)
  const relevant = rows.reduce((sum, row) => sum + row.relevantLoaded, 0)
  const round = (/** @type {number} */ x) => Math.round(x * 1000) / 1000
  return { loadedPerSearch: round(loaded / rows.length), relevantOfLoaded: loaded === 0 ? 0 : round(relevant / loaded) }
}

/**
 * The held-back part of the dev set: a fixed 30% of requests chosen by a hash of their id, so the
 * split never depends on file order and never changes between runs.
 */
/** @param {string} id */
export function isHeldBack(id) {
  return fnv1a32(id) % 10 < 3
}

/**
 * Whether a recorded MCP server's written requests are the transformer's validation, never
 * trained on (`is_validation_server` in model/build/train/parts.py, the same rule): the 32-bit
 * FNV-1a hash of `v1:` and its name, modulo 5, is 0.
 * @param {string} server
 */
export function isValidationServer(server) {
  return fnv1a32(`v1:${server}`) % 5 === 0
}

/** @param {string} text @returns {number} the 32-bit FNV-1a hash of its UTF-8 bytes */
function fnv1a32(text) {
  let hash = 0x811c9dc5
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}
