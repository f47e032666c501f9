#!/usr/bin/env node
// `pnpm eval`: retrieval quality of the native ranking on labelled sets from six public sources,
// on their union and on the project's own bilingual set, its English and Chinese requests
// apart (bench/data/README.md), for both rankings: `lexical` (BM25F alone) and
// `hybrid` (BM25F fused with the semantic model, the default when the model package is
// installed). For each set and part: R@1, R@5, R@10 and NDCG@10 (over steps in the multi-step
// set, with Hit@5 of its first step: bench/data/multistep/README.md), exact-name Recall@1 over
// every catalog tool, and what the plugin's `tool_search` would load for each request at its
// default limit (the weak-match floor, then the leader cut): tools per search, and the share of
// them that are relevant. A source's dev part is what ranking choices may be tuned on; its held part
// (a fixed 30% of requests, by a hash of the id) and the sources kept whole (BFCL live, AgentDojo)
// never are. The literal-phrase check (lib/literal-sets.mjs) ranks, for each tool described in
// Chinese, four characters of its description that no other tool holds: over each such server's
// own catalog, all of them pooled, and among every recorded server's tools; its figure is R@1.
// `--json` prints the figures as JSON only. The core decides what loads; it reads the parameters
// (the floor, the leader share) and the rule from the built plugin (dist/; `pnpm benchmark` builds
// it, `pnpm run build:plugin` does).
import { fileURLToPath } from 'node:url'
import { ToolIndex } from '../index.js'
import { built, queryOf } from './lib/built.mjs'
import { requestMetrics, stepMetrics, summarize, summarizeFirstSteps, summarizeLoads } from './lib/eval-metrics.mjs'
import { evalSets } from './lib/eval-sets.mjs'
import { LITERAL_MIXED as MIXED, literalSets } from './lib/literal-sets.mjs'
import { evalLines } from './report/eval-report.mjs'

/**
 * @typedef {import('./lib/eval-figures.mjs').Ranking} Ranking
 * @typedef {import('./lib/eval-figures.mjs').RankingFigures} RankingFigures
 */

const { searchRules } = await built('search/answer.js')
const { SETTINGS } = await built('contract.js')
/** The parameters of a search under stable loading: the floor, then the leader cut. */
const RULES = searchRules(true)

/**
 * An index of a catalog for a ranking, built once for consecutive sets that share one catalog
 * (the bilingual set's two languages): only the last catalog's indexes are kept.
 * @type {{catalog: unknown, indexes: Map<Ranking, ToolIndex>}}
 */
let lastIndexed = { catalog: undefined, indexes: new Map() }

/** @param {import('./lib/eval-sets.mjs').EvalSet['catalog']} catalog @param {Ranking} ranking */
async function indexOf(catalog, ranking) {
  if (lastIndexed.catalog !== catalog) lastIndexed = { catalog, indexes: new Map() }
  const known = lastIndexed.indexes.get(ranking)
  if (known !== undefined) return known
  const index = ToolIndex.fromJson(JSON.stringify(catalog), { ranking })
  if (index.ranking !== ranking) throw new Error(`asked for a ${ranking} index, got a ${index.ranking} one`)
  await index.ready()
  lastIndexed.indexes.set(ranking, index)
  return index
}

/**
 * What `tool_search` loads for a request at the default limit, as the core decides it with the
 * plugin's floor and leader cut, and how much of it is relevant.
 * @param {ToolIndex} index @param {string} text @param {string[]} relevant
 */
async function pluginLoads(index, text, relevant) {
  const query = queryOf(text)
  const { loaded } = await index.decideAsync(query, SETTINGS.defaultLimit.default, RULES)
  return { loaded: loaded.length, relevantLoaded: loaded.filter((hit) => relevant.includes(hit.name)).length }
}

/**
 * A part's figures: the ranking's, what the plugin loads, and in a set scored by steps, Hit@5.
 * @param {Parameters<typeof summarizeLoads>[0] & Parameters<typeof summarize>[0] & Parameters<typeof summarizeFirstSteps>[0]} rows
 */
const partFigures = (rows) => ({ ...summarize(rows), ...summarizeLoads(rows), ...summarizeFirstSteps(rows) })

/**
 * Ranks every request of a set (or its first `sample`) against one index of its catalog.
 * @param {import('./lib/eval-sets.mjs').EvalSet} set
 * @param {Ranking} ranking
 * @param {number} sample - requests, and catalog names searched for exact-name recall, at most.
 */
async function rankSet({ catalog, requests }, ranking, sample) {
  const index = await indexOf(catalog, ranking)
  const rows = []
  for (const { query, relevant, steps, part } of requests.slice(0, sample)) {
    const ranked = index.search(query, 10).map((hit) => hit.name)
    const metrics = steps === undefined ? requestMetrics(ranked, relevant) : stepMetrics(ranked, steps)
    rows.push({ part, ...metrics, ...await pluginLoads(index, query, relevant) })
  }
  const named = catalog.slice(0, sample)
  const exactHits = named.filter(({ name }) => index.search(name, 1)[0]?.name === name).length
  return { tools: index.size, rows, named: named.length, exactHits }
}

