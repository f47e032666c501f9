// Speed at 100, 1,000 and 10,000 real tools (the BFCL dev catalog, grown with renamed copies):
// `ToolIndex.fromJson` and `search` through the real Node-API boundary, for each ranking, and the
// plugin's real prompt filter on a real DSH assembly, beside the project's budgets. Figures are
// milliseconds, median and p99 over many runs; they vary with the machine and its load, so they
// are printed and recorded, never asserted.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import { Context } from '@deepseek-ai/cordis'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { setVectorCache, ToolIndex } from '../../index.js'
import { catalogOfSize, devQueries } from '../lib/catalogs.mjs'
import { keepAlive, median, percentile, time } from './timing.mjs'

/**
 * The project's budgets, in milliseconds (none at 100 tools); for hybrid indexes `fromJson` 50 ms
 * at 1,000 tools (the transformer's tool vectors are made afterwards, in the background), a search
 * 2.5 ms with the transformer reading the query, and every new tool's vector in place within 6 s
 * (60 s at 10,000). docs/benchmark.md judges each figure by them.
 * @type {Record<number, {build: number, search: number, hybridBuild?: number, hybridSearch?: number, hybridReady: number, filter: number}>}
 */
const BUDGETS_MS = {
  1000: { build: 10, search: 0.05, hybridBuild: 50, hybridSearch: 2.5, hybridReady: 6000, filter: 0.1 },
  10000: { build: 100, search: 0.5, hybridReady: 60_000, filter: 1 },
}

/** How long a process with embedding in flight may take to exit, from `process.exit`. */
const EXIT_BUDGET_MS = 1000

/**
 * Runs per size: enough for a stable median and a meaningful p99 on a loaded two-core machine.
 * @type {Record<number, {build: number, search: number, filter: number, assemble: number}>}
 */
const RUNS = {
  100: { build: 300, search: 5000, filter: 5000, assemble: 100 },
  1000: { build: 100, search: 5000, filter: 3000, assemble: 40 },
  10000: { build: 30, search: 5000, filter: 1000, assemble: 15 },
}

const READY_PROBE = fileURLToPath(new URL('./ready-probe.mjs', import.meta.url))
const EXIT_PROBE = fileURLToPath(new URL('./exit-probe.mjs', import.meta.url))

/** Searches made right after `fromJson` on tools never embedded, and again after `ready()`. */
const COLD_SEARCHES = 12

/** Searches of a hybrid index, which cost milliseconds each once the transformer reads the query. */
const HYBRID_SEARCHES = 500

/**
 * @param {number[]} sorted
 * @param {number} [budget]
 */
const summary = (sorted, budget) => ({
  median: median(sorted),
  p99: percentile(sorted, 99),
  runs: sorted.length,
  ...(budget === undefined ? {} : { budget }),
})

/**
 * Build times of one ranking's index of `json`, and search times on one built index, searched
 * with the dev set's requests in turn.
 * @param {string} json @param {'lexical' | 'hybrid'} ranking @param {string[]} queries
 * @param {{build: number, search: number}} runs
 */
async function indexTimings(json, ranking, queries, runs) {
  ToolIndex.fromJson(json, { ranking }) // warm-up: page in the code (and read the model) and grow the allocator once
  const builds = time(runs.build, () => ToolIndex.fromJson(json, { ranking }))
  const index = ToolIndex.fromJson(json, { ranking })
  await index.ready()
  for (const query of queries.slice(0, 20)) index.search(query, 5)
  const searches = time(runs.search, (i) => index.search(/** @type {string} */ (queries[i % queries.length]), 5))
  return { builds, searches, index }
}

/** `catalog` with a mark on every description that no other run uses, so no vector of it is
 * remembered or cached. @param {import('../lib/catalogs.mjs').Tool[]} catalog @param {string} why */
function unseen(catalog, why) {
  const mark = `${why} ${catalog.length} ${process.pid} ${Date.now()}`
  return JSON.stringify(catalog.map((tool) => ({ ...tool, description: `${tool.description} (${mark})` })))
}

/**
 * The searches made right after `fromJson` on tools no process has embedded (the transformer's
 * vectors are then made by the searches that need them, while the background worker starts on
 * the rest), timed, and whether each answers exactly as the same search after `ready()`.
 * @param {import('../lib/catalogs.mjs').Tool[]} catalog @param {string[]} queries
 */
