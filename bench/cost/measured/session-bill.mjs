// What a measured session costs, from the request bodies DSH sent and the scripted model's
// replies: each request's input tokens, the part of them its cached prefix covers
// (prefix-cache.mjs), its output, priced with the cost model's prices.
import { bill, cumulativeByStep } from '../billing.mjs'
import { cachedPrefixes } from './prefix-cache.mjs'
import { replyTokens } from './plan.mjs'
import { replySegment, requestSegments } from './request-tokens.mjs'
import { position } from './scripted-model.mjs'

/**
 * @typedef {import('./dsh-session.mjs').SessionRun} SessionRun
 * @typedef {import('./request-tokens.mjs').Tokenizer} Tokenizer
 * @typedef {import('../prices.mjs').Prices} Prices
 * @typedef {{step: number, input: number, cached: number, output: number, toolsTokens: number, cost: number}} BilledRequest
 * @typedef {ReturnType<typeof billSession>} SessionBill
 */

/**
 * @param {SessionRun} run
 * @param {object} billing
 * @param {number} billing.steps - the session's steps
 * @param {number} billing.stepsPerTurn
 * @param {Pick<Prices, 'cacheHit' | 'cacheMiss' | 'output'>} billing.prices
 * @param {number} billing.unit - tokens in a cache unit
 * @param {Tokenizer} billing.tokenizer
 */
export function billSession(run, { steps, stepsPerTurn, prices, unit, tokenizer }) {
  const price = (/** @type {number} */ input, /** @type {number} */ cached, /** @type {number} */ output) =>
    (cached * prices.cacheHit + (input - cached) * prices.cacheMiss + output * prices.output) / 1e6
  const laidOut = run.requests.map((body) => requestSegments(body, tokenizer))
  const replies = run.replies.map((reply) => replySegment(reply, tokenizer))
  const prefixes = cachedPrefixes(laidOut.map((request, i) => ({ prompt: request.segments, reply: /** @type {number[]} */ (replies[i]) })), { unit })
  /** @type {BilledRequest[]} */
  const requests = run.requests.map((body, i) => {
    const { turn, replies, searched } = position(body)
    const { input, cached } = /** @type {import('./prefix-cache.mjs').CachedPrefix} */ (prefixes[i])
    const output = replyTokens(/** @type {import('./dsh-session.mjs').Reply} */ (run.replies[i]), tokenizer)
    // A search belongs to the step it precedes, as in the cost model (session.mjs).
    const step = turn * stepsPerTurn + Math.max(0, replies - (searched ? 1 : 0)) + 1
    return { step, input, cached, output, toolsTokens: /** @type {{toolsTokens: number}} */ (laidOut[i]).toolsTokens, cost: price(input, cached, output) }
  })
  // DSH's session-title side call: its own prompt, shares nothing with the Agent's requests; it
  // is billed with the first step.
  const titlePrefixes = cachedPrefixes(run.titleRequests.map((body) => ({ prompt: requestSegments(body, tokenizer).segments })), { unit })
  const titles = titlePrefixes.map(({ input, cached }) => ({ step: 1, input, cached, output: tokenizer.count('Scripted E2E session'), cost: 0 }))
    .map((request) => ({ ...request, cost: price(request.input, request.cached, request.output) }))
  const cumulative = cumulativeByStep([...requests, ...titles], steps)
  const asModelled = billAsModelled(run, laidOut, requests, prices).reduce((sum, request) => sum + request.cost, 0) + titles.reduce((sum, request) => sum + request.cost, 0)
  const shares = requests.map((request) => request.cached / request.input)
  // A break: a request that does not carry on from the one before (it shares less than that
  // request's prompt), because the tools or the system prompt changed.
  const breaks = prefixes.filter((prefix, i) => i > 0 && prefix.shared < /** @type {{input: number}} */ (prefixes[i - 1]).input).length
  const sum = (/** @type {(request: {input: number, cached: number, output: number, cost: number}) => number} */ of) => [...requests, ...titles].reduce((total, request) => total + of(request), 0)
  const last = /** @type {import('../../../e2e/lib/model-server.mjs').ChatRequest} */ (run.requests.at(-1))
  return {
    cumulative,
    figures: {
      requests: requests.length,
      titleRequests: titles.length,
      webSearches: run.searchRequests.length,
      toolSearches: run.log.searches,
      viaCallTool: run.log.viaCallTool,
      misses: run.log.misses,
      inputTokens: sum((request) => request.input),
      cachedTokens: sum((request) => request.cached),
      outputTokens: sum((request) => request.output),
      cost: /** @type {number} */ (cumulative.at(-1)),
      costAsModelled: asModelled,
      cachedShare: { mean: mean(shares), minAfterFirst: shares.length > 1 ? Math.min(...shares.slice(1)) : null },
      cacheBreaks: breaks,
      lastInputTokens: requests.at(-1)?.input ?? 0,
      toolsTokens: { first: requests[0]?.toolsTokens ?? 0, last: requests.at(-1)?.toolsTokens ?? 0 },
      systemTokens: tokenizer.count(last.messages?.[0]?.role === 'system' ? last.messages[0].content : ''),
      resultTokens: meanResults(last, tokenizer),
      seconds: Math.round(run.ms / 100) / 10,
    },
  }
}

