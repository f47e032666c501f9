#!/usr/bin/env node
// The figures docs/limits.md gives for what the bounds do not make small, measured on the addon
// built at the root:
// - memory while parsing: the peak resident memory (VmHWM) that parsing 16 MiB of `[0,0,...]`
//   adds, in a fresh process (the text is refused as a catalog after it is parsed);
// - a contrived query: one search, hybrid and lexical, over 100,000 tools for a 4,096-character
//   query of one short request repeated (each request is ranked, and embedded, on its own), the
//   median of 5;
// - hostile catalogs and queries (ADVERSARIAL below) at 10,000 real tools, each in a fresh
//   process: the worst time of one answer's native work (`answerAsync` asked for everything: the
//   matches, their strengths, the filled page and the nearest names), of one filled `search`,
//   and of the outline, per ranking; a hybrid index is measured with the transformer's vectors
//   in place (its query read by the transformer when it is short enough). A process that takes
//   longer than --seconds (default 600) is stopped and reported as over it.
//
//   node bench/limits.mjs [--json] [--seconds S] [--hostile]
//
// --hostile measures the hostile catalogs alone: the contrived query's hybrid index of 100,000
// tools has its transformer vectors made first, which takes most of an hour (the vector cache
// holds 20,000).
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { ToolIndex } from '../index.js'
import { catalogOfSize } from './lib/catalogs.mjs'

const PARSE_BYTES = 16 * 1024 * 1024
const TOOLS = 100_000
const RUNS = 5
/** The catalog size hostile catalogs are measured at, where the budget of the worst search within the documented limits (1 s) is set. */
const HOSTILE_TOOLS = 10_000
/** Runs of each hostile query; the worst is reported (the first reads it with the transformer, later ones remember its vector). */
const HOSTILE_RUNS = 3
const MEGABYTE = 1_000_000

/** This process's peak resident memory so far, in bytes. */
const peak = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) * 1024

/** A distinct word of five letters or more for every `i`. */
function word(/** @type {number} */ i) {
  let text = ''
  for (let n = i + 26 ** 4; n > 0; n = Math.floor(n / 26)) text = String.fromCharCode(97 + (n % 26)) + text
  return text
}
/** Distinct words, `bytes` of them joined by `separator`. */
function wordsOf(/** @type {number} */ bytes, separator = ' ', prefix = '') {
  const words = []
  for (let i = 0, length = 0; length < bytes; i++) {
    words.push(`${prefix}${word(i)}`)
    length += prefix.length + 6
  }
  return words.join(separator)
}
const clip = (/** @type {string} */ text, /** @type {number} */ chars) => text.slice(0, chars).trim()

/**
 * Each hostile kind: what it adds to, or changes in, the real catalog of HOSTILE_TOOLS tools, and
 * the queries asked of it. The tools it adds are few, so that their transformer vectors are made
 * quickly; the real tools' come from the vector cache.
 * @type {Record<string, {label: string, catalog: (base: import('./lib/catalogs.mjs').Tool[]) => unknown[], queries: () => string[]}>}
 */
const ADVERSARIAL = {
  'huge-name': {
    label: 'a tool named by 1 MB of distinct words',
    catalog: (base) => [...base, { name: wordsOf(MEGABYTE, '_'), description: 'A tool with a huge name.' }],
    queries: () => [200, 1000, 4096].map((chars) => clip(wordsOf(5000), chars)),
  },
  'huge-enum': {
    label: 'an enum of 1 MB of distinct values that begin alike',
    catalog: (base) => [...base, { name: 'pick_kind', description: 'Picks a kind.', parameters: { type: 'object', properties: { kind: { type: 'string', enum: wordsOf(MEGABYTE, ' ', 'data').split(' ') } } } }],
    queries: () => ['data', clip(`data ${wordsOf(5000, ' ', 'data')}`, 4096)],
  },
  'shared-word': {
    label: 'every tool carrying one word',
    // In the schema, so the transformer's texts (name and description) stay the real ones.
    catalog: (base) => base.map((tool) => ({ ...tool, parameters: { ...tool.parameters, type: 'object', properties: { ...(/** @type {{properties?: object}} */ (tool.parameters).properties), data: { type: 'string', description: 'The data.' } } } })),
    queries: () => ['data', 'the data of a city', clip('data '.repeat(1000), 4096)],
  },
  'distinct-words': {
    label: 'queries of 4,096 characters of distinct catalog words',
    catalog: (base) => base,
    queries: () => {
      const words = [...new Set(catalogOfSize(HOSTILE_TOOLS).flatMap((tool) => String(tool.description).toLowerCase().match(/[a-z]{4,}/g) ?? []))]
      return [clip(words.join(' '), 4096), clip(words.map((w) => `+${w}`).join(' '), 4096), clip(words.join('. '), 4096)]
    },
  },
}