async function coldAnswers(catalog, queries) {
  setVectorCache(null)
  const index = ToolIndex.fromJson(unseen(catalog, 'cold'), { ranking: 'hybrid' })
  let readyYet = false
  const ready = index.ready().then(() => { readyYet = true })
  const cold = []
  const coldMs = []
  for (const query of queries.slice(0, COLD_SEARCHES)) {
    const start = performance.now()
    cold.push(await index.searchAsync(query, 5))
    coldMs.push(performance.now() - start)
  }
  const readyBeforeTheLast = readyYet
  await ready
  const warm = await Promise.all(queries.slice(0, COLD_SEARCHES).map((query) => index.searchAsync(query, 5)))
  const same = cold.filter((hits, i) => isDeepStrictEqual(hits, warm[i])).length
  return { searches: cold.length, same, readyBeforeTheLast, coldMs: summary(coldMs.sort((a, b) => a - b)) }
}

/**
 * Milliseconds from `process.exit` to the exit of a process that built a hybrid index of
 * `catalog`'s tools, never embedded, and called `ready()` without waiting for it (exit-probe.mjs):
 * the process's whole life, less what it took until it called `process.exit` (so Node's own
 * start is counted in, a few tens of milliseconds).
 * @param {import('../lib/catalogs.mjs').Tool[]} catalog
 */
