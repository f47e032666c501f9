// What a list of requests costs with a prefix cache, laid out the way DSH's requests reach the
// model.
//
// DSH's DeepSeek adapter (@deepseek-ai/dsh-llm-deepseek, lib/index.js: `serializeRequest` and
// `requestWithMessages`) sends the system prompt as the first message and the offered tools as
// the request's `tools` field; DeepSeek's encoding renders those schemas right after the system
// prompt and before the first user message (huggingface.co/deepseek-ai/DeepSeek-V4-Pro,
// encoding/tests/test_output_1.txt: the system text, then `## Tools` with the schemas, then
// `<｜User｜>`). So a prompt is
// [system prompt][tools][conversation], and the conversation only ever grows at its end.
//
// A prefix cache bills again, at the full price, everything from the first token that differs
// from what an earlier request sent (DSH's packages/core/tools README: a change of the visible
// tools "may invalidate reuse from the first changed schema token"). The model therefore bills:
// - a request offering the same tools as the one before: the previous request's whole input and
//   output as cache hits, only what is new since as misses;
// - a request whose tools changed, and the first one of a session: the tools and the whole
//   conversation as misses, once. (The change is taken to start at the first tool; the core
//   tools ahead of an inserted one may in fact stay cached, a difference of a few thousand
//   tokens at most.)
// The system prompt is left out of both sides: it sits before the tools, is billed alike with and
// without deferral, and its size does not depend on the catalog.

/**
 * @typedef {import('./session.mjs').Request} Request
 * @typedef {import('./prices.mjs').Prices} Prices
 * @typedef {Request & {hit: number, miss: number, cost: number}} BilledRequest
 */

/**
 * @param {readonly Request[]} requests - in the order they are sent.
 * @param {Pick<Prices, 'cacheHit' | 'cacheMiss' | 'output'>} prices
 * @returns {BilledRequest[]}
 */
export function bill(requests, prices) {
  let conversation = 0
  /** @type {Request | undefined} */
  let previous
  return requests.map((request) => {
    const input = request.toolsTokens + conversation + request.newTokens
    const hit = previous?.toolsVersion === request.toolsVersion ? request.toolsTokens + conversation : 0
    conversation += request.newTokens + request.outputTokens
    previous = request
    const cost = (hit * prices.cacheHit + (input - hit) * prices.cacheMiss + request.outputTokens * prices.output) / 1e6
    return { ...request, hit, miss: input - hit, cost }
  })
}

/**
 * The cost of a session after each of its steps, requests belonging to a step included.
 * @param {readonly {step: number, cost: number}[]} billed - modelled (BilledRequest) or measured.
 * @param {number} steps
 * @returns {number[]} index `i` holds the cost of steps 1 to `i + 1`.
 */
export function cumulativeByStep(billed, steps) {
  const totals = new Array(steps).fill(0)
  for (const request of billed) totals[request.step - 1] += request.cost
  for (let i = 1; i < steps; i++) totals[i] += totals[i - 1]
  return totals
}

/**
 * The step from which a session is cheaper than another and stays so to its end.
 * @param {readonly number[]} cheaper - cumulative costs of the session that should be cheaper.
 * @param {readonly number[]} than - cumulative costs of the other, step for step.
 * @returns {number | null} the step, from 1; null when it is not cheaper at the end.
 */
export function breakEvenStep(cheaper, than) {
  let from = null
  for (let i = cheaper.length - 1; i >= 0 && /** @type {number} */ (cheaper[i]) < /** @type {number} */ (than[i]); i--) from = i + 1
  return from
}
