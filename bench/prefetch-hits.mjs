#!/usr/bin/env node
// How often prefetch would have loaded the tool a request needs, and what it loads to get there.
// For every request of every eval set (lib/eval-sets.mjs), the request is the query, as the
// plugin reads a user's message, and for N = 1..10 (the `prefetch` setting):
// - Hit@N: the share of requests for which a relevant tool is among the tools prefetch loads,
//   with the plugin's own rule (the top N, each as strong as WEAK_MATCH_FLOOR, as the core decides
//   it for a prefetch: `strongHitsAsync`);
// - top-N Hit: the same for the plain top N, without that rule;
// - loaded: tools loaded per request, and their schemas' o200k tokens (the definitions every
//   later request of the turn carries);
// - and for requests that need nothing installed (each source's requests against the catalogs
//   of the sources that share no tool with it): the share for which prefetch still loads
//   something, and how many tools. Every load changes the offered tools, which ends the cached
//   prompt prefix at that request.
// Pooled over every request, and per source with --sources. `--json` prints JSON only.
//
//   node bench/prefetch-hits.mjs [--sources] [--json]
import { parseArgs } from 'node:util'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { ToolIndex } from '../index.js'
import { built, queryOf } from './lib/built.mjs'
import { evalSources } from './lib/eval-sets.mjs'

const { values: options } = parseArgs({ options: { sources: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } } })
const { WEAK_MATCH_FLOOR } = await built('search/answer.js')

const SIZES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
const LARGEST = 10

/** @typedef {{hit: number, topHit: number, loaded: number, tokens: number}} Cell */

/**
 * The names prefetch loads for each size, for one request against one index: the strong hits of
 * the largest, as the plugin asks for them (one `strongHitsAsync`), among the top N matches. A
 * hit's strength does not depend on the limit, so the strong hits of N are those of the largest
 * within the top N.
 */
async function loads(/** @type {ToolIndex} */ index, /** @type {string} */ text) {
  const query = queryOf(text)
  const top = index.search(query, LARGEST, { fill: false })
  const strong = new Set((await index.strongHitsAsync(query, LARGEST, { floor: WEAK_MATCH_FLOOR })).map((hit) => hit.name))
  return SIZES.map((size) => ({ ranked: top.slice(0, size).map((hit) => hit.name), loaded: top.slice(0, size).map((hit) => hit.name).filter((name) => strong.has(name)) }))
}

/** @typedef {{source: import('./lib/eval-sets.mjs').EvalSource, index: ToolIndex, names: Set<string>}} Indexed */

/** Per size, summed over one source's requests. */
async function measureSource(/** @type {Indexed} */ { source, index }) {
  /** @type {Map<string, number>} */
  const schemaTokens = new Map()
  for (const tool of JSON.parse(source.catalogJson)) {
    if (!schemaTokens.has(tool.name)) schemaTokens.set(tool.name, countTokens(JSON.stringify({ type: 'function', function: { name: tool.name, description: tool.description ?? '', parameters: tool.parameters ?? {} } })))
  }
  const cells = SIZES.map(() => ({ hit: 0, topHit: 0, loaded: 0, tokens: 0 }))
  for (const request of source.requests) {
    const found = await loads(index, request.query)
    found.forEach(({ ranked, loaded }, i) => {
      const cell = /** @type {Cell} */ (cells[i])
      cell.topHit += ranked.some((name) => request.relevant.includes(name)) ? 1 : 0
      cell.hit += loaded.some((name) => request.relevant.includes(name)) ? 1 : 0
      cell.loaded += loaded.length
      cell.tokens += loaded.reduce((sum, name) => sum + (schemaTokens.get(name) ?? 0), 0)
    })
  }
  return { id: source.id, requests: source.requests.length, cells }
}