function exitMs(catalog) {
  const scratch = mkdtempSync(join(tmpdir(), 'dsh-tool-search-bench-exit-'))
  try {
    writeFileSync(join(scratch, 'catalog.json'), unseen(catalog, 'exit'))
    const env = { ...process.env, DSH_TOOL_SEARCH_CACHE: '' }
    const started = performance.now()
    const said = JSON.parse(execFileSync(process.execPath, [EXIT_PROBE, join(scratch, 'catalog.json')], { encoding: 'utf8', env }))
    return { ms: performance.now() - started - said.beforeExitMs, ready: said.ready, budget: EXIT_BUDGET_MS }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/**
 * Milliseconds from `fromJson` until a hybrid index's transformer vectors are in place: for
 * tools no process has embedded (each description gets a mark no other run uses, since a process
 * remembers every text it embedded, and the cache keeps them), and in a fresh process that finds
 * them in the vector cache the first one filled (ready-probe.mjs). The cache is a scratch
 * directory, removed afterwards.
 * @param {import('../lib/catalogs.mjs').Tool[]} catalog
 */
async function vectorsReadyMs(catalog) {
  const scratch = mkdtempSync(join(tmpdir(), 'dsh-tool-search-bench-cache-'))
  try {
    setVectorCache(join(scratch, 'cache'))
    const json = unseen(catalog, 'timed')
    const start = performance.now()
    const index = ToolIndex.fromJson(json, { ranking: 'hybrid' })
    await index.ready()
    const embedded = performance.now() - start
    keepAlive(index)
    writeFileSync(join(scratch, 'catalog.json'), json)
    const env = { ...process.env, DSH_TOOL_SEARCH_CACHE: join(scratch, 'cache') }
    const probe = JSON.parse(execFileSync(process.execPath, [READY_PROBE, join(scratch, 'catalog.json')], { encoding: 'utf8', env }))
    return { embedded, cached: probe.readyMs }
  } finally {
    setVectorCache(null)
    rmSync(scratch, { recursive: true, force: true })
  }
}

/**
 * The timings of one size.
 * @param {number} size - catalog size.
 * @param {number} [scale] - the share of the runs to make (`pnpm benchmark --quick` makes few).
 */
export async function speedRow(size, scale = 1) {
  const budget = BUDGETS_MS[size]
  const full = RUNS[size]
  if (full === undefined) throw new Error(`no run counts for ${size} tools`)
  const scaled = (/** @type {number} */ n) => Math.max(3, Math.round(n * scale))
  const runs = { build: scaled(full.build), search: scaled(full.search), filter: scaled(full.filter), assemble: scaled(full.assemble) }
  const catalog = catalogOfSize(size)
  const json = JSON.stringify(catalog)
  const queries = devQueries().map((request) => request.query)

  const lexical = await indexTimings(json, 'lexical', queries, runs)
  const hybrid = await indexTimings(json, 'hybrid', queries, { ...runs, search: scaled(HYBRID_SEARCHES) })

  const selected = new Set(hybrid.index.search(/** @type {string} */ (queries[0]), 5).map((hit) => hit.name))
  const { filter, assemble } = await filterTimings(catalog, selected, runs)
  const ready = await vectorsReadyMs(catalog)
  const cold = size === 1000 ? { hybridColdAnswers: await coldAnswers(catalog, queries), exit: exitMs(catalog) } : {}
  return {
    tools: size,
    catalogBytes: Buffer.byteLength(json),
    buildMs: summary(lexical.builds, budget?.build),
    searchMs: summary(lexical.searches, budget?.search),
    hybridBuildMs: summary(hybrid.builds, budget?.hybridBuild),
    // One run each: every tool embedded by the transformer's background worker; and every
    // tool's vector read from the cache by a fresh process.
    hybridReadyMs: Math.round(ready.embedded),
    ...(budget?.hybridReady === undefined ? {} : { hybridReadyBudgetMs: budget.hybridReady }),
    hybridReadyCachedMs: Math.round(ready.cached),
    ...cold,
    hybridSearchMs: summary(hybrid.searches, budget?.hybridSearch),
    filterMs: summary(filter, budget?.filter),
    // For scale: what DSH itself spends assembling the same prompt, without this plugin.
    dshAssembleMs: summary(assemble),
  }
}

/**
 * Time the plugin's per-model-call work on a real assembly: what its `system-prompt/assemble`
 * listener does once the catalog generation's registered set is cached (the set is rebuilt only
 * after a registry change): find out whether the assembly carries a Code Mode SDK, then filter
 * tools and `tool:<name>` sections through the default visibility policy and a selected set.
 */
/**
 * @param {import('../lib/catalogs.mjs').Tool[]} catalog
 * @param {ReadonlySet<string>} selected
 * @param {{filter: number, assemble: number}} runs
 */
async function filterTimings(catalog, selected, runs) {
  const { filterAssembly, hasSdkSection, normalizeSettings, VisibilityPolicy, DEFAULT_CORE_TOOLS } = await pluginParts()
  const ctx = new Context()
  try {
    await ctx.plugin(SystemPrompt, { persona: '' })
    await ctx.plugin(ToolRuntime, { mode: 'native' })
    for (const { name, description, parameters } of catalog) {
      ctx.tools.register({ name, description, parameters, output: { schema: {}, render: () => [] }, execute: () => Promise.resolve(null) })
    }
    await ctx.systemPrompt.assemble() // warm-up
    const assemble = /** @type {number[]} */ ([])
    for (let i = 0; i < runs.assemble; i++) {
      const start = performance.now()
      await ctx.systemPrompt.assemble()
      assemble.push(performance.now() - start)
    }
    const assembly = await ctx.systemPrompt.assemble()
    if (assembly.tools.length !== catalog.length) throw new Error(`DSH assembled ${assembly.tools.length} of ${catalog.length} tools`)

    const policy = new VisibilityPolicy(normalizeSettings({}), DEFAULT_CORE_TOOLS)
    const view = {
      registered: new Set(assembly.tools.map((tool) => tool.name)),
      offers: (/** @type {string} */ name) => policy.offers(name, selected),
      sdk: () => { throw new Error('a native-mode assembly has no SDK section') },
    }
    let offered = 0
    const filter = time(runs.filter, () => {
      if (hasSdkSection(assembly)) throw new Error('unexpected Code Mode assembly')
      offered = filterAssembly(assembly, view).tools.length
    })
    if (offered > 1 + DEFAULT_CORE_TOOLS.length + selected.size) throw new Error(`the filter offered ${offered} tools`)
    return { filter, assemble: assemble.sort((a, b) => a - b) }
  } finally {
    await ctx.fiber.dispose()
  }
}

/** The plugin's own filter and policy, from the built plugin (dist/). */
async function pluginParts() {
  const [filter, visibility, config, core] = await Promise.all([
    import('../../dist/offer/prompt-filter.js'),
    import('../../dist/offer/visibility.js'),
    import('../../dist/host/config.js'),
    import('../../dist/offer/core-tools.js'),
  ])
  return { ...filter, ...visibility, ...config, ...core }
}
