#!/usr/bin/env node
// Every test, in order (`pnpm test`): the style gates (`pnpm lint`: rustfmt,
// clippy, oxlint, jscpd, the type check of what the build does not compile
// and the import-circle check) and their probes (`pnpm lint:probe`), the Rust core, the build, the vitest suites, the native loader
// under Node 20, the profile E2E on the real dsh CLI, and the web check when
// the package defines one. Stops at the first failing step, since each later
// step depends on the earlier ones, and ends with one summary line.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const scripts = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).scripts ?? {}

const steps = [
  { name: 'style gates', command: 'pnpm', args: ['run', 'lint'] },
  // Each gate fails on a breakage written for it (the dsh-imports gate among them).
  { name: 'style gates can fail', command: 'pnpm', args: ['run', 'lint:probe'] },
  { name: 'Rust core', command: 'cargo', args: ['test', '--release', '--lib'] },
  { name: 'build', command: 'pnpm', args: ['run', 'build'] },
  { name: 'vitest suites', command: 'pnpm', args: ['exec', 'vitest', 'run'] },
  { name: 'native loader under Node 20', ...node20Smoke() },
  { name: 'profile E2E', command: 'pnpm', args: ['run', 'e2e:profile'] },
  // The web check belongs to the web page's owner; run it once the package defines it.
  ...(scripts['test:web'] ? [{ name: 'web check', command: 'pnpm', args: ['run', 'test:web'] }] : []),
]

const results = []
for (const step of steps) {
  if (step.skip) {
    results.push({ name: step.name, status: 'skipped', detail: step.skip })
    log(`skipped ${step.name}: ${step.skip}`)
    continue
  }
  log(`${step.name}: ${step.command} ${step.args.join(' ')}`)
  const started = performance.now()
  const run = spawnSync(step.command, step.args, { cwd: REPO, stdio: 'inherit' })
  const seconds = Math.round(performance.now() - started) / 1000
  const ok = run.status === 0
  results.push({ name: step.name, status: ok ? 'passed' : 'failed', detail: `${seconds} s` })
  log(`${ok ? 'passed' : 'FAILED'} ${step.name} in ${seconds} s${run.error ? ` (${run.error.message})` : ''}`)
  if (!ok) break
}

const count = (status) => results.filter((result) => result.status === status).length
const notRun = steps.length - results.length
process.stdout.write(`\n${results.map((result) => `  ${result.status.padEnd(8)} ${result.name} (${result.detail})`).join('\n')}\n`)
process.stdout.write(`test steps: ${count('passed')} passed, ${count('failed')} failed${count('skipped') ? `, ${count('skipped')} skipped` : ''}${notRun ? `, ${notRun} not run` : ''}\n`)
process.exit(count('failed') === 0 ? 0 : 1)

/**
 * The addon promises to load on Node 20 (engines), while DSH and the tests
 * need 22.19+. Run the loader smoke test under a Node 20 binary: $NODE20, or
 * the system's /usr/bin/node when that is 20. Without one the step is
 * skipped, except on CI (CI=true), which must prove it.
 */
function node20Smoke() {
  for (const bin of [process.env.NODE20, '/usr/bin/node']) {
    if (!bin || !existsSync(bin)) continue
    const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? ''
    if (version.startsWith('v20.')) return { command: bin, args: ['scripts/smoke-native.mjs'] }
  }
  const why = 'no Node 20 binary: set NODE20, or have Node 20 as /usr/bin/node'
  if (!process.env.CI) return { skip: why }
  return { command: process.execPath, args: ['-e', `console.error(${JSON.stringify(why)}); process.exit(1)`] }
}

function log(message) {
  process.stderr.write(`[test] ${message}\n`)
}