/**
 * A set's figures for one ranking from its ranked requests (see `rankSet`).
 * @param {{whole: boolean, devOnly?: boolean}} set @param {Awaited<ReturnType<typeof rankSet>>} ranked
 * @returns {RankingFigures}
 */
function setFigures({ whole, devOnly = false }, { rows, named, exactHits }) {
  /** @type {RankingFigures} */
  const figures = { exactNameR1: Math.round((exactHits / named) * 1000) / 1000, all: partFigures(rows) }
  const [dev, held] = [rows.filter((row) => row.part === 'dev'), rows.filter((row) => row.part === 'held')]
  // A literal-phrase set of a server with few tools may have no request in a part.
  if (!whole && dev.length > 0) figures.dev = partFigures(dev)
  if (!whole && !devOnly && held.length > 0) figures.held = partFigures(held)
  return figures
}

/**
 * Several sets' ranked requests as one: their rows and exact names together.
 * @param {Awaited<ReturnType<typeof rankSet>>[]} ranked
 */
const pooled = (ranked) => ({
  tools: ranked.reduce((sum, { tools }) => sum + tools, 0),
  rows: ranked.flatMap(({ rows }) => rows),
  named: ranked.reduce((sum, { named }) => sum + named, 0),
  exactHits: ranked.reduce((sum, { exactHits }) => sum + exactHits, 0),
})

/**
 * Every set, ranked both ways. `defaultRanking` is what an index gets without options, as the
 * plugin's `ranking: auto` builds them.
 * @param {number} [sample] - each set's first requests and catalog names only (`pnpm benchmark
 *   --quick`, whose figures are not the sets' own); all of them by default.
 * @returns {Promise<import('./lib/eval-figures.mjs').EvalResults>}
 */
export async function runEval(sample = Infinity) {
  /** @type {import('./lib/eval-figures.mjs').SetFigures[]} */
  const sets = []
  /** @param {import('./lib/eval-sets.mjs').EvalSet} set @param {Record<Ranking, Awaited<ReturnType<typeof rankSet>>>} ranked */
  const report = (set, { lexical, hybrid }) => sets.push({
    id: set.id, label: set.label, whole: set.whole, devOnly: set.devOnly ?? false, ...(set.literal ? { literal: true } : {}),
    tools: lexical.tools, lexical: setFigures(set, lexical), hybrid: setFigures(set, hybrid),
  })
  const rankBoth = async (/** @type {import('./lib/eval-sets.mjs').EvalSet} */ set) => ({ lexical: await rankSet(set, 'lexical', sample), hybrid: await rankSet(set, 'hybrid', sample) })
  for (const set of evalSets()) report(set, await rankBoth(set))
  const literal = literalSets()
  const ownRanked = []
  for (const set of literal.filter(({ id }) => id !== MIXED)) {
    const ranked = await rankBoth(set)
    report(set, ranked)
    ownRanked.push(ranked)
  }
  report({ id: 'literal-own', label: 'Literal phrases, each server\'s own catalog', whole: false, literal: true, catalog: [], requests: [] },
    { lexical: pooled(ownRanked.map(({ lexical }) => lexical)), hybrid: pooled(ownRanked.map(({ hybrid }) => hybrid)) })
  for (const set of literal.filter(({ id }) => id === MIXED)) report(set, await rankBoth(set))
  return { defaultRanking: ToolIndex.fromJson('[]').ranking, sets }
}

/**
 * Markdown lines with each table's columns padded to one width, for reading in a terminal.
 * @param {string[]} lines
 */
function aligned(lines) {
  const isRow = (/** @type {string} */ line) => line.startsWith('|')
  const out = [...lines]
  for (let start = 0; start < out.length; start++) {
    if (!isRow(out[start] ?? '') || isRow(out[start - 1] ?? '')) continue
    let end = start
    while (isRow(out[end] ?? '')) end++
    const rows = out.slice(start, end).map((line) => line.slice(1, -1).split('|').map((cell) => cell.trim()))
    const rule = rows[1] ?? []
    const widths = rule.map((_, column) => Math.max(...rows.map((cells) => (cells[column] ?? '').length)))
    rows.forEach((cells, i) => {
      out[start + i] = `| ${cells.map((cell, column) => {
        const width = widths[column] ?? 0
        const right = rule[column]?.endsWith(':') ?? false
        if (i === 1) return right ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width)
        return right ? cell.padStart(width) : cell.padEnd(width)
      }).join(' | ')} |`
    })
  }
  return out
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await runEval()
  console.log(process.argv.includes('--json') ? JSON.stringify(result, null, 2) : aligned(evalLines(result)).join('\n'))
}
