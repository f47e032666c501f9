#!/usr/bin/env node
// Profile E2E: dsh-tool-search inside the real `dsh` CLI.
//
// Installs DSH 0.1.0-rc.8 with pnpm, packs this plugin and the fixture plugin
// (e2e/fixture-plugin: everyday tools that should be deferred), adds both to
// the headless profile of a fresh DSH_HOME, and drives `dsh --profile
// headless` against a scripted model on 127.0.0.1, in native and Code Mode
// with `loading: native` and with `loading: stable` (two searches and two
// found-tool calls, every request carrying the same tools bytes), and once
// more in native mode with `defer: auto` in settings.yaml (the five fixture
// tools are below its threshold: every one offered, no tool_search).
// Prints a JSON report and exits 1 if any check fails.
//
//   pnpm run e2e:profile [--baseline] [--mode native|code|both] [--tarball <tgz>]
//                        [--out <dir>] [--timeout <seconds>] [--keep]
//
// --baseline  runs the same flows without this plugin: every fixture tool must
//             then be offered up front (proves the fixture and model wiring).
// --tarball   uses an already packed plugin (also env DSH_TOOL_SEARCH_TARBALL)
//             instead of `pnpm pack` in the repo root.
// --out       where the report, the recorded model requests and the
//             persisted sessions go (also env DSH_E2E_ARTIFACTS; default a
//             new temp folder).
// --keep      keeps the scratch folder (DSH homes, tarballs) for debugging.
// Env DSH_E2E_CACHE: folder to keep the DSH install in between runs.
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { DSH_VERSION, HMR_PATCH, installDsh } from './lib/dsh-install.mjs'
import { startModelServer } from './lib/model-server.mjs'
import { killAll, onInterrupt, run, runOk, tail } from './lib/processes.mjs'
import { parseJson } from './lib/observe.mjs'
import { PROFILE, importFromProfile, installIntoProfile, nativeInstall, pack, packPlugin, peerResolution, platformKey, profileDir, profileOwnDshPackages, rowsLoading } from './lib/profile.mjs'
import { Checks, summarizeRequests } from './lib/report.mjs'
import { MCP_SERVER, catalogScenarios, mcpPatch } from './lib/catalog-scenarios.mjs'
import { TARGET, scenario } from './lib/scenarios.mjs'
import { ASKED, STABLE_SETTINGS, stableScenario } from './lib/stable-scenarios.mjs'
import { readSession, sessionFiles } from './lib/session-log.mjs'
import { fixtureTools } from './fixture-plugin/tools.js'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const FIXTURE_DIR = join(REPO, 'e2e', 'fixture-plugin')

const { values: options } = parseArgs({
  options: {
    baseline: { type: 'boolean', default: false },
    mode: { type: 'string', default: 'both' },
    tarball: { type: 'string', default: process.env.DSH_TOOL_SEARCH_TARBALL },
    out: { type: 'string', default: process.env.DSH_E2E_ARTIFACTS },
    timeout: { type: 'string', default: '120' },
    keep: { type: 'boolean', default: false },
  },
})
const modes = options.mode === 'both' ? ['native', 'code'] : [options.mode]
if (!modes.every((mode) => mode === 'native' || mode === 'code')) fail(`--mode must be native, code or both, not ${options.mode}`)
const timeoutMs = Number(options.timeout) * 1000
if (!(timeoutMs > 0)) fail(`--timeout must be a positive number of seconds, not ${options.timeout}`)

// Scratch (DSH homes, tarballs, and the DSH install unless cached) is removed
// at the end; artifacts (report, recorded requests) are kept.
const root = mkdtempSync(join(tmpdir(), 'dsh-tool-search-e2e-'))
const artifacts = options.out ? resolve(options.out) : mkdtempSync(join(tmpdir(), 'dsh-tool-search-e2e-artifacts-'))
mkdirSync(artifacts, { recursive: true })
const log = (message) => process.stderr.write(`[e2e] ${message}\n`)

