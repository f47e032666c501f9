#!/usr/bin/env node
// The figure an encoder is chosen by (docs/model.md, "How the transformer was trained"): the mean
// hybrid R@5, through the whole ranking, over the validation requests of the nine sets that have
// them. Those are the dev requests `isValidation` sets aside in each labelled set (keyed as the
// training keys them: a paired request by its pair), which the training stops on and never trains
// on, and every written request of the validation servers (the written-en and written-zh sets).
// No held part and no source kept whole is read.
//
//   node bench/validation.mjs [--model DIR] [--json]
//
// --model DIR ranks with the model files in DIR (model.bin, encoder.bin, glossary.bin) instead of
// the installed model package, so a trained encoder is judged before it ships; its vectors go to a
// fresh vector cache, never mixed with the installed model's.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { isValidation, requestMetrics } from './lib/eval-metrics.mjs'
import { evalSets } from './lib/eval-sets.mjs'

const { values } = parseArgs({ options: { model: { type: 'string' }, json: { type: 'boolean', default: false } } })
const cache = values.model === undefined ? undefined : mkdtempSync(join(tmpdir(), 'dsh-tool-search-validation-'))
if (cache !== undefined) process.env.DSH_TOOL_SEARCH_CACHE = cache
const { ToolIndex, setModelPath } = await import('../index.js')
if (values.model !== undefined) setModelPath(resolve(values.model, 'model.bin'))

try {
  /** @type {{id: string, requests: number, r5: number}[]} */
  const sets = []
  for (const set of evalSets()) {
    const requests = set.requests.filter((request) => (set.devOnly === true ? true : request.part === 'dev' && isValidation(request.pair ?? request.id)))
    if (set.whole || set.neverTrains === true || set.id.endsWith('-over-en') || requests.length === 0) continue
    const index = ToolIndex.fromJson(JSON.stringify(set.catalog), { ranking: 'hybrid' })
    if (index.ranking !== 'hybrid') throw new Error('no semantic model is installed, so nothing can be validated')
    await index.ready()
    const r5 = requests.reduce((sum, { query, relevant }) => sum + requestMetrics(index.search(query, 10).map((hit) => hit.name), relevant).r5, 0) / requests.length
    sets.push({ id: set.id, requests: requests.length, r5: Math.round(r5 * 10000) / 10000 })
  }
  const mean = Math.round((sets.reduce((sum, set) => sum + set.r5, 0) / sets.length) * 10000) / 10000
  if (values.json) {
    console.log(JSON.stringify({ sets, mean }))
  } else {
    for (const { id, requests, r5 } of sets) console.log(`${id.padEnd(14)} ${String(requests).padStart(5)} requests  R@5 ${r5.toFixed(4)}`)
    console.log(`mean over ${sets.length} sets: ${mean.toFixed(4)}`)
  }
} finally {
  if (cache !== undefined) rmSync(cache, { recursive: true, force: true })
}
