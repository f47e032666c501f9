#!/usr/bin/env node
// Child process of speed.mjs: milliseconds from `fromJson` until a hybrid index's transformer
// vectors are in place, in a fresh process whose vector cache (DSH_TOOL_SEARCH_CACHE, set by the
// parent) already holds every tool's vector: what DSH started again waits. The process has
// embedded nothing, so the vectors can only come from the file. Prints one JSON line.
//
//   ready-probe.mjs <catalog.json>
import { readFileSync } from 'node:fs'
import { ToolIndex } from '../../index.js'
import { keepAlive } from './timing.mjs'

const [file = ''] = process.argv.slice(2)
const json = readFileSync(file, 'utf8')
const start = performance.now()
const index = ToolIndex.fromJson(json, { ranking: 'hybrid' })
await index.ready()
keepAlive(index)
console.log(JSON.stringify({ readyMs: performance.now() - start }))
