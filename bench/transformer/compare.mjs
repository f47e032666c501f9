#!/usr/bin/env node
// Is a small transformer worth its cost? The naive blend (see README.md here), BM25F scores fused
// 50/50 with all-MiniLM-L6-v2's cosine, both min-max scaled, is the floor a semantic stage has to
// beat. This puts that blend and the shipped ranking side by side on every `pnpm eval` set.
//
//   node bench/transformer/compare.mjs texts OUT.json   what the transformer embeds, per set
//   node bench/transformer/compare.mjs report DIR       R@5 of lexical, the shipped hybrid and
//                                                       the MiniLM blend; DIR holds embed.py's output
//
// run.sh does both around embed.py, which alone needs Python and torch.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ToolIndex } from '../../index.js'
import { recallAt } from '../lib/eval-metrics.mjs'
import { evalSets } from '../lib/eval-sets.mjs'

/** Share of the cosine in the blend, as in the shipped hybrid. */
const SEMANTIC_WEIGHT = 0.5

/** A tool as a sentence: its name's words, then its description. */
const toolText = (/** @type {{name: string, description?: string}} */ { name, description = '' }) =>
  `${name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_.\-/:]+/g, ' ').trim()}: ${description}`

/** @param {number[]} values */
const minMax = (values) => {
  const low = Math.min(...values)
  const spread = Math.max(...values) - low
  return values.map((value) => (spread > 0 ? (value - low) / spread : 0))
}

/**
 * Rows of a float32 matrix embed.py wrote (little-endian, row after row, unit length).
 * @param {string} file @param {number} dims
 */
function rows(file, dims) {
  const bytes = readFileSync(file)
  const values = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)
  /** @type {Float32Array[]} */
  const out = []
  for (let start = 0; start < values.length; start += dims) out.push(values.subarray(start, start + dims))
  return out
}

/** @param {Float32Array} a @param {Float32Array} b */
const dot = (a, b) => a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0)

/**
 * The naive blend's ranking: each tool's lexical score over the query's best, and its cosine
 * placed between the query's least and most similar tool.
 * @param {ToolIndex} lexical @param {string[]} names @param {Float32Array[]} tools @param {Float32Array} query @param {string} text
 */
function blended(lexical, names, tools, query, text) {
  const scores = new Map(lexical.search(text, names.length).map((hit) => [hit.name, hit.score]))
  const best = Math.max(0, ...scores.values())
  const semantic = minMax(tools.map((tool) => dot(tool, query)))
  const fused = names.map((name, i) => ({
    name,
    score: (1 - SEMANTIC_WEIGHT) * (best > 0 ? (scores.get(name) ?? 0) / best : 0) + SEMANTIC_WEIGHT * (semantic[i] ?? 0),
  }))
  return fused.sort((a, b) => b.score - a.score).slice(0, 10).map(({ name }) => name)
}

/** @param {string} dir */
async function report(dir) {
  console.log('| set | part | requests | lexical R@5 | hybrid (shipped) R@5 | MiniLM blend R@5 |')
  console.log('| --- | --- | ---: | ---: | ---: | ---: |')
  for (const set of evalSets()) {
    const { dims } = JSON.parse(readFileSync(join(dir, `${set.id}.json`), 'utf8'))
    const tools = rows(join(dir, `${set.id}.tools.f32`), dims)
    const queries = rows(join(dir, `${set.id}.queries.f32`), dims)
    if (tools.length !== set.catalog.length || queries.length !== set.requests.length) throw new Error(`${set.id}: ${dir} is not embed.py's output for this checkout's sets`)
    const json = JSON.stringify(set.catalog)
    const lexical = ToolIndex.fromJson(json, { ranking: 'lexical' })
    const hybrid = ToolIndex.fromJson(json, { ranking: 'hybrid' })
    await hybrid.ready()
    const names = set.catalog.map(({ name }) => name)
    const scored = set.requests.map(({ query, relevant, part }, i) => ({
      part,
      lexical: recallAt(lexical.search(query, 10).map((hit) => hit.name), relevant, 5),
      hybrid: recallAt(hybrid.search(query, 10).map((hit) => hit.name), relevant, 5),
      blend: recallAt(blended(lexical, names, tools, queries[i] ?? new Float32Array(dims), query), relevant, 5),
    }))
    for (const part of set.whole ? ['held'] : set.devOnly ? ['dev'] : ['dev', 'held']) {
      const picked = scored.filter((row) => row.part === part)
      const mean = (/** @type {'lexical' | 'hybrid' | 'blend'} */ key) => (picked.reduce((sum, row) => sum + row[key], 0) / picked.length).toFixed(3)
      console.log(`| ${set.label} | ${set.whole ? 'whole' : part} | ${picked.length} | ${mean('lexical')} | ${mean('hybrid')} | ${mean('blend')} |`)
    }
  }
}

const [command, path] = process.argv.slice(2)
if (command === 'texts' && path) {
  const sets = evalSets().map(({ id, catalog, requests }) => ({ id, tools: catalog.map(toolText), queries: requests.map(({ query }) => query) }))
  writeFileSync(path, JSON.stringify(sets))
} else if (command === 'report' && path) {
  await report(path)
} else {
  console.error('usage: compare.mjs texts OUT.json | compare.mjs report DIR')
  process.exit(2)
}
