// What one eviction under `maxSelected` costs and saves, in the cost model's long session: the
// figure the setting's default is chosen from.
//
// Dropping tools changes the offered tools, so the request after it bills the remaining tools
// and the whole conversation uncached once; from then on every step sends the dropped schemas no
// more, which saves them at the cache-hit price. The eviction is taken at the first turn that
// starts past the middle of the session, in a turn without a search (a search, or a prefetch,
// changes the tools at the same request anyway, and an eviction there breaks nothing more).
import { bill } from './billing.mjs'
import { sessionRequests } from './session.mjs'

/**
 * @typedef {import('./parameters.mjs').CostParameters} CostParameters
 * @typedef {import('./session.mjs').ToolSurface} ToolSurface
 */

const round = (/** @type {number} */ dollars) => Math.round(dollars * 1e8) / 1e8 + 0

/**
 * @param {CostParameters} parameters
 * @param {Omit<ToolSurface, 'full' | 'deferred'>} typical - a catalog of typical tools.
 */
export function evictionPayback({ prices, session, sessionSteps }, typical) {
  const steps = Math.max(...sessionSteps)
  // Every search finds new tools: the catalog never runs out.
  const requests = sessionRequests({ ...session, steps }, { ...typical, full: 0, deferred: Number.MAX_SAFE_INTEGER }, { defer: true, prefetch: 0 })
  const turnLength = session.stepsPerTurn
  let step = Math.floor(steps / 2 / turnLength) * turnLength + 1
  while (requests.filter((request) => request.step === step).length > 1) step += turnLength
  const at = requests.findIndex((request) => request.step === step)
  const request = requests[at]
  if (request === undefined) throw new Error(`the ${steps}-step session has no turn without a search past its middle`)
  const billed = bill(requests, prices)
  const conversation = billed.slice(0, at).reduce((sum, earlier) => sum + earlier.newTokens + earlier.outputTokens, 0)
  const dropped = typical.hits * typical.perTool
  const cost = ((request.toolsTokens - dropped + conversation) * (prices.cacheMiss - prices.cacheHit)) / 1e6
  const savedPerStep = (dropped * prices.cacheHit) / 1e6
  return {
    steps,
    step,
    tools: typical.hits,
    tokens: Math.round(dropped),
    cost: round(cost),
    savedPerStep: round(savedPerStep),
    paybackSteps: Math.ceil(cost / savedPerStep),
  }
}
