#!/usr/bin/env node
// Shows that the style gates catch what they are for (`pnpm lint:probe`): for each of four
// breakages it writes one probe file into the tree, runs that gate of `pnpm lint`
// (scripts/lint.mjs) and expects it to fail, then removes the probe, even when interrupted.
//
//   rustfmt  examples/zz_lint_probe.rs, a main written on one line
//   clippy   examples/zz_lint_probe.rs, formatted, comparing a length with 0 (clippy::len_zero)
//   oxlint   scripts/zz-lint-probe.mjs, an unused variable and a promise nobody awaits
//   jscpd    scripts/zz-lint-probe.mjs, a copy of this file's firstFailingLine (7 lines)
//
// Prints each gate's verdict and the first line of its output that says why; exits 1 when a gate
// passed its breakage. Run it alone: the probes would break any other cargo or lint run meanwhile.
import { spawnSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const RUST_PROBE = join(REPO, 'examples', 'zz_lint_probe.rs')
const JS_PROBE = join(REPO, 'scripts', 'zz-lint-probe.mjs')

const PROBES = [
  {
    gate: 'rustfmt',
    file: RUST_PROBE,
    text: '//! A probe of `pnpm lint:probe`: misformatted.\nfn main(){let x=1;println!("{}",x);}\n',
    why: /^Diff in .*zz_lint_probe\.rs/,
  },
  {
    gate: 'clippy',
    file: RUST_PROBE,
    text: '//! A probe of `pnpm lint:probe`: a clippy warning.\nfn main() {\n    let v = vec![1, 2, 3];\n    println!("{}", v.len() == 0);\n}\n',
    why: /^error: .*(length|len)/,
  },
  {
    gate: 'oxlint',
    file: JS_PROBE,
    text: '// A probe of `pnpm lint:probe`: lint errors.\nconst unused = 1\nasync function later() {}\nlater()\n',
    why: /^\s*x .*\((no-unused-vars|no-floating-promises)\)/,
  },
  {
    gate: 'jscpd',
    file: JS_PROBE,
    text: `// A probe of \`pnpm lint:probe\`: a pasted block.\nexport ${firstFailingLine.toString()}\n`,
    why: /\(\d+ lines, \d+ tokens\)/,
  },
]

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    removeProbes()
    process.exit(130)
  })
}

let passedBreakage = 0
try {
  for (const probe of PROBES) {
    writeFileSync(probe.file, probe.text)
    const run = spawnSync(process.execPath, [join(REPO, 'scripts', 'lint.mjs'), probe.gate], { cwd: REPO, encoding: 'utf8' })
    rmSync(probe.file, { force: true })
    const output = `${run.stdout}\n${run.stderr}`
    const failed = run.status !== 0
    if (!failed) passedBreakage += 1
    process.stdout.write(`${probe.gate}: exit ${run.status} (${failed ? 'failed, as it should' : 'PASSED the breakage'})\n`)
    process.stdout.write(`  ${firstFailingLine(output, probe.why)}\n`)
  }
} finally {
  removeProbes()
}
process.exit(passedBreakage === 0 ? 0 : 1)

/**
 * The first line of a gate's output that says why it failed: the first that matches `why`, else
 * the last non-empty line before the gate's summary.
 * @param {string} output
 * @param {RegExp} why
 */
function firstFailingLine(output, why) {
  const lines = output.split('\n').map((line) => line.trimEnd())
  const match = lines.find((line) => why.test(line))
  if (match !== undefined) return match.trim()
  const told = lines.filter((line) => line !== '' && !line.startsWith('[lint]'))
  return told.at(-1) ?? '(no output)'
}

function removeProbes() {
  for (const file of [RUST_PROBE, JS_PROBE]) rmSync(file, { force: true })
}
