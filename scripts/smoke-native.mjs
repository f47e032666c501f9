#!/usr/bin/env node
// Smoke test of the native addon through its ESM loader (index.js), for any
// Node the package supports, 20 included: the loader must find this
// platform's binary, and the binary must index, rank and replay. `pnpm test`
// runs it under Node 20; the release workflow under each runner's Node.
//
//   node scripts/smoke-native.mjs
import assert from 'node:assert/strict'

const native = await import('../index.js')
const { ToolIndex, readCatalog, selectionFromEvents, selectionFromPayload, selectionFromResult } = native

const index = ToolIndex.fromJson(JSON.stringify([
  { name: 'get_weather_forecast', description: 'Weather forecast for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  { name: 'convert_currency', description: 'Convert an amount between currencies' },
  { name: 'book_meeting_room', description: 'Reserve a meeting room' },
]))
assert.equal(index.size, 3)
const hits = index.search("what's the weather forecast in Paris", 2)
assert.equal(hits[0]?.name, 'get_weather_forecast', `ranked ${JSON.stringify(hits)}`)
assert.equal(index.search('convert_currency', 1)[0]?.name, 'convert_currency', 'the exact name comes first')
assert.deepEqual(index.search('weather', 5, { exclude: ['get_weather_forecast'] }).map((hit) => hit.name).includes('get_weather_forecast'), false)

// A session that searched once: the replay selects what that search returned.
const payload = JSON.stringify({ schemaVersion: 1, query: 'weather', tools: [{ name: 'get_weather_forecast', description: 'Weather forecast for a city', score: 1 }] })
const events = [
  { type: 'tool/call', data: { callId: 'c1', name: 'tool_search', arguments: { query: 'weather' } } },
  { type: 'tool/result', data: { message: { content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: payload }] }] } } },
]
assert.deepEqual(selectionFromEvents(JSON.stringify(events)), { selected: ['get_weather_forecast'], prefetched: [], dropped: [], lastUsed: ['get_weather_forecast'] })
// The live commit reads one result by the same rule, and one result's text.
assert.deepEqual(selectionFromResult(JSON.stringify({ isError: false, content: [{ type: 'text', text: payload }] })), ['get_weather_forecast'])
assert.deepEqual(selectionFromPayload(payload), ['get_weather_forecast'])
// The command line reads catalogs through the core.
assert.deepEqual(readCatalog('[{"name":"a","parameters":{"type":"object"}},{"name":"a"}]'), [
  { name: 'a', description: '', parameters: '{"type":"object"}' },
  { name: 'a', description: '', parameters: null },
])
assert.throws(() => ToolIndex.fromJson('not json'), Error)

process.stdout.write(`smoke-native: Node ${process.version} (${process.platform}-${process.arch}) loaded the ${native.__napiBindingTarget ?? 'native'} binding through index.js; index, search, replay and catalog reading work\n`)
