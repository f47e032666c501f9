#!/usr/bin/env node
// The demo (`./run demo`, `pnpm run demo`): dsh-tool-search inside the real
// `dsh` CLI, and an account of what happened, read from the session DSH
// persisted.
//
// Without DEEPSEEK_API_KEY it runs the profile E2E (e2e/profile-e2e.mjs:
// a scripted model on 127.0.0.1, native and Code Mode, every check) and tells
// each run. With DEEPSEEK_API_KEY it installs the same packages into a fresh
// DSH_HOME and asks DeepSeek's API (or DEEPSEEK_BASE_URL) the same question
// once, in native mode: a real model decides whether and what to search.
//
//   pnpm run demo [--task "<question>"] [--timeout <seconds>]
import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { DSH_VERSION, HMR_PATCH, installDsh } from './lib/dsh-install.mjs'
import { contentText, parseJson, sdkSection } from './lib/observe.mjs'
import { killAll, onInterrupt, run, tail } from './lib/processes.mjs'
import { PROFILE, installIntoProfile, pack, packPlugin } from './lib/profile.mjs'
import { FIXTURE_TOOLS } from './lib/scenarios.mjs'
import { readSession, sessionFiles } from './lib/session-log.mjs'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const { values: options } = parseArgs({
  options: {
    task: { type: 'string', default: 'What will the weather be like in Paris?' },
    timeout: { type: 'string', default: '300' },
  },
})
const say = (line = '') => process.stdout.write(`${line}\n`)

process.exit(process.env.DEEPSEEK_API_KEY ? await realModel() : await scriptedModel())

