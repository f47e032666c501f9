#!/usr/bin/env node
// The leader cut of tool_search (LEADER_SHARE in plugin/search/leaders.ts): of a confident
// search's hits, those scoring below this share of the best one are shown, not loaded. Re-run
// this after any ranking change; it prints the share it would choose and what the plugin's does.
//
//   node bench/calibrate-cut.mjs [--json]
//
// On the dev part of every eval source (lib/eval-sets.mjs, the sources the weak-match floor is
// calibrated on), each request is searched as the plugin searches it, at the default limit of 5,
// once for each share in steps of 0.05: the core decides what loads (`decideAsync`: the
// weak-match floor, then the leaders), with the plugin's floor; the query's vector is kept
// between the shares, so each is ranked as the first was. It counts the tools a search loads, the
// share of them that are relevant, and the relevant tools loaded. The chosen share is the highest
// at which no source loads fewer than 99% of the relevant tools it loads with no cut.
import { parseArgs } from 'node:util'
import { ToolIndex } from '../index.js'
import { built, queryOf } from './lib/built.mjs'
import { evalSources } from './lib/eval-sets.mjs'

const { values: options } = parseArgs({ options: { json: { type: 'boolean', default: false } } })
const { WEAK_MATCH_FLOOR } = await built('search/answer.js')
const { LEADER_SHARE } = await built('search/leaders.js')

const LIMIT = 5
const STEP = 0.05
const MAX_LOST = 0.01

const shares = Array.from({ length: Math.round(1 / STEP) }, (_, i) => Math.round(i * STEP * 100) / 100)

/**
 * Each dev request's loaded tools at every share, as the plugin's search decides them.
 * @type {{id: string, searches: {loads: Map<number, string[]>, relevant: Set<string>}[]}[]}
 */
const sources = []
for (const source of evalSources()) {
  const index = ToolIndex.fromJson(source.catalogJson)
  await index.ready()
  const searches = []
  for (const request of source.requests.filter((request) => request.part === 'dev')) {
    const query = queryOf(request.query)
    const loads = new Map()
    for (const share of shares) {
      const { loaded } = await index.decideAsync(query, LIMIT, { floor: WEAK_MATCH_FLOOR, leaderShare: share })
      loads.set(share, loaded.map((hit) => hit.name))
    }
    searches.push({ loads, relevant: new Set(request.relevant) })
  }
  if (searches.length > 0) sources.push({ id: source.id, searches })
}

/** What searches load at one share: tools per search, relevant share among them, relevant tools loaded. */
function loadedAt(/** @type {typeof sources[number]['searches']} */ searches, /** @type {number} */ share) {
  let loaded = 0
  let relevant = 0
  for (const { loads, relevant: wanted } of searches) {
    const kept = loads.get(share) ?? []
    loaded += kept.length
    relevant += kept.filter((name) => wanted.has(name)).length
  }
  return { perSearch: loaded / searches.length, relevantShare: loaded === 0 ? 0 : relevant / loaded, relevantLoaded: relevant }
}

const table = sources.map(({ id, searches }) => ({ id, at: new Map(shares.map((share) => [share, loadedAt(searches, share)])) }))
const lost = (/** @type {typeof table[number]} */ row, /** @type {number} */ share) => {
  const all = row.at.get(0)?.relevantLoaded ?? 0
  return all === 0 ? 0 : 1 - (row.at.get(share)?.relevantLoaded ?? 0) / all
}
let chosen = 0
for (const share of shares) {
  if (table.some((row) => lost(row, share) > MAX_LOST)) break
  chosen = share
}
const fewer = (/** @type {number} */ share) => {
  const total = (/** @type {number} */ s) => table.reduce((sum, row) => sum + (row.at.get(s)?.perSearch ?? 0), 0)
  return 1 - total(share) / total(0)
}
const third = shares.find((share) => fewer(share) >= 1 / 3)
const round = (/** @type {number} */ n) => Math.round(n * 1000) / 1000
const describe = (/** @type {number} */ share) => table.map((row) => {
  const none = /** @type {ReturnType<typeof loadedAt>} */ (row.at.get(0))
  const at = /** @type {ReturnType<typeof loadedAt>} */ (row.at.get(share))
  return { source: row.id, loadedPerSearch: round(at.perSearch), withoutCut: round(none.perSearch), relevantShare: round(at.relevantShare), withoutCutShare: round(none.relevantShare), relevantLost: round(lost(row, share)) }
})
const result = {
  chosenShare: chosen,
  pluginShare: LEADER_SHARE,
  rule: `highest share (steps of ${STEP}) at which no source's dev searches load fewer than ${100 - MAX_LOST * 100}% of the relevant tools they load with no cut`,
  fewerAtPluginShare: round(fewer(LEADER_SHARE)),
  rows: describe(LEADER_SHARE),
  aThirdFewer: third === undefined ? null : { share: third, rows: describe(third) },
}
if (options.json) {
  console.log(JSON.stringify(result, null, 2))
} else {
  console.log(`chosen share ${chosen} (${result.rule}); the plugin's is ${LEADER_SHARE}, which loads ${Math.round(result.fewerAtPluginShare * 100)}% fewer tools`)
  console.table(result.rows)
  if (result.aThirdFewer !== null) {
    console.log(`a third fewer tools takes a share of ${result.aThirdFewer.share}:`)
    console.table(result.aThirdFewer.rows)
  }
  if (chosen !== LEADER_SHARE) console.log(`update LEADER_SHARE in plugin/search/leaders.ts to ${chosen}`)
}
