// Small timing helpers for benchmark scripts (figures to print, never assertions).
import { performance } from 'node:perf_hooks'

/** Runs `fn` `runs` times and returns the sorted durations in milliseconds. */
export function time(runs, fn) {
  const samples = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    fn(i)
    samples.push(performance.now() - start)
  }
  return samples.sort((a, b) => a - b)
}

export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

export const median = (sorted) => percentile(sorted, 50)