if (process.argv[2] === '--hostile-probe') {
  const [, , , kind = '', ranking = ''] = process.argv
  const hostile = ADVERSARIAL[kind]
  if (hostile === undefined || (ranking !== 'lexical' && ranking !== 'hybrid')) throw new Error(`no hostile kind ${kind} or ranking ${ranking}`)
  const base = catalogOfSize(HOSTILE_TOOLS).filter((tool) => tool.name !== 'tool_search')
  const index = ToolIndex.fromJson(JSON.stringify(hostile.catalog(base)), { ranking })
  await index.ready()
  const worst = (/** @type {() => unknown} */ work) => Math.max(...Array.from({ length: HOSTILE_RUNS }, () => {
    const start = performance.now()
    work()
    return performance.now() - start
  }))
  const queries = hostile.queries()
  const answerMs = []
  for (const query of queries) {
    for (let run = 0; run < HOSTILE_RUNS; run++) {
      const start = performance.now()
      await index.answerAsync(query, 20, { weakBelow: Number.POSITIVE_INFINITY })
      answerMs.push(performance.now() - start)
    }
  }
  const searchMs = Math.max(...queries.map((query) => worst(() => index.search(query, 20))))
  process.stdout.write(JSON.stringify({ tools: index.size, answerMs: Math.max(...answerMs), searchMs, outlineMs: worst(() => index.outline()) }))
  process.exit(0)
}

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

const { values: options } = parseArgs({ options: { json: { type: 'boolean', default: false }, seconds: { type: 'string', default: '600' }, hostile: { type: 'boolean', default: false } } })

/** Memory while parsing, and the contrived query's search, hybrid and lexical. */
async function boundsNotMadeSmall() {
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
  return {
    parse: { ...parse, ratio: parse.peakAdded / parse.textBytes },
    contrivedQuery: { tools: TOOLS, queryChars: [...query].length, requests: query.split('. ').length, searchMs },
  }
}

/**
 * One hostile kind in one ranking, in a fresh process: its figures, or how long it ran before it
 * was stopped.
 * @param {string} kind @param {'lexical' | 'hybrid'} ranking
 * @returns {{tools: number, answerMs: number, searchMs: number, outlineMs: number} | {stoppedAfterMs: number}}
 */
function hostileProbe(kind, ranking) {
  const limit = Number(options.seconds) * 1000
  try {
    return JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--hostile-probe', kind, ranking], { encoding: 'utf8', timeout: limit, maxBuffer: 1 << 20 }))
  } catch (error) {
    if (/** @type {{signal?: string}} */ (error).signal === 'SIGTERM') return { stoppedAfterMs: limit }
    throw error
  }
}
const hostile = Object.entries(ADVERSARIAL).map(([kind, { label }]) => ({ kind, label, lexical: hostileProbe(kind, 'lexical'), hybrid: hostileProbe(kind, 'hybrid') }))
/** The worst of a ranking over every hostile kind: of the answer, the search and the outline. */
const worstOf = (/** @type {'lexical' | 'hybrid'} */ ranking) => Math.max(...hostile.map((row) => {
  const figures = row[ranking]
  return 'stoppedAfterMs' in figures ? figures.stoppedAfterMs : Math.max(figures.answerMs, figures.searchMs, figures.outlineMs)
}))

const result = {
  ...(options.hostile ? {} : await boundsNotMadeSmall()),
  hostile: { tools: HOSTILE_TOOLS, rows: hostile, worstMs: { lexical: worstOf('lexical'), hybrid: worstOf('hybrid') } },
}
if (options.json) {
  console.log(JSON.stringify(result, null, 2))
} else {
  const mib = (/** @type {number} */ bytes) => (bytes / 2 ** 20).toFixed(0)
  const { parse, contrivedQuery } = result
  if (parse !== undefined) console.log(`parsing ${mib(parse.textBytes)} MiB of [0,0,...]: the peak grows by ${mib(parse.peakAdded)} MiB, ${parse.ratio.toFixed(1)} times the text`)
  if (contrivedQuery !== undefined) console.log(`a ${contrivedQuery.queryChars}-character query of ${contrivedQuery.requests} repeated requests over ${TOOLS.toLocaleString('en')} tools: ${contrivedQuery.searchMs.hybrid?.toFixed(0)} ms hybrid, ${contrivedQuery.searchMs.lexical?.toFixed(0)} ms lexical (median of ${RUNS})`)
  const shown = (/** @type {(typeof hostile)[number]['lexical']} */ figures) => ('stoppedAfterMs' in figures
    ? `stopped after ${figures.stoppedAfterMs / 1000} s`
    : `answer ${figures.answerMs.toFixed(1)} ms, search ${figures.searchMs.toFixed(1)} ms, outline ${figures.outlineMs.toFixed(1)} ms`)
  for (const row of hostile) console.log(`${row.label} (${HOSTILE_TOOLS.toLocaleString('en')} real tools): lexical ${shown(row.lexical)}; hybrid ${shown(row.hybrid)}`)
  console.log(`worst at ${HOSTILE_TOOLS.toLocaleString('en')} tools: ${result.hostile.worstMs.lexical.toFixed(0)} ms lexical, ${result.hostile.worstMs.hybrid.toFixed(0)} ms hybrid`)
}
