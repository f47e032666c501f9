#!/usr/bin/env node
// `pnpm eval`: retrieval quality of the native ranking on the BFCL dev set.
// Prints R@1, R@5, R@10 and NDCG@10 for all requests, for the part ranking parameters were tuned
// on, and for the held-back part, plus exact-name Recall@1 over every catalog tool.
// `--json` prints the figures as JSON only.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ToolIndex } from '../index.js'
import { isHeldBack, ndcgAt, recallAt, summarize } from './lib/eval-metrics.mjs'

const data = fileURLToPath(new URL('./data/bfcl/', import.meta.url))

export function runEval() {
  const catalogJson = readFileSync(`${data}bfcl-catalog.json`, 'utf8')
  /** @type {{name: string}[]} */
  const catalog = JSON.parse(catalogJson)
  const queries = readFileSync(`${data}bfcl-dev-queries.jsonl`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => /** @type {{id: string, query: string, relevant: string[]}} */ (JSON.parse(line)))
  const index = ToolIndex.fromJson(catalogJson)

  const rows = queries.map(({ id, query, relevant }) => {
    const ranked = index.search(query, 10).map((hit) => hit.name)
    return {
      heldBack: isHeldBack(id),
      r1: recallAt(ranked, relevant, 1),
      r5: recallAt(ranked, relevant, 5),
      r10: recallAt(ranked, relevant, 10),
      ndcg10: ndcgAt(ranked, relevant, 10),
    }
  })
  const exactHits = catalog.filter(({ name }) => index.search(name, 1)[0]?.name === name).length
  return {
    catalogTools: index.size,
    all: summarize(rows),
    tuned: summarize(rows.filter((row) => !row.heldBack)),
    heldBack: summarize(rows.filter((row) => row.heldBack)),
    exactNameR1: Math.round((exactHits / catalog.length) * 1000) / 1000,
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = runEval()
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(result, null, 2))
  } else {
    console.log(`BFCL dev set: ${result.all.requests} requests over ${result.catalogTools} tools`)
    console.log('part        requests   R@1    R@5    R@10   NDCG@10')
    for (const part of /** @type {const} */ (['all', 'tuned', 'heldBack'])) {
      const m = result[part]
      const cells = [m.r1, m.r5, m.r10, m.ndcg10].map((x) => x.toFixed(3).padEnd(6)).join(' ')
      console.log(`${part.padEnd(11)} ${String(m.requests).padEnd(10)} ${cells}`)
    }
    console.log(`exact-name Recall@1: ${result.exactNameR1.toFixed(3)} (every catalog tool searched by its name)`)
  }
}