const round3 = (/** @type {number} */ x) => Math.round(x * 1000) / 1000
const rates = (/** @type {Cell[]} */ cells, /** @type {number} */ requests) => cells.map((cell, i) => ({
  n: SIZES[i],
  hit: round3(cell.hit / requests),
  topHit: round3(cell.topHit / requests),
  loaded: round3(cell.loaded / requests),
  schemaTokens: Math.round(cell.tokens / requests),
}))

/** Per size: of requests about nothing installed, the share that still load a tool, and tools loaded. */
async function measureUnrelated(/** @type {Indexed[]} */ indexed) {
  const counts = SIZES.map(() => ({ some: 0, loaded: 0 }))
  let requests = 0
  for (const own of indexed) {
    for (const other of indexed) {
      if (other === own || [...other.names].some((name) => own.names.has(name))) continue
      for (const request of own.source.requests) {
        requests += 1
        const found = await loads(other.index, request.query)
        found.forEach(({ loaded }, i) => {
          const count = /** @type {{some: number, loaded: number}} */ (counts[i])
          count.some += loaded.length > 0 ? 1 : 0
          count.loaded += loaded.length
        })
      }
    }
  }
  return { requests, rows: counts.map((count, i) => ({ n: SIZES[i], loadsSomething: round3(count.some / requests), loaded: round3(count.loaded / requests) })) }
}

/**
 * Every source's index, once its semantic vectors are in place: the ranking the plugin settles
 * on (before, a hybrid index ranks with the word table alone).
 * @returns {Promise<Indexed[]>}
 */
async function indexSources() {
  const indexed = []
  for (const source of evalSources()) {
    const index = ToolIndex.fromJson(source.catalogJson)
    await index.ready()
    indexed.push({ source, index, names: new Set(index.names()) })
  }
  return indexed
}

export async function measurePrefetch() {
  const indexed = await indexSources()
  /** @type {Awaited<ReturnType<typeof measureSource>>[]} */
  const perSource = []
  for (const source of indexed) perSource.push(await measureSource(source))
  const requests = perSource.reduce((sum, source) => sum + source.requests, 0)
  const pooled = SIZES.map((_, i) => {
    /** @type {Cell} */
    const total = { hit: 0, topHit: 0, loaded: 0, tokens: 0 }
    for (const source of perSource) {
      const cell = /** @type {Cell} */ (source.cells[i])
      total.hit += cell.hit; total.topHit += cell.topHit; total.loaded += cell.loaded; total.tokens += cell.tokens
    }
    return total
  })
  return {
    sources: perSource.map((source) => source.id),
    requests,
    pooled: rates(pooled, requests),
    unrelated: await measureUnrelated(indexed),
    perSource: perSource.map((source) => ({ id: source.id, requests: source.requests, rows: rates(source.cells, source.requests) })),
  }
}

const result = await measurePrefetch()
if (options.json) {
  console.log(JSON.stringify(result, null, 2))
} else {
  console.log(`prefetch Hit@N, the request as the query: ${result.requests} requests from ${result.sources.join(', ')}`)
  print('all sources, pooled', result.pooled)
  console.log(`\nrequests about nothing installed (${result.unrelated.requests}: each source's against the catalogs sharing no tool with it)`)
  console.log(' N  loads something  tools loaded')
  for (const row of result.unrelated.rows) console.log(`${String(row.n).padStart(2)}  ${row.loadsSomething.toFixed(3).padStart(15)}  ${row.loaded.toFixed(2).padStart(12)}`)
  if (options.sources) for (const source of result.perSource) print(`${source.id} (${source.requests} requests)`, source.rows)
}

function print(/** @type {string} */ title, /** @type {ReturnType<typeof rates>} */ rows) {
  console.log(`\n${title}`)
  console.log(' N  Hit@N  top-N Hit  tools loaded  schema tokens loaded')
  for (const row of rows) {
    console.log(`${String(row.n).padStart(2)}  ${row.hit.toFixed(3)}  ${row.topHit.toFixed(3).padStart(9)}  ${row.loaded.toFixed(2).padStart(12)}  ${String(row.schemaTokens).padStart(20)}`)
  }
}
