#!/usr/bin/env node
// `pnpm benchmark`: what the plugin saves in tokens and what it costs in time, measured on real
// catalogs with the real parts (DSH 0.1.0-rc.8 in process, the native core through Node-API, the
// built plugin), plus the retrieval figures of `pnpm eval`. Writes docs/benchmark-results.json
// and prints the tables of docs/benchmark.md.
//
//   pnpm benchmark                  measure, write the JSON, print the tables
//   pnpm benchmark --write-docs     the same, then regenerate docs/benchmark.md's generated section
//   pnpm benchmark --docs           only regenerate that section from the existing JSON
//   pnpm benchmark --cost           compute the cost section again from the recorded token table
//                                   (with --write-docs, regenerate the page's section too);
//                                   --price-hit, --price-miss, --price-output (per million tokens)
//                                   and --prefetch N replace the model's defaults, here and in a
//                                   full run (see bench/cost/parameters.mjs)
//   pnpm benchmark --tokens         measure tokens and eval again and write them, with the cost
//                                   section, keeping the recorded speed and memory (with
//                                   --write-docs, regenerate the page's section too)
//   pnpm benchmark --verify         measure tokens and eval again and compare them with the JSON
//                                   (they are deterministic; speed and memory are not compared)
//   pnpm benchmark --measured-cost  measure what sessions cost on the requests the real `dsh` CLI
//                                   sends (bench/cost/measured/, docs/cost.md), and write them
//                                   under `measuredCost`, keeping everything else (with
//                                   --write-docs, regenerate the page's section too); --rows a,b
//                                   and --steps 10,50 measure only those catalogs and lengths and
//                                   replace just their figures. 15 to 20 minutes on 2 cores.
//   pnpm benchmark --event-loop     measure the event loop's delay while 50 Agents search again and
//                                   write it, keeping every other recorded figure (with
//                                   --write-docs, regenerate the page's section too)
//   pnpm benchmark --quick          every part, on fewer sizes, runs and eval requests, in minutes:
//                                   a smoke test of the whole benchmark (CI runs it). It prints its
//                                   tables and writes nothing: its figures are not the documented
//                                   ones, which only the full run measures
//   pnpm run benchmark:check        fail when docs/benchmark.md's section and the JSON disagree,
//                                   or the JSON's cost section (or the model's figures beside the
//                                   measured costs) no longer follows from its token table, or the
//                                   ablation table in docs/search.md from its eval figures
//
// --write-readme and --readme are --write-docs and --docs under their older names. --page FILE
// and --ablation-page FILE name other files to write or check instead of docs/benchmark.md and
// docs/search.md (the tests check copies this way).
//
// `pnpm benchmark` builds the plugin (dist/) first; the native addon is used as built
// (`pnpm run build:native`).
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { isDeepStrictEqual, parseArgs } from 'node:util'
import { checkCostSection, costSection } from './cost/cost.mjs'
import { checkModelledFigures, withModelledFigures } from './cost/measured/agreement.mjs'
import { ABLATION_PAGE, checkAblationTable } from './report/ablation-table.mjs'
import { COST_OPTIONS, costParameters } from './cost/parameters.mjs'
import { EVAL_INPUT_FILES } from './lib/eval-sets.mjs'
import { modelFile } from './lib/model.mjs'
import { repoPath } from './lib/repo.mjs'
import { PAGE, checkReadmeSection, writeReadmeSection } from './report/readme.mjs'
import { renderReport } from './report/report.mjs'
import { INPUT_FILES, tokenCatalogs } from './tokens/token-catalogs.mjs'

const RESULTS = repoPath('docs/benchmark-results.json')
const log = (/** @type {string} */ message) => process.stderr.write(`[benchmark] ${message}\n`)

