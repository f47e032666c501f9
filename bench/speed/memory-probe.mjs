#!/usr/bin/env node
// Child process of memory.mjs: the memory one native index adds, measured in a fresh process so
// earlier sizes leave nothing behind. Loads the addon and the catalog JSON and builds an index of
// one tool of the same ranking first, so the figure is the index's own and not what a process's
// first build sets up (the allocator's per-thread arenas, the semantic model). Then reads
// process.memoryUsage() after a full GC, builds one index, collects again and reads it again.
// The Rust index lives outside the V8 heap, so it shows in RSS; heap and external show what the
// JS side keeps. A hybrid index is measured as `fromJson` leaves it, with the word table's
// vectors; the transformer's, which its background worker adds later, are not in the figure
// (the report states their size). `model` measures reading the semantic model alone: with no
// model named, a one-tool lexical index; then, the model named, a one-tool hybrid index, which
// reads both files.
// Prints one JSON line. Run with --expose-gc.
//
//   memory-probe.mjs <tools> lexical|hybrid
//   memory-probe.mjs model
import { setModelPath, ToolIndex } from '../../index.js'
import { catalogOfSize } from '../lib/catalogs.mjs'
import { modelFile } from '../lib/model.mjs'

const [what = '', ranking = 'lexical'] = process.argv.slice(2)
if (ranking !== 'lexical' && ranking !== 'hybrid') throw new Error(`no ranking ${ranking}`)
const usage = () => {
  /** @type {() => void} */ (globalThis.gc)()
  const { rss, heapUsed, external } = process.memoryUsage()
  return { rss, heapUsed, external }
}
const oneTool = JSON.stringify(catalogOfSize(1))

if (what === 'model') {
  const file = modelFile()
  if (file === null) throw new Error('the model package is not installed')
  setModelPath(null)
  const warm = ToolIndex.fromJson(oneTool, { ranking: 'lexical' })
  const before = usage()
  setModelPath(file)
  const reader = ToolIndex.fromJson(oneTool, { ranking: 'hybrid' })
  const after = usage()
  if (warm.size !== 1 || reader.ranking !== 'hybrid') throw new Error('no model was read')
  process.stdout.write(`${JSON.stringify({ before, after })}\n`)
} else {
  const size = Number(what)
  const json = JSON.stringify(catalogOfSize(size))
  const warm = ToolIndex.fromJson(oneTool, { ranking })
  const before = usage()
  const index = ToolIndex.fromJson(json, { ranking })
  const after = usage()
  if (warm.size !== 1 || index.size !== size || index.ranking !== ranking) throw new Error(`indexed ${index.size} of ${size} tools, ${index.ranking}`)
  process.stdout.write(`${JSON.stringify({ tools: size, catalogBytes: Buffer.byteLength(json), before, after })}\n`)
}
