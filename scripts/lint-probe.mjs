#!/usr/bin/env node
// Shows that the style gates catch what they are for (`pnpm lint:probe`): for each of nine
// breakages it writes probe files into the tree, runs that gate of `pnpm lint`
// (scripts/lint.mjs) and expects it to fail, then removes the probes, even when interrupted.
//
//   rustfmt  examples/zz_lint_probe.rs, a main written on one line
//   clippy   examples/zz_lint_probe.rs, formatted, comparing a length with 0 (clippy::len_zero)
//   oxlint   scripts/zz-lint-probe.mjs, an unused variable and a promise nobody awaits
//   jscpd    scripts/zz-lint-probe.mjs, a copy of this file's firstFailingLine (7 lines)
//   docs     docs/zz-lint-probe.md, a link written from the root instead of from docs/
//   docs     docs/zz-lint-probe.md, a ranking parameter quoted with a value it does not have
//   cycles   plugin/zz-lint-probe-{a,b}.ts, two modules that import each other
//   cycles   src/zz_lint_probe_{a,b}.rs, two Rust modules that use each other (no `mod` line
//            declares them, so cargo never sees them)
//   dsh-imports  plugin/zz-lint-probe-dsh.ts, a value import DSH 0.1.2 removed (installSettingsSection)
//
// Prints each gate's verdict and the first line of its output that says why; exits 1 when a gate
// passed its breakage. `pnpm lint:probe cycles` runs only the probes of the gates named. Run it
// alone: the probes would break any other cargo or lint run meanwhile.
import { spawnSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const RUST_PROBE = join(REPO, 'examples', 'zz_lint_probe.rs')
const JS_PROBE = join(REPO, 'scripts', 'zz-lint-probe.mjs')
const DOC_PROBE = join(REPO, 'docs', 'zz-lint-probe.md')
const TS_CIRCLE = [join(REPO, 'plugin', 'zz-lint-probe-a.ts'), join(REPO, 'plugin', 'zz-lint-probe-b.ts')]
const RUST_CIRCLE = [join(REPO, 'src', 'zz_lint_probe_a.rs'), join(REPO, 'src', 'zz_lint_probe_b.rs')]
const DSH_IMPORT = join(REPO, 'plugin', 'zz-lint-probe-dsh.ts')

/** @type {{ gate: string, files: [string, string][], why: RegExp }[]} */
const PROBES = [
  {
    gate: 'rustfmt',
    files: [[RUST_PROBE, '//! A probe of `pnpm lint:probe`: misformatted.\nfn main(){let x=1;println!("{}",x);}\n']],
    why: /^Diff in .*zz_lint_probe\.rs/,
  },
  {
    gate: 'clippy',
    files: [[RUST_PROBE, '//! A probe of `pnpm lint:probe`: a clippy warning.\nfn main() {\n    let v = vec![1, 2, 3];\n    println!("{}", v.len() == 0);\n}\n']],
    why: /^error: .*(length|len)/,
  },
  {
    gate: 'oxlint',
    files: [[JS_PROBE, '// A probe of `pnpm lint:probe`: lint errors.\nconst unused = 1\nasync function later() {}\nlater()\n']],
    why: /^\s*x .*\((no-unused-vars|no-floating-promises)\)/,
  },
  {
    gate: 'jscpd',
    files: [[JS_PROBE, `// A probe of \`pnpm lint:probe\`: a pasted block.\nexport ${firstFailingLine.toString()}\n`]],
    why: /\(\d+ lines, \d+ tokens\)/,
  },
  {
    gate: 'docs',
    files: [[DOC_PROBE, '# A probe of `pnpm lint:probe`\n\nA link written from the root: [search](docs/search.md).\n']],
    why: /^docs\/zz-lint-probe\.md:3: the link docs\/search\.md/,
  },
  {
    gate: 'docs',
    files: [[DOC_PROBE, '# A probe of `pnpm lint:probe`\n\nThe transformer compares `contextual_candidates` (50) tools.\n']],
    why: /^docs\/zz-lint-probe\.md:3: `contextual_candidates` \(50\): src\/index\/params\.rs gives/,
  },
  {
    gate: 'cycles',
    files: [
      [TS_CIRCLE[0], "// A probe of `pnpm lint:probe`: half of an import circle.\nimport { b } from './zz-lint-probe-b.ts'\nexport const a = (): number => b + 1\n"],
      [TS_CIRCLE[1], "// A probe of `pnpm lint:probe`: half of an import circle.\nimport type { a } from './zz-lint-probe-a.ts'\nexport const b = 1\nexport type A = typeof a\n"],
    ],
    why: /^import circle: plugin\//,
  },
  {
    gate: 'cycles',
    files: [
      [RUST_CIRCLE[0], '//! A probe of `pnpm lint:probe`: half of a module circle.\nuse crate::zz_lint_probe_b::B;\npub const A: u32 = B + 1;\n'],
      [RUST_CIRCLE[1], '//! A probe of `pnpm lint:probe`: half of a module circle.\npub const B: u32 = 1;\npub fn a() -> u32 {\n    crate::zz_lint_probe_a::A\n}\n'],
    ],
    why: /^import circle: src\//,
  },
  {
    gate: 'dsh-imports',
    files: [[DSH_IMPORT, "// A probe of `pnpm lint:probe`: a value import one DSH release no longer exports.\nimport { installSettingsSection } from '@deepseek-ai/dsh-settings'\nexport const install = installSettingsSection\n"]],
    why: /^plugin\/zz-lint-probe-dsh\.ts:2: installSettingsSection of @deepseek-ai\/dsh-settings/,
  },
]

const asked = process.argv.slice(2)
const unknown = asked.filter(gate => !PROBES.some(probe => probe.gate === gate))
if (unknown.length > 0) {
  process.stderr.write(`lint-probe: no probe of ${unknown.join(', ')}; the probed gates: ${[...new Set(PROBES.map(probe => probe.gate))].join(', ')}\n`)
  process.exit(2)
}
const probes = asked.length === 0 ? PROBES : PROBES.filter(probe => asked.includes(probe.gate))

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    removeProbes()
    process.exit(130)
  })
}

let passedBreakage = 0
try {
  for (const probe of probes) {
    for (const [file, text] of probe.files) writeFileSync(file, text)
    const run = spawnSync(process.execPath, [join(REPO, 'scripts', 'lint.mjs'), probe.gate], { cwd: REPO, encoding: 'utf8' })
    for (const [file] of probe.files) rmSync(file, { force: true })
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
  for (const file of [RUST_PROBE, JS_PROBE, DOC_PROBE, ...TS_CIRCLE, ...RUST_CIRCLE, DSH_IMPORT]) rmSync(file, { force: true })
}
