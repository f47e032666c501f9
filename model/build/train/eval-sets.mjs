#!/usr/bin/env node
// Writes every labelled set `pnpm eval` ranks, as bench/lib/eval-sets.mjs builds it (catalogs,
// requests, each request's part by the JavaScript rule), as one JSON object on standard output,
// for model/build/train/data.py. The training data is drawn from the dev parts only; data.py
// computes each part again by its own copy of the rule and stops when the two disagree on any id.
// A set no part of which may train (`neverTrains`: the multi-step set) is not written at all.
//
//   node model/build/train/eval-sets.mjs > sets.json
import { readFileSync } from 'node:fs'
import { isHeldBack } from '../../../bench/lib/eval-metrics.mjs'
import { evalSets } from '../../../bench/lib/eval-sets.mjs'
import { repoPath } from '../../../bench/lib/repo.mjs'

const sets = evalSets().filter(({ neverTrains = false }) => !neverTrains).map(({ id, whole, devOnly = false, catalog, requests }) => ({
  id,
  whole,
  devOnly,
  catalog: catalog.map(({ name, description }) => ({ name, description })),
  requests: requests.map(({ id: requestId, query, relevant, part }) => ({ id: requestId, query, relevant, part })),
}))
// The bilingual set's pair ids, each with the JavaScript rule's verdict on it, so the Python rule
// is checked on the very key that fixes a bilingual request's part.
const pairs = readFileSync(repoPath('bench/data/bilingual/queries.jsonl'), 'utf8').split('\n').filter(Boolean)
  .map((line) => JSON.parse(line))
  .map(({ id, pair }) => ({ id, pair, held: isHeldBack(pair) }))
process.stdout.write(`${JSON.stringify({ sets, bilingualPairs: pairs })}\n`)
