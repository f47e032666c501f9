#!/usr/bin/env node
// The two figures docs/limits.md gives for what the bounds do not make small, measured
// on the addon built at the root:
// - memory while parsing: the peak resident memory (VmHWM) that parsing 16 MiB of `[0,0,...]`
//   adds, in a fresh process (the text is refused as a catalog after it is parsed);
// - a contrived query: one search, hybrid and lexical, over 100,000 tools for a 4,096-character
//   query of one short request repeated (each request is ranked, and embedded, on its own), the
//   median of 5.
//
//   node bench/limits.mjs [--json]
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ToolIndex } from '../index.js'
import { catalogOfSize } from './lib/catalogs.mjs'

const PARSE_BYTES = 16 * 1024 * 1024
const TOOLS = 100_000
const RUNS = 5

/** This process's peak resident memory so far, in bytes. */
const peak = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) * 1024

if (process.argv[2] === '--parse-probe') {
  const text = `[${'0,'.repeat(PARSE_BYTES / 2 - 1)}0]`
  const before = peak()
  try {
    ToolIndex.fromJson(text, { ranking: 'lexical' })
  } catch {
    // Refused after parsing: a list of numbers is not a catalog. The parse is what is measured.
  }
  process.stdout.write(JSON.stringify({ textBytes: text.length, peakAdded: peak() - before }))
  process.exit(0)
}

const parse = JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--parse-probe'], { encoding: 'utf8' }))

const request = 'Find the weather forecast for a city. '
const query = request.repeat(Math.ceil(4096 / request.length)).slice(0, 4096).trim()
const catalog = JSON.stringify(catalogOfSize(TOOLS))
/** @type {Record<string, number>} */
const searchMs = {}
for (const ranking of /** @type {const} */ (['hybrid', 'lexical'])) {
  const index = ToolIndex.fromJson(catalog, { ranking })
  await index.ready()
  const times = Array.from({ length: RUNS }, () => {
    const start = performance.now()
    index.search(query, 5)
    return performance.now() - start
  }).sort((a, b) => a - b)
  searchMs[ranking] = /** @type {number} */ (times[Math.floor(RUNS / 2)])
}

const result = { parse: { ...parse, ratio: parse.peakAdded / parse.textBytes }, contrivedQuery: { tools: TOOLS, queryChars: [...query].length, requests: query.split('. ').length, searchMs } }
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(result, null, 2))
} else {
  const mib = (/** @type {number} */ bytes) => (bytes / 2 ** 20).toFixed(0)
  console.log(`parsing ${mib(parse.textBytes)} MiB of [0,0,...]: the peak grows by ${mib(parse.peakAdded)} MiB, ${result.parse.ratio.toFixed(1)} times the text`)
  console.log(`a ${result.contrivedQuery.queryChars}-character query of ${result.contrivedQuery.requests} repeated requests over ${TOOLS.toLocaleString('en')} tools: ${searchMs.hybrid?.toFixed(0)} ms hybrid, ${searchMs.lexical?.toFixed(0)} ms lexical (median of ${RUNS})`)
}