function cleanUp() {
  killAll()
  if (options.keep) log(`kept work folder ${root}`)
  else rmSync(root, { recursive: true, force: true, maxRetries: 3 })
}

onInterrupt(cleanUp, log)

const report = {
  ok: false,
  variant: options.baseline ? 'baseline (fixture only, no dsh-tool-search)' : 'plugin',
  node: process.version,
  modes,
}
let exitCode = 1
try {
  exitCode = await main()
} catch (error) {
  report.error = error.message
  log(`error: ${error.message}`)
} finally {
  const file = join(artifacts, 'profile-e2e-report.json')
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n')
  process.stdout.write(JSON.stringify(report, null, 2) + '\n')
  log(`report written to ${file}`)
  cleanUp()
}
process.exit(exitCode)

async function main() {
  const started = performance.now()
  const cache = process.env.DSH_E2E_CACHE
  const dshDir = cache ? join(resolve(cache), `dsh-${DSH_VERSION}`) : join(root, 'dsh')
  log(`installing DSH ${DSH_VERSION} in ${dshDir}`)
  const dsh = await installDsh(dshDir)
  const { stdout: version } = await runOk(dsh.bin, ['--version'])
  const { stdout: pnpmVersion } = await runOk('pnpm', ['--version'])
  report.dsh = { version: version.trim(), dir: dsh.dir, reusedCache: dsh.reused, installMs: dsh.ms }
  report.pnpm = pnpmVersion.trim()
  if (report.dsh.version !== DSH_VERSION) throw new Error(`installed dsh reports ${report.dsh.version}, expected ${DSH_VERSION}`)

  const hmrPatch = join(root, 'hmr-on.yml')
  writeFileSync(hmrPatch, HMR_PATCH)
  const packs = join(root, 'packs')
  mkdirSync(packs)
  const fixture = await pack(FIXTURE_DIR, packs)
  const plugin = options.baseline ? undefined : await packPlugin(REPO, packs, options.tarball && resolve(options.tarball))
  report.fixture = { name: fixture.name, tarball: fixture.tarball }
  if (plugin) report.plugin = { name: plugin.name, version: plugin.version, tarball: plugin.tarball, files: plugin.files, native: plugin.native, model: plugin.model }

  report.runs = []
  const record = (entry) => {
    report.runs.push(entry)
    logRun(entry)
  }
  const deps = { dsh, hmrPatch, fixture, plugin }
  for (const mode of modes) {
    log(`running ${mode} mode`)
    record(await runMode(mode, deps))
  }
  if (plugin) {
    for (const mode of modes) {
      log(`running ${mode} mode with loading: stable`)
      record(await runMode(mode, deps, { name: `${mode}-stable`, stable: true }))
    }
  }
  if (plugin && modes.includes('native')) {
    log('running native mode with defer: auto')
    record(await runMode('native', deps, { name: 'native-auto', defer: 'auto' }))
  }
  if (plugin) {
    for (const mode of modes) {
      log(`running ${mode} mode: prefetch and discover, with an MCP server`)
      for (const entry of await catalogRuns(mode, deps)) record(entry)
    }
  }
  // Only a plugin whose binary comes in a platform package can arrive without it.
  if (plugin?.native.name) {
    log('running native mode with the plugin installed without its platform package')
    for (const entry of await runWithoutBinary(deps)) record(entry)
  }
  report.seconds = Math.round(performance.now() - started) / 1000
  const failed = report.runs.flatMap((entry) => entry.checks.filter((check) => !check.pass).map((check) => `${entry.name}: ${check.name}`))
  report.ok = failed.length === 0
  report.failed = failed
  for (const name of failed) log(`FAILED ${name}`)
  log(report.ok ? `all ${report.runs.reduce((n, entry) => n + entry.checks.length, 0)} checks passed` : `${failed.length} check(s) failed`)
  return report.ok ? 0 : 1
}

