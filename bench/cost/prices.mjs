// The prices the cost model bills with by default: DeepSeek's own, as its Models & Pricing page
// published them. A price is per million tokens, in the page's currency; every one can be
// overridden on the command line (see benchmark.mjs), and the results name the prices they used.

/**
 * @typedef {object} Prices
 * @property {string} name - what the prices are, as the report names them
 * @property {string} source - where they were read
 * @property {string} date - when the page was read with these prices on it (YYYY-MM-DD)
 * @property {string} currency
 * @property {number} cacheHit - one million input tokens served from the prompt cache
 * @property {number} cacheMiss - one million input tokens not served from it
 * @property {number} output - one million output tokens
 */

/**
 * `deepseek-flash` (DeepSeek-V4.1-Flash, which also answers the legacy name
 * `deepseek-v4-flash` that DSH 0.1.0-rc.8 offers and the benchmark's turns request), at the peak
 * rates. The page bills off-peak hours at exactly half of every peak rate, so off-peak costs are
 * half of these and the savings in percent and the break-even steps are the same.
 * @type {Prices}
 */
export const DEEPSEEK_PRICES = {
  name: 'DeepSeek API, deepseek-flash, peak hours',
  source: 'https://api-docs.deepseek.com/quick_start/pricing',
  date: '2026-11-15',
  currency: 'USD',
  cacheHit: 0.006,
  cacheMiss: 0.3,
  output: 1.2,
}
