#!/usr/bin/env node
// Child process of speed.mjs: builds a hybrid index of tools no process has embedded, asks for
// `ready()` without waiting for it, searches once, and exits with the background worker still
// embedding. Prints one JSON line: how long after its start it called `process.exit`, and whether
// the vectors were in place by then; the parent times the rest, until the process is gone.
//
//   exit-probe.mjs <catalog.json>
import { readFileSync } from 'node:fs'
import { ToolIndex } from '../../index.js'

const started = performance.now()
const [file = ''] = process.argv.slice(2)
const index = ToolIndex.fromJson(readFileSync(file, 'utf8'), { ranking: 'hybrid' })
let ready = false
void index.ready().then(() => { ready = true })
await index.searchAsync('what is the weather like in Paris', 5)
console.log(JSON.stringify({ beforeExitMs: performance.now() - started, ready }))
process.exit(0)
