// The cost model's parameters: the prices, the shape and lengths of the modelled sessions, and
// the prefetch the third arm models. Each default can be replaced on the command line
// (`pnpm benchmark --cost --price-hit 0.003 ...`); the results record the parameters they were
// computed with, so docs/benchmark.md states them and the check recomputes with the same ones.
import { DEEPSEEK_PRICES } from './prices.mjs'

/**
 * @typedef {import('./prices.mjs').Prices} Prices
 * @typedef {import('./session.mjs').SessionShape} SessionShape
 */

/**
 * @typedef {object} CostParameters
 * @property {Prices} prices
 * @property {Omit<SessionShape, 'steps'>} session
 * @property {number[]} sessionSteps - the lengths of the modelled sessions
 * @property {number} prefetch - tools the prefetch arm adds at the start of every turn
 */

/**
 * A working session of a coding agent: a user message every five steps, each step reading a
 * result of about a thousand tokens (a file excerpt, command output) and writing a tool call
 * with a little reasoning; the model searches at the start of every other turn, for the tools
 * that turn's task needs.
 * @type {Omit<SessionShape, 'steps'>}
 */
const DEFAULT_SESSION = {
  stepsPerTurn: 5,
  searchEveryTurns: 2,
  userTokens: 150,
  resultTokens: 1000,
  outputTokens: 250,
  searchCallTokens: 40,
}

/** @type {CostParameters} */
export const DEFAULT_COST_PARAMETERS = {
  prices: DEEPSEEK_PRICES,
  session: DEFAULT_SESSION,
  sessionSteps: [10, 50],
  prefetch: 3,
}

/** The most tools one prefetch may add, as the plugin's own setting allows. */
const MAX_PREFETCH = 10

/**
 * The command-line options that change a parameter, as `parseArgs` reads them.
 * @typedef {object} CostOptions
 * @property {string} [price-hit]
 * @property {string} [price-miss]
 * @property {string} [price-output]
 * @property {string} [prefetch]
 */

/** `parseArgs` options for {@link CostOptions}. */
export const COST_OPTIONS = /** @type {const} */ ({
  'price-hit': { type: 'string' },
  'price-miss': { type: 'string' },
  'price-output': { type: 'string' },
  prefetch: { type: 'string' },
})

/**
 * The parameters the options give: the defaults, with each option given replacing its value.
 * Prices given on the command line are named as such in the results.
 * @param {CostOptions} options
 * @returns {CostParameters}
 * @throws when an option is not a number in its range.
 */
export function costParameters(options) {
  const given = {
    cacheHit: price(options['price-hit'], '--price-hit'),
    cacheMiss: price(options['price-miss'], '--price-miss'),
    output: price(options['price-output'], '--price-output'),
  }
  const changed = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined))
  const prices = Object.keys(changed).length === 0
    ? DEEPSEEK_PRICES
    : { ...DEEPSEEK_PRICES, ...changed, name: `${DEEPSEEK_PRICES.name}, with ${Object.keys(changed).join(', ')} given on the command line` }
  const prefetch = options.prefetch === undefined ? DEFAULT_COST_PARAMETERS.prefetch : Number(options.prefetch)
  if (!Number.isInteger(prefetch) || prefetch < 0 || prefetch > MAX_PREFETCH) {
    throw new Error(`--prefetch must be a whole number from 0 to ${MAX_PREFETCH}, got ${options.prefetch}`)
  }
  return { ...DEFAULT_COST_PARAMETERS, prices, prefetch }
}

/**
 * @param {string | undefined} text
 * @param {string} flag
 */
function price(text, flag) {
  if (text === undefined) return undefined
  const value = Number(text)
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) throw new Error(`${flag} must be a price of zero or more (per million tokens), got ${text}`)
  return value
}