function logRun(result) {
  const counts = result.modelRequests.map((request) => request.sdk ? `${request.toolCount} (SDK ${request.sdk.declaredCount})` : request.toolCount)
  log(`${result.name}: ${result.checks.filter((check) => check.pass).length}/${result.checks.length} checks passed in ${result.seconds} s; tools offered per request: ${counts.join(', ') || 'none'}`)
  if (result.dsh.timedOut) log(`${result.name}: dsh timed out after ${options.timeout} s`)
  else if (result.dsh.exitCode !== 0) log(`${result.name}: dsh exited ${result.dsh.exitCode}:\n${withoutStackFrames(result.dsh.stderr)}`)
}

/**
 * One fresh DSH_HOME, one dsh run against the scripted model, and its checks.
 * @param {{name?: string, defer?: 'auto', stable?: boolean}} [options] - `name` names the run's
 *   folders and artifacts (default: the mode); `defer` is written to settings.yaml as the
 *   plugin's setting; `stable` runs the stable-loading scenario under `loading: stable`, the
 *   others pin `loading: native`.
 */
async function runMode(mode, deps, { name = mode, defer, stable = false } = {}) {
  const started = performance.now()
  const env = freshHome(name)
  const checks = new Checks()
  const installed = await installPlugins(name, env, deps, checks)
  // The user's settings document, as the web card or a hand edit writes it.
  if (deps.plugin) writeFileSync(join(env.DSH_HOME, 'settings.yaml'), stable ? STABLE_SETTINGS : nativeSettings(defer ? `  defer: ${defer}\n` : ''))
  const chosen = stable ? { ...stableScenario(mode), env: { DSH_E2E_FIXTURE_ASK: ASKED } } : scenario({ mode, withPlugin: Boolean(deps.plugin), defer })
  const run = await driveDsh(name, mode, env, deps, chosen, checks)
  const title = stable ? `${mode} mode, loading: stable` : defer ? `${mode} mode, defer: ${defer}` : `${mode} mode`
  return runEntry({ name, mode, title, started, installed, run, checks })
}

/** settings.yaml for the runs written for native loading (the plugin's default is stable), with more lines of the section. */
function nativeSettings(more = '') {
  return `tool-search:\n  loading: native\n${more}`
}

/**
 * The runs about what the model knows before it searches (e2e/lib/catalog-scenarios.mjs), one
 * after the other in one fresh home: the settings file each asks for, and the GitHub MCP fixture
 * bridged by DSH's MCP client through one more patch layer. One run entry each.
 */
async function catalogRuns(mode, deps) {
  const home = `catalog-${mode}`
  const env = freshHome(home)
  const checks = new Checks()
  const installed = await installPlugins(home, env, deps, checks)
  const patch = join(root, `catalog-patch-${mode}.yml`)
  writeFileSync(patch, readFileSync(deps.hmrPatch, 'utf8') + mcpPatch({
    node: process.execPath,
    server: join(REPO, 'bench', 'tokens', 'mcp-replay-server.mjs'),
    fixture: join(REPO, 'catalogs', 'mcp', `${MCP_SERVER}.json`),
  }))
  const settings = join(env.DSH_HOME, 'settings.yaml')
  const entries = []
  for (const [index, entry] of catalogScenarios(mode).entries()) {
    const started = performance.now()
    const name = `${entry.name}-${mode}`
    // The profile's own checks go with the first run made in it.
    const runChecks = index === 0 ? checks : new Checks()
    writeFileSync(settings, entry.settings)
    const run = await driveDsh(name, mode, env, { ...deps, hmrPatch: patch }, entry, runChecks)
    entries.push(runEntry({ name, mode, title: `${mode} mode, ${entry.name}`, started, installed, run, checks: runChecks }))
  }
  return entries
}