/** The profile E2E, then its sessions told one by one. */
async function scriptedModel() {
  const out = mkdtempSync(join(tmpdir(), 'dsh-tool-search-demo-'))
  say(`No DEEPSEEK_API_KEY: running the profile E2E against a scripted model (real dsh ${DSH_VERSION}, real plugin packages).`)
  // Both E2E runs below share one DSH install, removed at the end unless DSH_E2E_CACHE names one.
  const cache = process.env.DSH_E2E_CACHE ? undefined : join(out, 'dsh-cache')
  const e2e = (...args) => spawnSync(process.execPath, [join(REPO, 'e2e', 'profile-e2e.mjs'), ...args], {
    cwd: REPO,
    env: cache ? { ...process.env, DSH_E2E_CACHE: cache } : process.env,
    // Progress goes to stderr as it runs; stdout is the JSON report, read from its file instead.
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const withPlugin = e2e('--out', out)
  const report = parseJson(readFileSync(join(out, 'profile-e2e-report.json'), 'utf8'))
  if (!report?.runs) {
    say(`The E2E stopped before running dsh: ${report?.error ?? `exit ${withPlugin.status}`}`)
    return 1
  }
  say(`Installed ${report.plugin.name} ${report.plugin.version} with its binary from ${report.plugin.native.source}, and a fixture plugin with ${FIXTURE_TOOLS.length} everyday tools (${FIXTURE_TOOLS.join(', ')}).`)
  for (const entry of report.runs) {
    say()
    say(`== ${entry.title}${entry.name === 'code' ? ' (DSH_TOOLS_MODE=code: the model writes programs against a generated SDK)' : ''}`)
    tell(readFileSync(join(out, `session-${entry.name}.jsonl`), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)))
    // What dsh printed on standard error for the plugin (why it stepped aside, when it did).
    for (const line of entry.dsh.stderr.split('\n').filter((text) => text.startsWith('dsh-tool-search: '))) say(`   stderr: ${line}`)
    const passed = entry.checks.filter((check) => check.pass).length
    say(`   checks: ${passed}/${entry.checks.length} passed${entry.ok ? '' : `; failed: ${entry.checks.filter((check) => !check.pass).map((check) => check.name).join('; ')}`}`)
  }
  // The same question without this plugin, for comparison: every tool is offered up front.
  const baseline = join(out, 'baseline')
  e2e('--baseline', '--mode', 'native', '--out', baseline)
  if (cache) rmSync(cache, { recursive: true, force: true, maxRetries: 3 })
  const firstHeader = readFileSync(join(baseline, 'session-native.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)).find((event) => event.type === 'request/header')
  say()
  say('== without dsh-tool-search (native mode)')
  say(`   step 1: the model is offered ${firstHeader ? offer(firstHeader.data.header) : 'nothing (the baseline run failed)'}`)
  say()
  say(`Full JSON reports: ${join(out, 'profile-e2e-report.json')}, ${join(baseline, 'profile-e2e-report.json')}`)
  return withPlugin.status ?? 1
}

/** One native-mode run against the real model, told from its session. */
async function realModel() {
  const root = mkdtempSync(join(tmpdir(), 'dsh-tool-search-demo-'))
  const cleanUp = () => {
    killAll()
    rmSync(root, { recursive: true, force: true, maxRetries: 3 })
  }
  onInterrupt(cleanUp)
  try {
    say(`DEEPSEEK_API_KEY is set: asking ${process.env.DEEPSEEK_BASE_URL ?? "DeepSeek's API"} through the real dsh ${DSH_VERSION}.`)
    const cache = process.env.DSH_E2E_CACHE
    const dsh = await installDsh(cache ? join(resolve(cache), `dsh-${DSH_VERSION}`) : join(root, 'dsh'))
    const packs = join(root, 'packs')
    mkdirSync(packs)
    const fixture = await pack(join(REPO, 'e2e', 'fixture-plugin'), packs)
    const plugin = await packPlugin(REPO, packs)
    const home = join(root, 'home')
    const workdir = join(root, 'work')
    mkdirSync(workdir)
    const nonce = `nonce-${randomUUID()}`
    const env = { ...process.env, DSH_HOME: home, DSH_TELEMETRY_DISABLED: '1', DSH_E2E_FIXTURE_LOG: join(root, 'fixture-calls.jsonl'), DSH_E2E_FIXTURE_NONCE: nonce }
    delete env.DSH_TOOLS_MODE
    await installIntoProfile(dsh, env, [fixture, plugin])
    say(`Installed ${plugin.name} ${plugin.version} (binary from ${plugin.native.source}) and a fixture plugin with ${FIXTURE_TOOLS.length} everyday tools into a fresh DSH_HOME.`)
    const hmrPatch = join(root, 'hmr-on.yml')
    writeFileSync(hmrPatch, HMR_PATCH)
    const result = await run(dsh.bin, ['--profile', PROFILE, '--patch', hmrPatch, options.task], { cwd: workdir, env, timeoutMs: Number(options.timeout) * 1000 })
    say()
    tell(sessionFiles(home).flatMap(readSession))
    say()
    if (result.code !== 0) {
      say(`dsh ${result.timedOut ? `timed out after ${options.timeout} s` : `exited ${result.code}`}:\n${tail(result.stderr, 15)}`)
      return 1
    }
    say(`dsh printed:\n${tail(result.stdout, 20)}`)
    return 0
  } catch (error) {
    // Say why in a sentence (a DSH_VERSION whose packages were never published, say), not a stack.
    say(error.message)
    return 1
  } finally {
    cleanUp()
  }
}

/**
 * Tell a session step by step: what the model was offered (DSH logs a
 * request header when it changes), what it called, what came back, and what
 * it answered.
 */
function tell(events) {
  let step = 0
  for (const { type, data } of events) {
    if (type === 'user/message' && data.source?.kind === 'user') say(`   user: ${contentText(data.content)}`)
    else if (type === 'step/start') step = data.step
    else if (type === 'request/header') say(`   step ${step}: the model is offered ${offer(data.header)}`)
    else if (type === 'tool/call') say(`     model calls ${data.name} ${callArguments(data)}`)
    else if (type === 'tool/code-dispatch') say(`       run_code calls ${data.name} ${JSON.stringify(data.arguments)} -> ${short(resultOf(contentText(data.content)))}`)
    else if (type === 'tool/result') say(`     result: ${short(resultOf(toolResultText(data)))}`)
    else if (type === 'assistant/message') {
      const text = (data.message?.content ?? []).filter((part) => part.type === 'text').map((part) => part.text).join('').trim()
      if (text) say(`     model answers: ${short(text, 300)}`)
    }
  }
}

/** What one request header offers: native tools, or the Code Mode SDK's declarations. */
function offer(header) {
  const names = (header.tools ?? []).map((tool) => tool.name)
  const sdk = sdkSection(header.system ?? '')
  const declared = sdk ? sdk.declared : names
  const fixtures = FIXTURE_TOOLS.filter((name) => declared.includes(name))
  const where = sdk ? `${names.join(', ')} (its SDK declares ${declared.length} tools)` : `${names.length} tools`
  return `${where}; tool_search ${declared.includes('tool_search') ? 'yes' : 'no'}; fixture tools: ${fixtures.join(', ') || 'none'}`
}

function callArguments(data) {
  const args = parseJson(data.arguments) ?? data.arguments
  return data.name === 'run_code' && typeof args?.code === 'string' ? `\`${args.code}\`` : JSON.stringify(args)
}

/** A tool_search payload as its ranked names, anything else as text. */
function resultOf(text) {
  const payload = parseJson(text)
  if (payload?.schemaVersion === 1 && Array.isArray(payload.tools)) {
    return `found ${payload.tools.map((hit) => `${hit.name} (${hit.score})`).join(', ') || 'nothing'}`
  }
  return text
}

function toolResultText(data) {
  return (data.message?.content ?? []).map((part) => contentText(part.content)).join('')
}

function short(text, max = 200) {
  const flat = String(text).replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat
}
