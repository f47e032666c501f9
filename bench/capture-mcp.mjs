#!/usr/bin/env node
// Records the tool catalog of a real MCP server published on npm, so the benchmark can measure it
// offline and reproducibly. Installs the exact package version into a temporary folder with npm,
// starts its binary over stdio, sends `initialize`, `notifications/initialized` and `tools/list`
// (every page), and writes catalogs/mcp/<server>.json with the package's name, version and
// license beside the tools exactly as the server listed them.
//
//   node bench/capture-mcp.mjs --server github --package @modelcontextprotocol/server-github@2025.4.8
//   node bench/capture-mcp.mjs --list model/build/train/mcp/servers.json --out model/build/train/mcp
//
// The package's first (usually only) binary is started with no credentials: the servers recorded
// so far read their credentials only when a tool is called. A server that wants a credential (or
// a path) just to start is given a dummy one: `--env NAME=value` and `--arg value`, repeatable,
// or `env` and `args` in a `--list` file (`[{server, package, bin?, env?, args?}]`, each recorded
// in turn; a server that fails is reported and skipped). `--out` names the folder written to
// (catalogs/mcp by default); `--only-missing` skips a listed server already recorded there; `--permissive` records only MIT, Apache-2.0, BSD and ISC packages
// (a list always does).
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    server: { type: 'string' },
    package: { type: 'string' },
    bin: { type: 'string' },
    env: { type: 'string', multiple: true, default: [] },
    arg: { type: 'string', multiple: true, default: [] },
    list: { type: 'string' },
    out: { type: 'string' },
    permissive: { type: 'boolean', default: false },
    'only-missing': { type: 'boolean', default: false },
  },
})
if (!values.list && (!values.server || !values.package)) {
  console.error('usage: capture-mcp.mjs --server <name> --package <npm spec with exact version> [--env K=V] [--arg A] [--out DIR]')
  console.error('       capture-mcp.mjs --list <servers.json> --out DIR')
  process.exit(2)
}
const outDir = values.out === undefined ? fileURLToPath(new URL('../catalogs/mcp/', import.meta.url)) : resolve(values.out)
/** Licences a training catalog may come from (SPDX ids; an `OR` of them passes if one does). */
const PERMISSIVE = new Set(['MIT', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', 'ISC', '0BSD'])
const permissive = (/** @type {unknown} */ license) =>
  typeof license === 'string' && license.replace(/[()]/g, '').split(/\s+OR\s+/).some((id) => PERMISSIVE.has(id.trim()))

if (values.list) {
  /** @type {{server: string, package: string, bin?: string, env?: Record<string, string>, args?: string[]}[]} */
  const servers = JSON.parse(readFileSync(values.list, 'utf8'))
  let failed = 0
  for (const server of servers) {
    if (values['only-missing'] && existsSync(join(outDir, `${server.server}.json`))) continue
    try {
      await capture({ ...server, env: server.env ?? {}, args: server.args ?? [], permissive: true })
    } catch (error) {
      failed++
      console.error(`${server.server} (${server.package}): ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  console.log(`${servers.length - failed} of ${servers.length} servers recorded`)
} else {
  const env = Object.fromEntries(values.env.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]))
  await capture({ server: values.server ?? '', package: values.package ?? '', bin: values.bin, env, args: values.arg, permissive: values.permissive })
}

/**
 * Installs one server, lists its tools and writes its record.
 * @param {{server: string, package: string, bin?: string | undefined, env: Record<string, string>, args: string[], permissive: boolean}} spec
 */
async function capture(spec) {
  const work = mkdtempSync(join(tmpdir(), 'dsh-tool-search-mcp-'))
  try {
    writeFileSync(join(work, 'package.json'), '{"private":true}\n')
    const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', spec.package], { cwd: work, stdio: 'inherit' })
    if (install.status !== 0) throw new Error(`npm install ${spec.package} failed`)
    const name = spec.package.replace(/(?<=.)@[^@]*$/, '')
    const dir = join(work, 'node_modules', name)
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    // "SEE LICENSE IN <file>" names the licence by its text: the file's heading says which.
    const seeFile = typeof manifest.license === 'string' ? /^SEE LICEN[CS]E IN (.+)$/.exec(manifest.license)?.[1] : undefined
    if (seeFile !== undefined && existsSync(join(dir, seeFile))) {
      const heading = readFileSync(join(dir, seeFile), 'utf8').slice(0, 400)
      manifest.license = /Apache License[\s\S]*Version 2\.0/.test(heading) ? 'Apache-2.0' : /MIT License|Permission is hereby granted, free of charge/.test(heading) ? 'MIT' : manifest.license
    }
    if (spec.permissive && !permissive(manifest.license)) throw new Error(`licence ${JSON.stringify(manifest.license)} is not permissive; not recorded`)
    const bins = typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : manifest.bin ?? {}
    const bin = spec.bin === undefined ? Object.values(bins)[0] : bins[spec.bin]
    if (bin === undefined) throw new Error(`${name} declares no binary${spec.bin === undefined ? '' : ` ${spec.bin}`}`)
    const { serverInfo, tools } = await listTools(process.execPath, [join(dir, bin), ...spec.args], spec.env, work)
    if (tools.length === 0) throw new Error('the server lists no tools')
    const record = {
      source: {
        package: manifest.name,
        version: manifest.version,
        license: manifest.license,
        server: serverInfo,
        capturedWith: 'bench/capture-mcp.mjs (stdio: initialize, tools/list)',
        ...(Object.keys(spec.env).length > 0 ? { dummyEnv: Object.keys(spec.env) } : {}),
        ...(spec.args.length > 0 ? { args: spec.args } : {}),
      },
      tools,
    }
    mkdirSync(outDir, { recursive: true })
    const out = join(outDir, `${spec.server}.json`)
    writeFileSync(out, `${JSON.stringify(record, null, 2)}\n`)
    console.log(`${out}: ${tools.length} tools from ${manifest.name}@${manifest.version} (${manifest.license})`)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/**
 * One stdio session: the server's identity and every page of its tool list.
 * @param {string} command
 * @param {string[]} args
 * @param {Record<string, string>} [env] - added to this process's environment
 * @param {string} [cwd]
 */
async function listTools(command, args, env = {}, cwd) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, ...env }, cwd })
  child.stdin.on('error', () => {}) // a server that exits early closes its input
  const pending = new Map()
  let nextId = 1
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message
    try { message = JSON.parse(line) } catch { return } // servers may log non-JSON lines
    const waiter = pending.get(message.id)
    if (waiter === undefined) return
    pending.delete(message.id)
    if (message.error) waiter.reject(new Error(`${message.error.code}: ${message.error.message}`))
    else waiter.resolve(message.result)
  })
  const exited = new Promise((_, reject) => {
    child.on('exit', (code) => reject(new Error(`server exited with ${code} before answering`)))
    child.on('error', reject)
    // A server that waits for a network or a credential it was not given never answers.
    setTimeout(() => reject(new Error('no answer in 60 s')), 60_000).unref()
  })
  /** @type {(method: string, params: object) => Promise<any>} */
  const request = (method, params) => {
    const id = nextId++
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`)
    return Promise.race([new Promise((resolve, reject) => pending.set(id, { resolve, reject })), exited])
  }
  try {
    const init = await request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'dsh-tool-search-benchmark', version: '1' },
    })
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`)
    const tools = []
    let cursor
    do {
      const page = await request('tools/list', cursor === undefined ? {} : { cursor })
      tools.push(...page.tools)
      cursor = page.nextCursor
    } while (cursor)
    return { serverInfo: init.serverInfo, tools }
  } finally {
    child.kill('SIGKILL')
  }
}