const { values: options } = parseArgs({
  options: {
    'write-docs': { type: 'boolean', default: false },
    docs: { type: 'boolean', default: false },
    'write-readme': { type: 'boolean', default: false },
    readme: { type: 'boolean', default: false },
    page: { type: 'string' },
    'ablation-page': { type: 'string' },
    verify: { type: 'boolean', default: false },
    check: { type: 'boolean', default: false },
    cost: { type: 'boolean', default: false },
    tokens: { type: 'boolean', default: false },
    'measured-cost': { type: 'boolean', default: false },
    rows: { type: 'string' },
    steps: { type: 'string' },
    'event-loop': { type: 'boolean', default: false },
    'model-memory': { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
    ...COST_OPTIONS,
  },
})

/**
 * @typedef {object} Plan how much a run measures
 * @property {number[]} speedSizes - catalog sizes of the speed and memory tables
 * @property {number} speedScale - the share of each speed figure's runs made
 * @property {number} [memoryRuns] - fresh processes per memory figure (memory.mjs's default)
 * @property {number[]} eventLoopSizes
 * @property {number} [eventLoopSearches] - searches per Agent (event-loop.mjs's default)
 * @property {number} [evalSample] - each eval set's first requests and names (all of them)
 */

/** The full run: the figures docs/benchmark.md records. */
const FULL = /** @type {Plan} */ ({ speedSizes: [100, 1000, 10000], speedScale: 1, eventLoopSizes: [1000, 10000] })
/** `--quick`: every part, small (about ten minutes on a loaded two-core machine). */
const QUICK = /** @type {Plan} */ ({ speedSizes: [100, 1000], speedScale: 0.05, memoryRuns: 3, eventLoopSizes: [1000], eventLoopSearches: 2, evalSample: 40 })

// The benchmark page and the page with the ablation table: their names in messages, and paths.
const pageName = options.page ?? PAGE
const pagePath = options.page === undefined ? repoPath(PAGE) : fromCaller(options.page)
const ablationName = options['ablation-page'] ?? ABLATION_PAGE
const ablationPath = options['ablation-page'] === undefined ? repoPath(ABLATION_PAGE) : fromCaller(options['ablation-page'])
const writePage = options['write-docs'] || options['write-readme']

if (options.check) {
  const results = readResults()
  const problems = [
    ...checkCostSection(results.tokens, results.cost),
    ...checkModelledFigures(results.tokens, results.measuredCost),
    ...checkReadmeSection(readFileSync(pagePath, 'utf8'), results, pageName),
    ...checkAblationTable(readFileSync(ablationPath, 'utf8'), results, ablationName),
  ]
  for (const problem of problems) console.error(problem)
  console.log(problems.length === 0
    ? `${pageName} and the ablation table in ${ablationName} match docs/benchmark-results.json`
    : `${pageName} or ${ablationName} differs from docs/benchmark-results.json in ${problems.length} place(s), each named above`)
  process.exitCode = problems.length === 0 ? 0 : 1
} else if (options['measured-cost']) {
  writeResults({ ...readResults(), measuredCost: await measuredCost() }, writePage)
} else if (options.tokens) {
  const fresh = await deterministicPart()
  const recorded = readResults()
  writeResults({
    ...recorded,
    ...fresh,
    cost: costSection(fresh.tokens, costParameters(options)),
    measuredCost: withModelledFigures(fresh.tokens, recorded.measuredCost),
  }, writePage)
} else if (options.cost) {
  const results = readResults()
  writeResults({ ...results, cost: costSection(results.tokens, costParameters(options)) }, writePage)
} else if (options.docs || options.readme) {
  log(`${pageName}: section ${writeReadmeSection(pagePath, readResults())}`)
} else if (options['event-loop']) {
  writeResults({ ...readResults(), eventLoop: await measureEventLoop(FULL) }, writePage)
} else if (options['model-memory']) {
  const { modelMemory } = await import('./speed/memory.mjs')
  const recorded = readResults()
  writeResults({
    ...recorded,
    versions: { ...recorded.versions, model: semanticModel() },
    memory: { ...recorded.memory, model: modelMemory() },
  }, writePage)
} else if (options.quick) {
  console.log(renderReport(await measure(QUICK)))
  log('a quick run: nothing was written, and its figures are not the documented ones (`pnpm benchmark` measures those)')
} else if (options.verify) {
  const recorded = readResults()
  const fresh = await deterministicPart()
  const differing = /** @type {(keyof typeof fresh)[]} */ (Object.keys(fresh)).filter((key) => !isDeepStrictEqual(fresh[key], recorded[key]))
  console.log(differing.length === 0
    ? 'tokens, eval and input hashes measured again: identical to docs/benchmark-results.json'
    : `measured again, these differ from docs/benchmark-results.json: ${differing.join(', ')}`)
  process.exitCode = differing.length === 0 ? 0 : 1
} else {
  // The measured costs take a run of their own (--measured-cost); the full run keeps them.
  const fresh = await measure(FULL)
  writeResults({ ...fresh, measuredCost: withModelledFigures(fresh.tokens, readResults().measuredCost) }, writePage)
}

/**
 * A path the caller gave, from the folder `pnpm benchmark` was run in (pnpm runs this script in
 * bench/ and names the caller's folder in INIT_CWD).
 * @param {string} path
 */
function fromCaller(path) {
  return resolve(process.env.INIT_CWD ?? process.cwd(), path)
}

/**
 * Write the results JSON and print the report; regenerate the benchmark page's section when
 * asked, or say when it no longer matches.
 * @param {import('./report/report.mjs').Results} results
 * @param {boolean | undefined} writeSection
 */
function writeResults(results, writeSection) {
  mkdirSync(repoPath('docs'), { recursive: true })
  writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`)
  console.log(renderReport(results))
  log('wrote docs/benchmark-results.json')
  if (writeSection) log(`${pageName}: section ${writeReadmeSection(pagePath, results)}`)
  else if (!existsSync(pagePath) || checkReadmeSection(readFileSync(pagePath, 'utf8'), results, pageName).length > 0) {
    log(`${pageName} no longer matches the JSON (pnpm run benchmark:check fails): run \`pnpm benchmark --docs\` to update it`)
  }
}

