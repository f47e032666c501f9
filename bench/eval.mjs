#!/usr/bin/env node
// `pnpm eval`: retrieval quality of the native ranking.
// On the BFCL dev set: R@1, R@5, R@10 and NDCG@10 for all requests, for the part ranking
// parameters were tuned on, and for the held-back part, plus exact-name Recall@1 over every
// catalog tool. Then the same figures on the BFCL live check set (bench/data/bfcl-live), which
// no ranking choice looked at.
// `--json` prints the figures as JSON only.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ToolIndex } from '../index.js'
import { isHeldBack, ndcgAt, recallAt, summarize } from './lib/eval-metrics.mjs'

const data = fileURLToPath(new URL('./data/', import.meta.url))

/**
 * Ranks every request of a labelled set against one index over its catalog.
 * @param {string} catalogFile @param {string} queriesFile
 */
function rankSet(catalogFile, queriesFile) {
  const catalogJson = readFileSync(`${data}${catalogFile}`, 'utf8')
  /** @type {{name: string}[]} */
  const catalog = JSON.parse(catalogJson)
  const queries = readFileSync(`${data}${queriesFile}`, 'utf8')
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
  return { catalogTools: index.size, rows, exactNameR1: Math.round((exactHits / catalog.length) * 1000) / 1000 }
}

export function runEval() {
  const dev = rankSet('bfcl/bfcl-catalog.json', 'bfcl/bfcl-dev-queries.jsonl')
  const live = rankSet('bfcl-live/bfcl-live-catalog.json', 'bfcl-live/bfcl-live-queries.jsonl')
  return {
    catalogTools: dev.catalogTools,
    all: summarize(dev.rows),
    tuned: summarize(dev.rows.filter((row) => !row.heldBack)),
    heldBack: summarize(dev.rows.filter((row) => row.heldBack)),
    exactNameR1: dev.exactNameR1,
    check: { catalogTools: live.catalogTools, ...summarize(live.rows), exactNameR1: live.exactNameR1 },
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = runEval()
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(result, null, 2))
  } else {
    /** @param {{requests: number, r1: number, r5: number, r10: number, ndcg10: number}} m */
    const cells = (m) => [m.r1, m.r5, m.r10, m.ndcg10].map((x) => x.toFixed(3).padEnd(6)).join(' ')
    console.log(`BFCL dev set: ${result.all.requests} requests over ${result.catalogTools} tools`)
    console.log('part        requests   R@1    R@5    R@10   NDCG@10')
    for (const part of /** @type {const} */ (['all', 'tuned', 'heldBack'])) {
      console.log(`${part.padEnd(11)} ${String(result[part].requests).padEnd(10)} ${cells(result[part])}`)
    }
    console.log(`exact-name Recall@1: ${result.exactNameR1.toFixed(3)} (every catalog tool searched by its name)`)
    const { check } = result
    console.log(`\nBFCL live check set (never tuned on): ${check.requests} requests over ${check.catalogTools} tools`)
    console.log(`all         ${String(check.requests).padEnd(10)} ${cells(check)}`)
    console.log(`exact-name Recall@1: ${check.exactNameR1.toFixed(3)}`)
  }
}
