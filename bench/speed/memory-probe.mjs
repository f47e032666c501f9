#!/usr/bin/env node
// Child process of memory.mjs: the memory one native index adds, measured in a fresh process so
// earlier sizes leave nothing behind. Loads the addon and the catalog JSON first, then reads
// process.memoryUsage() after a full GC, builds one index, collects again and reads it again.
// The Rust index lives outside the V8 heap, so it shows in RSS; heap and external show what the
// JS side keeps. Prints one JSON line. Run with --expose-gc.
import { ToolIndex } from '../../index.js'
import { catalogOfSize } from '../lib/catalogs.mjs'

const size = Number(process.argv[2])
const json = JSON.stringify(catalogOfSize(size))
const usage = () => {
  /** @type {() => void} */ (globalThis.gc)()
  const { rss, heapUsed, external } = process.memoryUsage()
  return { rss, heapUsed, external }
}
const before = usage()
const index = ToolIndex.fromJson(json)
const after = usage()
if (index.size !== size) throw new Error(`indexed ${index.size} of ${size} tools`)
process.stdout.write(`${JSON.stringify({ tools: size, catalogBytes: Buffer.byteLength(json), before, after })}\n`)