function readResults() {
  return JSON.parse(readFileSync(RESULTS, 'utf8'))
}

/**
 * Measure session costs on the dsh CLI's requests: every catalog and length, or those --rows and
 * --steps name, whose figures then replace just theirs in the recorded section.
 */
async function measuredCost() {
  const { measureCost, mergeMeasured } = await import('./cost/measured/measure.mjs')
  const { onInterrupt } = await import('../e2e/lib/processes.mjs')
  const recorded = readResults()
  const list = (/** @type {string | undefined} */ text) => text?.split(',').map((item) => item.trim()).filter(Boolean)
  const steps = list(options.steps)?.map(Number)
  // The DSH installation and the transformer's vectors are kept between runs, as the E2E keeps
  // its DSH install in DSH_E2E_CACHE.
  const cache = process.env.DSH_E2E_CACHE || join(process.env.XDG_CACHE_HOME || join(os.homedir(), '.cache'), 'dsh-tool-search', 'measured-cost')
  const scratch = mkdtempSync(join(os.tmpdir(), 'dsh-tool-search-measured-'))
  const cleanUp = () => rmSync(scratch, { recursive: true, force: true, maxRetries: 3 })
  onInterrupt(cleanUp, log)
  try {
    const fresh = await measureCost({ tokens: recorded.tokens, parameters: costParameters(options), rows: list(options.rows), steps, cache, scratch, log })
    return options.rows === undefined && options.steps === undefined ? fresh : mergeMeasured(recorded.measuredCost, fresh)
  } finally {
    cleanUp()
  }
}

/** @param {Plan} plan */
async function measureEventLoop(plan) {
  const { AGENTS, eventLoopRow } = await import('./speed/event-loop.mjs')
  const rows = []
  for (const size of plan.eventLoopSizes) {
    log(`the event loop while ${AGENTS} Agents search ${size} tools`)
    rows.push(await eventLoopRow(size, { searches: plan.eventLoopSearches }))
  }
  return { agents: AGENTS, rows }
}

/** @param {Plan} plan */
async function measure(plan) {
  const parameters = costParameters(options)
  const { speedRow } = await import('./speed/speed.mjs')
  const { memoryRow, modelMemory } = await import('./speed/memory.mjs')
  const loadStart = loadAverage()
  const { inputs, tokens, outline, eval: quality } = await deterministicPart(plan.evalSample)
  const speed = []
  const memory = []
  for (const size of plan.speedSizes) {
    log(`speed and memory at ${size} tools`)
    speed.push(await speedRow(size, plan.speedScale))
    memory.push(memoryRow(size, plan.memoryRuns))
  }
  const eventLoop = await measureEventLoop(plan)
  log('memory of the semantic model')
  const model = modelMemory(plan.memoryRuns)
  const manifest = JSON.parse(readFileSync(repoPath('package.json'), 'utf8'))
  return {
    schemaVersion: 1,
    package: { name: manifest.name, version: manifest.version },
    versions: {
      node: process.version,
      dsh: packageVersion('@deepseek-ai/dsh'),
      tokenizer: `gpt-tokenizer ${packageVersion('gpt-tokenizer')}, o200k_base`,
      native: nativeBinary(),
      model: semanticModel(),
    },
    machine: {
      cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
      cores: os.availableParallelism(),
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      loadAverage: { start: loadStart, end: loadAverage() },
    },
    inputs,
    tokens,
    outline,
    eval: quality,
    speed: { rows: speed },
    eventLoop,
    memory: { model, rows: memory },
    cost: costSection(tokens, parameters),
  }
}

