#!/usr/bin/env node
// How far the plugin's cheap token estimate (plugin/offer/token-estimate.ts) is from o200k_base, on the
// texts it is used for: tool definitions as DSH sends them (the BFCL dev and live catalogs, DSH's
// own tools, the recorded MCP servers), lists of tool names, and catalog outlines. Prints, per
// corpus, the ratio estimate / o200k over all its texts and its spread over single texts, and the
// share of texts the estimate puts below their real count (a budget kept by the estimate can only
// be exceeded by those).
//
//   node bench/tokens/estimate-error.mjs [--json]
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { ToolIndex } from '../../index.js'
import { devCatalog } from '../lib/catalogs.mjs'
import { repoPath } from '../lib/repo.mjs'

const { values: options } = parseArgs({ options: { json: { type: 'boolean', default: false } } })
const { estimateTokens } = await import('../../dist/offer/token-estimate.js')
const { renderOutline } = await import('../../dist/offer/outline.js')

/** @typedef {{name: string, description?: string, parameters?: unknown}} Tool */

const read = (/** @type {string} */ path) => JSON.parse(readFileSync(repoPath(path), 'utf8'))
const mcp = (/** @type {string} */ server) => read(`catalogs/mcp/${server}.json`).tools.map((/** @type {{name: string, description: string, inputSchema: unknown}} */ tool) => ({ name: `mcp__${server}__${tool.name}`, description: tool.description, parameters: tool.inputSchema }))
/** @type {Record<string, Tool[]>} */
const catalogs = {
  'BFCL dev': devCatalog(),
  'BFCL live': read('bench/data/bfcl-live/bfcl-live-catalog.json'),
  'DSH built-ins': read('catalogs/dsh/headless-tools.json').tools,
  'MCP (GitHub, Notion, Playwright)': ['github', 'notion', 'playwright'].flatMap(mcp),
}
const definition = (/** @type {Tool} */ tool) => JSON.stringify({ type: 'function', function: { name: tool.name, description: tool.description ?? '', parameters: tool.parameters ?? {} } })
/** The outlines of growing slices of a catalog, at their full budget and at tighter ones. */
function outlines(/** @type {Tool[]} */ tools) {
  const texts = []
  for (const size of [5, 20, 80, tools.length]) {
    const outline = ToolIndex.fromJson(JSON.stringify(tools.slice(0, size))).outline()
    for (const budget of [400, 150, 60]) texts.push(renderOutline(outline, budget))
  }
  return texts.filter(Boolean)
}

const corpora = [
  ...Object.entries(catalogs).map(([label, tools]) => ({ corpus: `definitions: ${label}`, texts: tools.map(definition) })),
  { corpus: 'name lists (every catalog, 25 names a text)', texts: Object.values(catalogs).flatMap((tools) => chunks(tools.map((tool) => tool.name), 25).map((names) => names.join(', '))) },
  { corpus: 'outlines (every catalog, several sizes and budgets)', texts: Object.values(catalogs).flatMap(outlines) },
]

const rows = corpora.map(({ corpus, texts }) => {
  const real = texts.map((text) => countTokens(text))
  const estimated = texts.map((text) => estimateTokens(text))
  const ratios = texts.map((_, i) => /** @type {number} */ (estimated[i]) / Math.max(1, /** @type {number} */ (real[i]))).sort((a, b) => a - b)
  const sum = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0)
  const round = (/** @type {number} */ x) => Math.round(x * 1000) / 1000
  return {
    corpus,
    texts: texts.length,
    o200k: sum(real),
    estimate: sum(estimated),
    ratio: round(sum(estimated) / sum(real)),
    lowest: round(/** @type {number} */ (ratios[0])),
    highest: round(/** @type {number} */ (ratios.at(-1))),
    below: round(ratios.filter((r) => r < 1).length / ratios.length),
  }
})

if (options.json) {
  console.log(JSON.stringify(rows, null, 2))
} else {
  console.log('estimate / o200k_base, per corpus (ratio over all its texts; lowest and highest single text; share of texts estimated below their count)')
  for (const row of rows) {
    console.log(`${row.corpus.padEnd(52)} ${String(row.texts).padStart(5)} texts  ratio ${row.ratio.toFixed(3)}  lowest ${row.lowest.toFixed(3)}  highest ${row.highest.toFixed(3)}  below ${(row.below * 100).toFixed(1)}%`)
  }
}

/** @template T @param {T[]} items @param {number} size @returns {T[][]} */
function chunks(items, size) {
  const out = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
