// Retrieval metrics, the command line's (bin/cli/metrics.js, shipped with the package) and the
// multi-step set's, scored by steps; what the plugin's searches load; and the parts a labelled
// set is split into.
export { ndcgAt, recallAt, requestMetrics, summarize } from '../../bin/cli/metrics.js'

/**
 * One request's figures scored by steps (bench/data/multistep/README.md, "Scoring"): R@k is the
 * share of its steps found in the first k results, a step found when any of the tools that serve
 * it is there; NDCG@10 gains once per step, at the first result that finds it; `hit5` is 1 when
 * the request's first step is found in the first 5. The fields of `requestMetrics` keep their
 * meaning, so a part's means are taken the same way.
 * @param {string[]} ranked @param {string[][]} steps - each step's tools; no tool in two steps
 */
export function stepMetrics(ranked, steps) {
  const foundAt = steps.map((tools) => {
    const rank = ranked.findIndex((name) => tools.includes(name))
    return rank === -1 ? Infinity : rank
  })
  const recall = (/** @type {number} */ k) => foundAt.filter((rank) => rank < k).length / steps.length
  const gain = (/** @type {number} */ rank) => 1 / Math.log2(rank + 2)
  const dcg = foundAt.filter((rank) => rank < 10).reduce((sum, rank) => sum + gain(rank), 0)
  const ideal = steps.slice(0, 10).reduce((sum, _, rank) => sum + gain(rank), 0)
  return { r1: recall(1), r5: recall(5), r10: recall(10), ndcg10: dcg / ideal, hit5: (foundAt[0] ?? Infinity) < 5 ? 1 : 0 }
}

/**
 * Hit@5 of a part scored by steps: the share of its requests whose first step is found in the
 * first 5, rounded as reported; nothing for a part whose requests are not scored by steps.
 * @param {{hit5?: number}[]} rows
 * @returns {{hit5?: number}}
 */
export function summarizeFirstSteps(rows) {
  if (rows.length === 0 || rows.some((row) => row.hit5 === undefined)) return {}
  return { hit5: Math.round((rows.reduce((sum, row) => sum + (row.hit5 ?? 0), 0) / rows.length) * 1000) / 1000 }
}

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
 * Whether a dev request is one of the transformer's validation requests, which its training stops
 * on and never trains on (`is_validation` in model/build/train/parts.py, the same rule): the
 * 32-bit FNV-1a hash of its key (a paired request's pair, else its id), modulo 10, is 3 or 4.
 * @param {string} key
 */
export function isValidation(key) {
  const bucket = fnv1a32(key) % 10
  return bucket === 3 || bucket === 4
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
