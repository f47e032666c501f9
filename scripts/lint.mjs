#!/usr/bin/env node
// Every style gate (`pnpm lint`), each run whatever the others gave, then one line per gate and
// the names of those that failed; exits 1 if any did. docs/lint.md says how to fix each.
//
//   pnpm lint                  every gate
//   pnpm lint oxlint jscpd     only the gates named
//
// The Rust gates need cargo with rustfmt and clippy; the others, `pnpm install`. None needs the
// build: the type check reads the plugin's sources where bin/ imports dist/.
import { spawnSync } from 'node:child_process'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
/** What oxlint reads (.oxlintrc.json says which rules); jscpd's folders are in .jscpd.json. */
const JS_FOLDERS = ['plugin', 'bin', 'bench', 'scripts', 'e2e', '__test__']
const CLIPPY = ['--all-targets', '--', '-D', 'warnings']

/** @type {{ name: string, what: string, runs: [string, string[]][] }[]} */
const GATES = [
  {
    name: 'rustfmt',
    what: 'Rust formatting (rustfmt.toml): the crate, its examples and the fuzz targets',
    runs: [['cargo', ['fmt', '--check']], ['cargo', ['fmt', '--check', '--manifest-path', 'fuzz/Cargo.toml']]],
  },
  { name: 'clippy', what: 'clippy on the default features (the Node-API addon)', runs: [['cargo', ['clippy', ...CLIPPY]]] },
  {
    name: 'clippy-core',
    what: 'clippy without default features (the plain-Rust core the examples and fuzz targets use)',
    runs: [['cargo', ['clippy', '--no-default-features', ...CLIPPY]]],
  },
  { name: 'clippy-fuzz', what: 'clippy on the fuzz targets', runs: [['cargo', ['clippy', '--manifest-path', 'fuzz/Cargo.toml', ...CLIPPY]]] },
  { name: 'oxlint', what: 'oxlint (.oxlintrc.json)', runs: [['pnpm', ['exec', 'oxlint', ...JS_FOLDERS]]] },
  { name: 'jscpd', what: 'copy-paste (.jscpd.json)', runs: [['pnpm', ['exec', 'jscpd', '--config', '.jscpd.json']]] },
  { name: 'typecheck', what: 'TypeScript and JSDoc types (pnpm run typecheck)', runs: [['pnpm', ['run', 'typecheck']]] },
  { name: 'docs', what: 'every link and cited file of the documentation resolves, and one version (scripts/check-docs.mjs)', runs: [[process.execPath, ['scripts/check-docs.mjs']]] },
  { name: 'pairing', what: 'README.zh.md in step with README.md (pnpm run verify-translation-pairing)', runs: [[process.execPath, ['scripts/verify-translation-pairing.mjs']]] },
  { name: 'cycles', what: 'no import circle among the files of plugin/ and src/ (scripts/import-cycles.mjs)', runs: [[process.execPath, ['scripts/import-cycles.mjs']]] },
  { name: 'dsh-imports', what: 'shipped code imports from @deepseek-ai/* only values every DSH from 0.1.0-rc.8 to 0.2.x exports (scripts/dsh-imports.mjs)', runs: [[process.execPath, ['scripts/dsh-imports.mjs']]] },
]

const asked = process.argv.slice(2)
const unknown = asked.filter((name) => !GATES.some((gate) => gate.name === name))
if (unknown.length > 0) {
  process.stderr.write(`lint: no gate ${unknown.join(', ')}; the gates: ${GATES.map((gate) => gate.name).join(', ')}\n`)
  process.exit(2)
}
const gates = asked.length === 0 ? GATES : GATES.filter((gate) => asked.includes(gate.name))

/** @type {{ name: string, ok: boolean, seconds: number }[]} */
const results = []
for (const gate of gates) {
  log(`${gate.name}: ${gate.what}`)
  const started = performance.now()
  let ok = true
  for (const [command, args] of gate.runs) {
    log(`${gate.name}: ${command} ${args.join(' ')}`)
    const run = spawnSync(command, args, { cwd: REPO, stdio: 'inherit' })
    if (run.error) log(`${gate.name}: cannot run ${command}: ${run.error.message}`)
    ok &&= run.status === 0
  }
  const seconds = Math.round(performance.now() - started) / 1000
  results.push({ name: gate.name, ok, seconds })
  log(`${ok ? 'passed' : 'FAILED'} ${gate.name} in ${seconds} s`)
}

const failed = results.filter((result) => !result.ok).map((result) => result.name)
process.stdout.write(`\n${results.map((result) => `  ${result.ok ? 'passed' : 'FAILED'}  ${result.name} (${result.seconds} s)`).join('\n')}\n`)
process.stdout.write(failed.length === 0
  ? `lint: ${results.length === 1 ? `${results[0]?.name} passed` : `all ${results.length} gates passed`}\n`
  : `lint: ${failed.length} of ${results.length} gates failed: ${failed.join(', ')} (docs/lint.md says how to fix each)\n`)
process.exit(failed.length === 0 ? 0 : 1)

function log(message) {
  process.stderr.write(`[lint] ${message}\n`)
}
