// Memory before and after building one native index of 100, 1,000 and 10,000 real tools, lexical
// and hybrid, in fresh Node processes (memory-probe.mjs), and what reading the semantic model
// costs a process, once.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const PROBE = fileURLToPath(new URL('./memory-probe.mjs', import.meta.url))

/**
 * Fresh processes per figure. An index is built on several threads, and how much of what they
 * allocate stays resident differs from run to run, so each figure is the run of median RSS
 * growth, with every run's growth beside it.
 */
const RUNS = 7

/**
 * The probes run without the vector cache: with it, the background worker could find the
 * catalog's transformer vectors there and add them while the index is measured as `fromJson`
 * returns it.
 */
const NO_CACHE = { ...process.env, DSH_TOOL_SEARCH_CACHE: '' }

/**
 * @typedef {{rss: number, heapUsed: number, external: number}} Usage bytes
 * @typedef {{before: Usage, after: Usage, rssGrowths: number[]}} Measured the median run, and every run's RSS growth, ascending
 * @param {string[]} args
 * @returns {{before: Usage, after: Usage, tools?: number, catalogBytes?: number}}
 */
const probe = (...args) => JSON.parse(execFileSync(process.execPath, ['--expose-gc', PROBE, ...args], { encoding: 'utf8', env: NO_CACHE }))

/** @param {number} count @param {string[]} args @returns {Measured & {tools?: number, catalogBytes?: number}} */
function measured(count, ...args) {
  const growth = (/** @type {{before: Usage, after: Usage}} */ run) => run.after.rss - run.before.rss
  const runs = Array.from({ length: count }, () => probe(...args)).sort((a, b) => growth(a) - growth(b))
  const { before, after, ...rest } = /** @type {(typeof runs)[number]} */ (runs[Math.floor(count / 2)])
  return { ...rest, before, after, rssGrowths: runs.map(growth) }
}

/**
 * @param {number} size
 * @param {number} [runs] - fresh processes per figure (`pnpm benchmark --quick` makes fewer).
 * @returns {{tools: number, catalogBytes: number} & Measured & {hybrid: Measured}}
 *   a lexical index; `hybrid`, a hybrid one, the model already read.
 */
export function memoryRow(size, runs = RUNS) {
  const { tools = size, catalogBytes = 0, ...lexical } = measured(runs, String(size), 'lexical')
  const { tools: _, catalogBytes: __, ...hybrid } = measured(runs, String(size), 'hybrid')
  return { tools, catalogBytes, ...lexical, hybrid }
}

/** @param {number} [runs] @returns {Measured} a process before and after it reads the semantic model. */
export function modelMemory(runs = RUNS) {
  return measured(runs, 'model')
}