/**
 * The plugin as a user gets it whose package manager skips optional
 * dependencies (pnpm --no-optional): no platform package. dsh must start and
 * answer with every tool offered, and standard error must say why and how to
 * install the package. Then that advice is followed in the same profile (the
 * local tarball standing in for the registry while the package is not
 * published), and the next run searches as usual. Two run entries.
 */
async function runWithoutBinary(deps) {
  const { dsh, fixture, plugin } = deps
  let started = performance.now()
  const name = 'native-without-binary'
  const env = freshHome(name)
  const checks = new Checks()
  const nativeName = `${plugin.name}-${platformKey()}`
  const spec = `${nativeName}@${plugin.version}`
  const installed = await installIntoProfile(dsh, env, [fixture, plugin], PROFILE, { optional: false })
  checks.add(`the profile lists ${plugin.name} as a bundle`, installed.bundles.includes(plugin.name), { observed: installed.bundles })
  checks.add(`${nativeName} is not installed (pnpm skipped the optional dependency)`, !nativeInstall(env, plugin.name, nativeName).installed)
  const cli = await installedCli(env, plugin.name)
  checks.add('the installed command line prints the plugin\'s message naming the platform package, and exits 2', cli.code === 2
    && cli.stdout === '' && cli.stderr.startsWith(`dsh-tool-search: the native search core did not load: this machine is ${platformKey()}, whose core is the package ${spec}`), {
    observed: { code: cli.code, stderr: tail(cli.stderr, 5) },
  })
  const without = await driveDsh(name, 'native', env, deps, scenario({ mode: 'native', withPlugin: true, missingBinary: spec }), checks)
  const entries = [runEntry({ name, mode: 'native', title: 'native mode, the plugin installed without its platform package', started, installed, run: without, checks })]

  started = performance.now()
  const after = new Checks()
  const advice = /Install it with: dsh plugin --profile (\S+) add (\S+)\./.exec(without.observed.dsh.stderr)
  after.add('the message says how to install the package into this profile', advice?.[1] === PROFILE && advice?.[2] === spec, {
    expected: `dsh plugin --profile ${PROFILE} add ${spec}`, observed: advice?.[0],
  })
  const added = await installIntoProfile(dsh, env, [{ tarball: plugin.native.tarball ?? spec }])
  after.add(`${nativeName} is installed in the profile now`, nativeInstall(env, plugin.name, nativeName).installed)
  writeFileSync(join(env.DSH_HOME, 'settings.yaml'), nativeSettings())
  const searched = await driveDsh(`${name}-added`, 'native', env, deps, scenario({ mode: 'native', withPlugin: true }), after)
  entries.push(runEntry({ name: `${name}-added`, mode: 'native', title: 'native mode, after installing the platform package as the message says', started, installed: added, run: searched, checks: after }))
  return entries
}

/** A fresh DSH_HOME for one run (its env). */
function freshHome(name) {
  const env = { ...process.env, DSH_HOME: join(root, `home-${name}`), DSH_TELEMETRY_DISABLED: '1' }
  delete env.DSH_TOOLS_MODE
  return env
}

/**
 * One dsh run in `env`'s home against the scripted model, and the scenario's
 * checks of it. Returns what was observed and the sessions this run added.
 */
