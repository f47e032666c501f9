// The benchmark's cost section: what a session costs with a prefix cache, offering every tool
// and deferring them, for every catalog of the token table. It is computed from the recorded
// token figures and the model's parameters alone, so it can be recomputed without measuring
// anything again (`pnpm benchmark --cost`), and `pnpm run benchmark:check` recomputes it to
// catch a cost section that no longer follows from the token table.
import { isDeepStrictEqual } from 'node:util'
import { bill, breakEvenStep, cumulativeByStep } from './billing.mjs'
import { evictionPayback } from './eviction.mjs'
import { sessionRequests } from './session.mjs'

/**
 * @typedef {import('./prices.mjs').Prices} Prices
 * @typedef {import('./session.mjs').SessionShape} SessionShape
 * @typedef {import('./session.mjs').ToolSurface} ToolSurface
 * @typedef {import('./session.mjs').Arm} Arm
 * @typedef {import('../report/report.mjs').Results['tokens']} TokenTable
 * @typedef {TokenTable['rows'][number]} TokenRow
 * @typedef {import('./parameters.mjs').CostParameters} CostParameters
 * @typedef {ReturnType<typeof costSection>} CostResults
 */

/** Dollars are kept to a millionth of a cent: far below any figure the report prints. */
// `+ 0` turns the -0 a tiny negative rounds to into 0: JSON writes both as 0, and the check that
// the recorded section follows from its inputs compares with Object.is.
const round = (/** @type {number} */ dollars) => Math.round(dollars * 1e8) / 1e8 + 0
const percent = (/** @type {number} */ part, /** @type {number} */ whole) => Math.round((part / whole) * 1000) / 10 + 0

/**
 * @param {TokenTable} tokens - the recorded token table.
 * @param {CostParameters} parameters
 */
export function costSection(tokens, parameters) {
  const surfaces = tokens.rows.map(toolSurface)
  const typical = typicalTools(surfaces, tokens.toolSearchSchemaTokens)
  return {
    parameters,
    rows: tokens.rows.map((row, i) => ({
      id: row.id,
      label: row.label,
      sessions: parameters.sessionSteps.map((steps) => sessionCosts(parameters, { ...parameters.session, steps }, /** @type {ToolSurface} */ (surfaces[i]))),
    })),
    breakEvenDeferredTokens: breakEvenCatalog(parameters, typical),
    eviction: evictionPayback(parameters, typical),
  }
}

/**
 * A catalog of typical tools, with no core tools beside them: the median found tool and search
 * result of the token table, as many tools per search as the table's searches found at most.
 * @param {ToolSurface[]} surfaces
 * @param {number} toolSearchTokens
 * @returns {Omit<ToolSurface, 'full' | 'deferred'>}
 */
function typicalTools(surfaces, toolSearchTokens) {
  return {
    initial: toolSearchTokens,
    perTool: median(surfaces.map((surface) => surface.perTool)),
    hits: Math.max(...surfaces.map((surface) => surface.hits)),
    payload: median(surfaces.map((surface) => surface.payload)),
  }
}

/**
 * A row's tool tokens as the session model reads them.
 * @param {TokenRow} row
 * @returns {ToolSurface}
 */
export function toolSurface(row) {
  const { initial, afterSearch } = row.withPlugin
  const hits = afterSearch.offered - initial.offered
  return {
    full: row.withoutPlugin.tokens,
    initial: initial.tokens,
    perTool: (afterSearch.toolsTokens - initial.tokens) / hits,
    hits,
    // Offered up front: the core tools and tool_search, which is not in the catalog.
    deferred: row.tools - (initial.offered - 1),
    payload: afterSearch.payloadTokens,
  }
}

/**
 * @param {CostParameters} parameters
 * @param {SessionShape} shape
 * @param {ToolSurface} surface
 */
function sessionCosts({ prices, prefetch }, shape, surface) {
  const run = (/** @type {Arm} */ arm) => cumulativeByStep(bill(sessionRequests(shape, surface, arm), prices), shape.steps)
  const all = run({ defer: false })
  const deferred = run({ defer: true, prefetch: 0 })
  const prefetched = run({ defer: true, prefetch })
  const total = (/** @type {number[]} */ costs) => /** @type {number} */ (costs.at(-1))
  const [allCost, deferredCost, prefetchCost] = [total(all), total(deferred), total(prefetched)]
  return {
    steps: shape.steps,
    cost: { all: round(allCost), deferred: round(deferredCost), prefetch: round(prefetchCost) },
    saved: { deferred: round(allCost - deferredCost), prefetch: round(allCost - prefetchCost) },
    savedPercent: { deferred: percent(allCost - deferredCost, allCost), prefetch: percent(allCost - prefetchCost, allCost) },
    breakEvenStep: { deferred: breakEvenStep(deferred, all), prefetch: breakEvenStep(prefetched, all) },
  }
}

/**
 * For each session length, the smallest total of deferred schemas from which deferring is
 * cheaper than offering every tool: the figure `defer: auto`'s threshold is chosen from.
 * @param {CostParameters} parameters
 * @param {Omit<ToolSurface, 'full' | 'deferred'>} typical - the catalog's tools.
 */
function breakEvenCatalog({ prices, session, sessionSteps }, typical) {
  /** @param {number} deferredTokens @param {number} steps */
  const cheaper = (deferredTokens, steps) => {
    const surface = { ...typical, full: deferredTokens, deferred: Math.ceil(deferredTokens / typical.perTool) }
    const shape = { ...session, steps }
    const cost = (/** @type {Arm} */ arm) => bill(sessionRequests(shape, surface, arm), prices).reduce((sum, request) => sum + request.cost, 0)
    return cost({ defer: true, prefetch: 0 }) < cost({ defer: false })
  }
  return {
    perTool: Math.round(typical.perTool),
    payload: Math.round(typical.payload),
    sessions: sessionSteps.map((steps) => ({ steps, tokens: smallest((tokens) => cheaper(tokens, steps), CATALOG_SEARCH_LIMIT) })),
  }
}

/** The largest catalog the break-even search considers, in schema tokens. */
const CATALOG_SEARCH_LIMIT = 10_000_000

/**
 * The smallest whole number up to `limit` for which `holds` is true, `holds` being false below
 * some point and true from it on; null when it is false at `limit`.
 * @param {(n: number) => boolean} holds
 * @param {number} limit
 */
function smallest(holds, limit) {
  if (!holds(limit)) return null
  let [low, high] = [0, limit]
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2)
    if (holds(middle)) high = middle
    else low = middle
  }
  return high
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? /** @type {number} */ (sorted[middle]) : (/** @type {number} */ (sorted[middle - 1]) + /** @type {number} */ (sorted[middle])) / 2
}

/**
 * Whether a recorded cost section still follows from the recorded token table and the
 * parameters it names.
 * @param {TokenTable} tokens
 * @param {CostResults | undefined} cost - the recorded section.
 * @returns {string[]} the problems found, empty when it does.
 */
export function checkCostSection(tokens, cost) {
  if (cost === undefined) return ['docs/benchmark-results.json has no cost section; run `pnpm benchmark --cost`']
  return isDeepStrictEqual(costSection(tokens, cost.parameters), cost)
    ? []
    : ['the cost section of docs/benchmark-results.json does not follow from its token table and parameters; run `pnpm benchmark --cost`']
}
