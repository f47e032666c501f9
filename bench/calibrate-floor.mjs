#!/usr/bin/env node
// The confidence floor of tool_search (WEAK_MATCH_FLOOR in plugin/search/answer.ts): below it the
// best match of a search is too weak to load, and the result says so instead. Re-run this after
// any ranking change; it prints the floor it would choose and what the plugin's floor does.
//
//   node bench/calibrate-floor.mjs [--json]
//
// On the dev part of every eval set (bench/data and their union, see lib/eval-sets.mjs):
// - requests whose relevant tool is in the top 5 are the ones a floor must not turn away: a
//   floor "loses" such a request when its best match is weaker than the floor;
// - the same requests against the catalog of another source with no tool in common stand for a
//   request about something not installed: a floor "catches" those it turns away.
// The chosen floor is the highest, in steps of 0.05, at which no source loses more than 1% of its
// requests. Strength is the core's ToolIndex.matchStrength, as the plugin reads it.
import { parseArgs } from 'node:util'
import { ToolIndex } from '../index.js'
import { built, queryOf } from './lib/built.mjs'
import { evalSources } from './lib/eval-sets.mjs'

const { values: options } = parseArgs({ options: { json: { type: 'boolean', default: false } } })
const { WEAK_MATCH_FLOOR } = await built('search/answer.js')

const MAX_LOST = 0.01
const STEP = 0.05

// Each index once its semantic vectors are in place: the ranking the plugin settles on. Its
// matches only (`fill: false`), as the plugin weighs them.
const sources = await Promise.all(evalSources().map(async (source) => {
  const index = ToolIndex.fromJson(source.catalogJson)
  await index.ready()
  return { ...source, index, names: new Set(index.names()), dev: source.requests.filter((request) => request.part === 'dev') }
}))

/** The strength of the best of the top 5 for a request, and whether a relevant tool is among them. */
function answer(/** @type {ToolIndex} */ index, /** @type {string} */ text, /** @type {string[]} */ relevant) {
  const query = queryOf(text)
  const hits = index.search(query, 5, { fill: false })
  const best = hits[0]
  return { found: hits.some((hit) => relevant.includes(hit.name)), empty: best === undefined, strength: best === undefined ? 0 : index.matchStrength(query, best.name) }
}

const measured = sources.filter((source) => source.dev.length > 0).map((source) => {
  const answers = source.dev.map((request) => answer(source.index, request.query, request.relevant))
  // Catalogs that share no tool with this source's: its requests are about nothing installed there.
  const strangers = sources.filter((other) => other !== source && ![...other.names].some((name) => source.names.has(name)))
  const foreign = strangers.flatMap((other) => source.dev.map((request) => answer(other.index, request.query, request.relevant)))
  return { id: source.id, answers, kept: answers.filter((a) => a.found).map((a) => a.strength), foreign: foreign.map((a) => a.strength) }
})

const lostShare = (/** @type {number[]} */ kept, /** @type {number} */ floor) => (kept.length === 0 ? 0 : kept.filter((s) => s < floor).length / kept.length)
let chosen = 0
for (let floor = STEP; floor < 10; floor += STEP) {
  const rounded = Math.round(floor * 100) / 100
  if (measured.some((source) => lostShare(source.kept, rounded) > MAX_LOST)) break
  chosen = rounded
}

const share = (/** @type {number} */ part, /** @type {number} */ whole) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000)
const rows = measured.map(({ id, answers, kept, foreign }) => ({
  source: id,
  devRequests: answers.length,
  foundInTop5: kept.length,
  lostAtPluginFloor: share(kept.filter((s) => s < WEAK_MATCH_FLOOR).length, kept.length),
  weakAtPluginFloor: share(answers.filter((a) => !a.empty && a.strength < WEAK_MATCH_FLOOR).length, answers.length),
  empty: share(answers.filter((a) => a.empty).length, answers.length),
  foreignRequests: foreign.length,
  foreignTurnedAway: share(foreign.filter((s) => s < WEAK_MATCH_FLOOR).length, foreign.length),
}))
const all = measured.flatMap((source) => source.answers)
const foreignAll = measured.flatMap((source) => source.foreign)
const result = {
  chosenFloor: chosen,
  pluginFloor: WEAK_MATCH_FLOOR,
  rule: `highest floor (steps of ${STEP}) at which no source loses more than ${MAX_LOST * 100}% of its dev requests whose relevant tool is in the top 5`,
  weakShare: share(all.filter((a) => !a.empty && a.strength < WEAK_MATCH_FLOOR).length, all.length),
  emptyShare: share(all.filter((a) => a.empty).length, all.length),
  foreignTurnedAway: share(foreignAll.filter((s) => s < WEAK_MATCH_FLOOR).length, foreignAll.length),
  rows,
}

if (options.json) {
  console.log(JSON.stringify(result, null, 2))
} else {
  console.log(`chosen floor: ${chosen} (${result.rule})`)
  console.log(`the plugin's WEAK_MATCH_FLOOR: ${WEAK_MATCH_FLOOR}${chosen === WEAK_MATCH_FLOOR ? ' (the same)' : ' (differs: update plugin/search/answer.ts)'}`)
  console.log(`at the plugin's floor, over ${all.length} dev requests: ${pct(result.weakShare)} weak (loads nothing, shows candidates), ${pct(result.emptyShare)} empty; `
    + `${pct(result.foreignTurnedAway)} of ${foreignAll.length} requests against an unrelated catalog are turned away`)
  console.log('\nsource                   dev  found@5  lost  weak  empty  foreign  turned away')
  for (const row of rows) {
    console.log(`${row.source.padEnd(22)} ${String(row.devRequests).padStart(5)} ${String(row.foundInTop5).padStart(8)} ${pct(row.lostAtPluginFloor).padStart(5)} `
      + `${pct(row.weakAtPluginFloor).padStart(5)} ${pct(row.empty).padStart(6)} ${String(row.foreignRequests).padStart(8)} ${pct(row.foreignTurnedAway).padStart(12)}`)
  }
}

function pct(/** @type {number} */ x) {
  return `${(x * 100).toFixed(1)}%`
}
