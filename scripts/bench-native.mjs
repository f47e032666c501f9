#!/usr/bin/env node
// Speed of the native core through the real Node-API boundary, on real tool catalogs of 100, 1,000
// and 10,000 tools: `ToolIndex.fromJson` (from the JSON string the plugin passes) and one `search`
// of a real request, beside the budgets in DESIGN.md. `--json` prints JSON only.
//
// Search figures are over the 1,150 real dev-set requests: each request is timed as the median of
// five runs (so a context switch on a busy machine does not pose as a slow query), and the table
// gives the median and the 99th percentile of those per-request times.
import { fileURLToPath } from 'node:url'
import { ToolIndex } from '../index.js'
import { catalogOfSize, devQueries } from './lib/catalogs.mjs'
import { median, percentile, time } from './lib/timing.mjs'

/** DESIGN.md's budgets; it sets none for 100 tools. */
export const BUDGETS_MS = {
  1000: { build: 10, search: 0.05 },
  10000: { build: 100, search: 0.5 },
}

export function benchNative(sizes = [100, 1000, 10000]) {
  const queries = devQueries().map((q) => q.query)
  return sizes.map((size) => {
    const json = JSON.stringify(catalogOfSize(size))
    ToolIndex.fromJson(json) // warm-up: page in the code and the allocator
    const builds = time(size >= 10000 ? 10 : 30, () => ToolIndex.fromJson(json))
    const index = ToolIndex.fromJson(json)
    for (const query of queries.slice(0, 200)) index.search(query, 5)
    const searches = queries
      .map((query) => median(time(5, () => index.search(query, 5))))
      .sort((a, b) => a - b)
    return {
      tools: size,
      catalogBytes: Buffer.byteLength(json),
      buildMs: { median: median(builds), budget: BUDGETS_MS[size]?.build },
      searchMs: {
        median: median(searches),
        p99: percentile(searches, 99),
        budget: BUDGETS_MS[size]?.search,
      },
    }
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = benchNative()
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(rows, null, 2))
  } else {
    const ms = (x) => (x < 0.1 ? x.toFixed(4) : x.toFixed(2))
    const within = (budget) => (budget === undefined ? '' : ` (<= ${budget})`)
    console.log(`Native core through Node-API (${process.version}, ${process.platform}-${process.arch})`)
    console.log('tools    catalog     fromJson (budget)     search median  p99 (budget)')
    for (const r of rows) {
      const build = `${ms(r.buildMs.median)} ms${within(r.buildMs.budget)}`
      const search = `${ms(r.searchMs.median)} ms  ${ms(r.searchMs.p99)} ms${within(r.searchMs.budget)}`
      console.log(`${String(r.tools).padEnd(8)} ${(r.catalogBytes / 1e6).toFixed(2).padStart(6)} MB   ${build.padEnd(21)} ${search}`)
    }
  }
}