/**
 * The figures that must come out the same on every run: input hashes, tokens and eval.
 * @param {number} [evalSample] - each eval set's first requests and names only (`--quick`).
 */
async function deterministicPart(evalSample) {
  // Measuring loads DSH and the native addon; --check and --docs need neither, so they are
  // imported here rather than at the top.
  const { tokenRow } = await import('./tokens/tokens.mjs')
  const { largeOutlineRows } = await import('./tokens/outline.mjs')
  const { OUTLINE_BUDGET_TOKENS } = await import('../dist/offer/outline.js')
  const { pluginRanking } = await import('./tokens/dsh-turn.mjs')
  const { runEval } = await import('./eval.mjs')
  const measured = []
  for (const catalog of tokenCatalogs()) {
    log(`tokens: ${catalog.label}`)
    measured.push(await tokenRow(catalog))
  }
  // tool_search's own definition, before the catalog outline each catalog appends to it, is the
  // same in every row: reported once, beside the rows, and the outline on its own.
  const toolSearchSchemaTokens = measured[0]?.withPlugin.toolSearchSchemaTokens
  if (toolSearchSchemaTokens === undefined || measured.some((row) => row.withPlugin.toolSearchSchemaTokens !== toolSearchSchemaTokens)) {
    throw new Error('tool_search was offered with different definitions in different catalogs')
  }
  const rows = measured.map(({ withPlugin: { toolSearchSchemaTokens: _same, ...withPlugin }, outline: _outline, ...row }) => ({ ...row, withPlugin }))
  log('outline: the token catalogs and two of 10,000 tools')
  const outlineRows = [
    ...measured.map(({ id, label, tools, outline }) => ({ id, label, tools, ...outline })),
    ...await largeOutlineRows(),
  ]
  log('eval: every labelled set, lexical and hybrid')
  const files = [...new Set([...INPUT_FILES, ...EVAL_INPUT_FILES])]
  return {
    inputs: Object.fromEntries(files.map((file) => [file, sha256(readFileSync(repoPath(file)))])),
    tokens: { ranking: await pluginRanking(), toolSearchSchemaTokens, rows },
    outline: { budget: OUTLINE_BUDGET_TOKENS, rows: outlineRows },
    eval: await runEval(evalSample),
  }
}

/** @param {import('node:crypto').BinaryLike} bytes */
function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex')
}

function loadAverage() {
  return os.loadavg().map((x) => Math.round(x * 100) / 100)
}

/**
 * The version of one of this package's own dependencies, as installed.
 * @param {string} name
 * @returns {string}
 */
function packageVersion(name) {
  return JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), 'utf8')).version
}

/** The semantic model's files hybrid indexes read (the word table, the transformer and its query reader, the glossary), their names, size and hash; null without the model package. */
function semanticModel() {
  const file = modelFile()
  if (file === null) return null
  const files = ['model.bin', 'encoder.bin', 'encoder-query.bin', 'glossary.bin'].filter((name) => existsSync(join(dirname(file), name)))
  const bytes = Buffer.concat(files.map((name) => readFileSync(join(dirname(file), name))))
  const { name, version } = JSON.parse(readFileSync(join(dirname(file), 'package.json'), 'utf8'))
  return { package: `${name}@${version}`, files, bytes: bytes.length, sha256: sha256(bytes) }
}

/** The native addon this process actually loaded (from the loaded shared objects), and its hash. */
function nativeBinary() {
  const report = /** @type {{sharedObjects: string[]}} */ (process.report.getReport())
  const file = report.sharedObjects.find((path) => /dsh-tool-search\.[^/\\]+\.node$/.test(path))
  return file === undefined ? null : { file: basename(file), sha256: sha256(readFileSync(file)) }
}