async function driveDsh(name, mode, env, { dsh, hmrPatch }, { model, check, env: extra = {} }, checks) {
  const workdir = join(root, `work-${name}`)
  mkdirSync(workdir, { recursive: true })
  const nonce = `nonce-${randomUUID()}`
  const fixtureLog = join(root, `fixture-calls-${name}.jsonl`)
  const hookLog = join(root, `fixture-hooks-${name}.jsonl`)
  const before = new Set(sessionFiles(env.DSH_HOME))
  const server = await startModelServer(model)
  let dshRun
  try {
    dshRun = await run(dsh.bin, ['--profile', PROFILE, '--patch', hmrPatch, 'What will the weather be like in Paris?'], {
      cwd: workdir,
      timeoutMs,
      env: {
        ...env,
        ...(mode === 'code' && { DSH_TOOLS_MODE: 'code' }),
        DEEPSEEK_BASE_URL: server.baseUrl,
        DEEPSEEK_API_KEY: 'scripted-model-needs-no-key',
        DSH_E2E_FIXTURE_LOG: fixtureLog,
        DSH_E2E_FIXTURE_NONCE: nonce,
        DSH_E2E_FIXTURE_HOOKS: hookLog,
        ...extra,
      },
    })
  } finally {
    await server.close()
  }

  const sessions = sessionFiles(env.DSH_HOME).filter((file) => !before.has(file))
  const observed = {
    dsh: dshRun,
    requests: server.agentRequests,
    failures: server.failures,
    nonce,
    fixtureCalls: jsonLines(fixtureLog),
    hooks: jsonLines(hookLog),
    session: sessions.flatMap(readSession),
  }
  try {
    check(observed, checks)
  } catch (error) {
    // A harness bug must not hide the run's evidence: report it as a failed check.
    checks.add('the checks evaluated without error', false, { observed: error.stack })
  }
  return { observed, server, sessions }
}

/** The JSON lines a fixture wrote to `file`, or none. */
function jsonLines(file) {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) : []
}

/** A run's report entry; its recorded requests and sessions go to the artifacts. */
function runEntry({ name, mode, title, started, installed, run: { observed, server, sessions }, checks }) {
  writeFileSync(join(artifacts, `requests-${name}.json`), JSON.stringify({ agent: server.agentRequests, title: server.titleRequests }, null, 2))
  // The session as DSH persisted it, for reading the run afterwards (e2e/demo.mjs does).
  writeFileSync(join(artifacts, `session-${name}.jsonl`), sessions.map(readSession).flat().map((event) => JSON.stringify(event)).join('\n') + '\n')
  const { dsh } = observed
  return {
    name,
    mode,
    title,
    ok: checks.failed.length === 0,
    seconds: Math.round(performance.now() - started) / 1000,
    profile: { bundles: installed.bundles, addMs: installed.ms },
    dsh: { exitCode: dsh.code, timedOut: dsh.timedOut, ms: dsh.ms, stdout: tail(dsh.stdout, 10), stderr: tail(dsh.stderr, 40) },
    modelRequests: summarizeRequests(server.agentRequests, server.replies),
    titleRequests: server.titleRequests.length,
    fixtureCalls: observed.fixtureCalls,
    checks: checks.list,
  }
}

/**
 * `dsh plugin add` the tarballs into the fresh profile, then check that the
 * profile mounts them by bare name, that the plugin imports from there, and
 * where its @deepseek-ai imports resolve.
 */
