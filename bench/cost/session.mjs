// One modelled session as the list of model requests it sends: offering every tool, deferring
// them (the plugin), and deferring them with prefetch. The token figures of a catalog come from
// the token table; the shape of the session (how long it runs, what each step adds, when the
// model searches) is a parameter of the model, the same for every catalog.

/**
 * @typedef {object} SessionShape
 * @property {number} steps - model requests the session's work takes when every tool is offered
 * @property {number} stepsPerTurn - a user message starts a new turn every this many steps
 * @property {number} searchEveryTurns - the model searches at the start of turns 1, 1 + this, ...
 *   while deferred tools remain
 * @property {number} userTokens - one user message
 * @property {number} resultTokens - what one step adds to the conversation besides the model's
 *   own output: the result of the tool it called
 * @property {number} outputTokens - what the model writes in one step
 * @property {number} searchCallTokens - what the model writes to call `tool_search`
 */

/**
 * A catalog's tool tokens, read from one row of the token table.
 * @typedef {object} ToolSurface
 * @property {number} full - the `tools` of a request that offers every tool
 * @property {number} initial - the `tools` of the plugin's first request
 * @property {number} perTool - what one found tool adds to `tools`
 * @property {number} hits - tools one search adds
 * @property {number} deferred - tools the plugin defers
 * @property {number} payload - the search result the model reads
 */

/**
 * How the session is served: every tool offered, or deferred with `prefetch` tools joining the
 * selection at the first request of every turn (0: no prefetch).
 * @typedef {{defer: false} | {defer: true, prefetch: number}} Arm
 */

/**
 * One model request: the tools it offers and what it adds to the conversation.
 * @typedef {object} Request
 * @property {number} step - the step of the session's work it belongs to, from 1
 * @property {number} toolsVersion - changes whenever the offered tools change
 * @property {number} toolsTokens
 * @property {number} newTokens - input after the previous request's output (a user message, a result)
 * @property {number} outputTokens
 */

/**
 * The requests of one session. A search costs a request of its own: the model calls
 * `tool_search` where it would otherwise have called the tool, reads the result and only then
 * works on, with the found tools offered. Prefetched tools are offered from the first request
 * of a turn; the model still searches where it would without prefetch, so the model counts what
 * prefetch costs and credits it with no search it might spare.
 * @param {SessionShape} shape
 * @param {ToolSurface} surface
 * @param {Arm} arm
 * @returns {Request[]}
 */
export function sessionRequests(shape, surface, arm) {
  /** @type {Request[]} */
  const requests = []
  let toolsVersion = 0
  let toolsTokens = arm.defer ? surface.initial : surface.full
  let remaining = arm.defer ? surface.deferred : 0
  const offerMore = (/** @type {number} */ wanted) => {
    const found = Math.min(wanted, remaining)
    if (found === 0) return
    remaining -= found
    toolsTokens += found * surface.perTool
    toolsVersion += 1
  }
  for (let step = 1; step <= shape.steps; step++) {
    const turn = Math.floor((step - 1) / shape.stepsPerTurn)
    const turnStart = (step - 1) % shape.stepsPerTurn === 0
    let newTokens = turnStart ? shape.userTokens : shape.resultTokens
    if (arm.defer && turnStart) {
      offerMore(arm.prefetch)
      if (turn % shape.searchEveryTurns === 0 && remaining > 0) {
        requests.push({ step, toolsVersion, toolsTokens, newTokens, outputTokens: shape.searchCallTokens })
        offerMore(surface.hits)
        newTokens = surface.payload
      }
    }
    requests.push({ step, toolsVersion, toolsTokens, newTokens, outputTokens: shape.outputTokens })
  }
  return requests
}
