// Memory before and after building one native index of 100, 1,000 and 10,000 real tools, each
// size in its own fresh Node process (memory-probe.mjs).
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const PROBE = fileURLToPath(new URL('./memory-probe.mjs', import.meta.url))

/**
 * @param {number} size
 * @returns {{tools: number, catalogBytes: number, before: Usage, after: Usage}} bytes.
 * @typedef {{rss: number, heapUsed: number, external: number}} Usage
 */
export function memoryRow(size) {
  return JSON.parse(execFileSync(process.execPath, ['--expose-gc', PROBE, String(size)], { encoding: 'utf8' }))
}