async function installPlugins(name, env, { dsh, hmrPatch, fixture, plugin }, checks) {
  const installed = await installIntoProfile(dsh, env, [fixture, plugin].filter(Boolean))
  for (const pkg of [fixture, plugin].filter(Boolean)) {
    checks.add(`the profile lists ${pkg.name} as a bundle`, installed.bundles.includes(pkg.name), { observed: installed.bundles })
    const rows = await rowsLoading(dsh, env, pkg.name, hmrPatch)
    checks.add(`the composed profile mounts ${pkg.name} by its bare package name`, rows.length > 0, { observed: rows })
  }
  if (plugin?.native.name) {
    const native = nativeInstall(env, plugin.name, plugin.native.name)
    checks.add(`the plugin names ${plugin.native.name} in optionalDependencies at its own version`, native.optionalRange === plugin.version, {
      expected: plugin.version, observed: native.optionalRange,
    })
    checks.add(`${plugin.native.name} is installed in the profile with its binary`, native.installed && native.binaries.length === 1, {
      observed: native.installed ? native.binaries : 'not installed',
    })
    checks.add(`${plugin.native.name} came through the plugin's optionalDependencies, not as a profile dependency`, native.installed && !native.listedByProfile, {
      observed: native.listedByProfile ? 'listed in the profile package.json' : 'not listed',
    })
    checks.add('the installed plugin carries no binary of its own', native.pluginOwnBinaries.length === 0, { observed: native.pluginOwnBinaries })
  }
  if (plugin) {
    const imported = await importFromProfile(env, plugin.name)
    checks.add(`${plugin.name} imports by its bare name from the profile`, imported.ok, { observed: imported.ok ? 'loaded' : imported.error })
    if (!imported.ok) log(`${name}: ${plugin.name} does not import from the profile:\n${imported.error.split('\n').slice(0, 12).join('\n')}`)
    const cli = await installedCli(env, plugin.name)
    const found = cli.code === 0 ? parseJson(cli.stdout)?.tools?.[0]?.name : undefined
    checks.add('the installed package\'s command line ranks its default catalog', found === 'mcp__github__create_issue', {
      observed: found ?? tail(cli.stderr || cli.stdout, 10),
    })
    if (plugin.model) {
      // The model package came along as an optional dependency, so the core ranks by meaning
      // too: a request that shares no word with the fixture's forecast tool finds it.
      const catalog = join(root, `fixture-catalog-${name}.json`)
      writeFileSync(catalog, JSON.stringify(fixtureTools(() => '').map(({ name: tool, description, parameters }) => ({ name: tool, description, parameters }))))
      const semantic = await installedCli(env, plugin.name, 'should I bring an umbrella tomorrow', 3, catalog)
      const result = semantic.code === 0 ? parseJson(semantic.stdout) : undefined
      checks.add(`${plugin.model.name} is installed with the plugin, so it ranks by words and meaning`, result?.ranking === 'hybrid', {
        observed: result?.ranking ?? tail(semantic.stderr || semantic.stdout, 10),
      })
      checks.add('a request sharing no word with the weather tool finds it first, by meaning', result?.tools?.[0]?.name === TARGET, {
        observed: result?.tools?.map?.((tool) => tool.name),
      })
    }
    const peers = peerResolution(env, plugin.name, dsh.dir)
    report.peerResolution ??= { profileOwnDshPackages: profileOwnDshPackages(env), peers }
    // Packages DSH shares as peers must be DSH's own instance: a dependency
    // would install a second copy beside it, and an undeclared import works
    // only through dsh's fallback folder.
    const sharedPeers = peers.filter((peer) => peer.sharedByDsh)
    checks.add('the DSH packages the plugin uses resolve to the DSH installation\'s own copies', sharedPeers.every((peer) => peer.fromDshInstall), {
      observed: sharedPeers.filter((peer) => !peer.fromDshInstall),
    })
    checks.add('the plugin declares the DSH packages it uses as peer dependencies', sharedPeers.every((peer) => peer.declaredIn === 'peerDependencies'), {
      observed: sharedPeers.filter((peer) => peer.declaredIn !== 'peerDependencies').map((peer) => `${peer.name}: ${peer.declaredIn}`),
    })
  }
  return installed
}

/** The installed package's command line, plain JavaScript beside the built dist/ it reads its rules from. */
function installedCli(env, packageName, query = 'create a github issue', limit = 1, catalog) {
  const args = ['search', query, '-n', String(limit), '--json', ...catalog ? ['-c', catalog] : []]
  return run(process.execPath, [join(profileDir(env), 'node_modules', packageName, 'bin', 'dsh-tool-search.js'), ...args], { env })
}

/** An error report's messages without its stack frames, to show why dsh stopped. */
function withoutStackFrames(text) {
  return text.split('\n').filter((line) => !/^\s+at /.test(line)).slice(0, 15).join('\n')
}

function fail(message) {
  process.stderr.write(`profile-e2e: ${message}\n`)
  process.exit(2)
}