/**
 * The same requests billed by the cost model's rule (billing.mjs) instead of by their shared
 * prefixes: everything before the conversation (the system prompt and the tools) is the model's
 * "tools", and a request whose tools differ from the request before bills them and the whole
 * conversation uncached; otherwise only what is new since. The difference from the measured cost
 * is the cache arithmetic's alone (what a change keeps cached, whole units), the same sessions
 * on both sides.
 * @param {SessionRun} run
 * @param {{segments: number[][], toolsTokens: number}[]} laidOut
 * @param {BilledRequest[]} requests
 * @param {Pick<Prices, 'cacheHit' | 'cacheMiss' | 'output'>} prices
 */
function billAsModelled(run, laidOut, requests, prices) {
  let conversation = 0
  let previousOutput = 0
  /** @type {Map<string, number>} */
  const versions = new Map()
  return bill(requests.map((request, i) => {
    const body = /** @type {import('../../../e2e/lib/model-server.mjs').ChatRequest} */ (run.requests[i])
    const layout = /** @type {{segments: number[][], toolsTokens: number}} */ (laidOut[i])
    const head = /** @type {number[]} */ (layout.segments[0]).length + layout.toolsTokens
    const key = JSON.stringify([body.messages?.[0]?.content, body.tools])
    if (!versions.has(key)) versions.set(key, versions.size)
    const newTokens = request.input - head - conversation - previousOutput
    conversation = request.input - head
    previousOutput = request.output
    return { step: request.step, toolsVersion: /** @type {number} */ (versions.get(key)), toolsTokens: head, newTokens, outputTokens: request.output }
  }), prices)
}

/**
 * The mean size of the tool results the last request carries, tool_search's apart.
 * @param {import('../../../e2e/lib/model-server.mjs').ChatRequest} body
 * @param {Tokenizer} tokenizer
 */
function meanResults(body, tokenizer) {
  /** @type {Map<string, string>} */
  const callNames = new Map()
  /** @type {{search: number[], other: number[]}} */
  const sizes = { search: [], other: [] }
  for (const message of body.messages ?? []) {
    for (const call of message.tool_calls ?? []) callNames.set(call.id, call.function.name)
    if (message.role !== 'tool') continue
    const tokens = tokenizer.count(typeof message.content === 'string' ? message.content : JSON.stringify(message.content))
    ;(callNames.get(message.tool_call_id) === 'tool_search' ? sizes.search : sizes.other).push(tokens)
  }
  return { search: sizes.search.length === 0 ? null : Math.round(mean(sizes.search)), other: Math.round(mean(sizes.other)) }
}

/** @param {number[]} values */
function mean(values) {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length
}
