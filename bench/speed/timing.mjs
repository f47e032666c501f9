// Small timing helpers for benchmark scripts (figures to print, never assertions).
import { performance } from 'node:perf_hooks'

/**
 * Runs `fn` `runs` times and returns the sorted durations in milliseconds.
 * @param {number} runs
 * @param {(run: number) => unknown} fn
 * @returns {number[]}
 */
export function time(runs, fn) {
  const samples = /** @type {number[]} */ ([])
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    fn(i)
    samples.push(performance.now() - start)
  }
  return samples.sort((a, b) => a - b)
}

/**
 * @param {number[]} sorted durations, ascending
 * @param {number} p percent
 * @returns {number}
 */
export function percentile(sorted, p) {
  return /** @type {number} */ (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))])
}

export const median = (/** @type {number[]} */ sorted) => percentile(sorted, 50)

/**
 * Uses an index after its `ready()` resolved. An index nothing refers to any more may be collected
 * while its vectors are being made; the worker then skips it and `ready()` resolves early, so a
 * timing of `ready()` would time a fraction of the work.
 * @param {{ readonly size: number }} index
 */
export function keepAlive(index) {
  if (!(index.size >= 0)) throw new Error('an index without a size')
}
