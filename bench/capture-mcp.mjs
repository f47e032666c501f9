#!/usr/bin/env node
// Records the tool catalog of a real MCP server published on npm, so the benchmark can measure it
// offline and reproducibly. Installs the exact package version into a temporary folder with npm,
// starts its binary over stdio, sends `initialize`, `notifications/initialized` and `tools/list`
// (every page), and writes catalogs/mcp/<server>.json with the package's name, version and
// license beside the tools exactly as the server listed them.
//
//   node bench/capture-mcp.mjs --server github --package @modelcontextprotocol/server-github@2025.4.8
//
// The package's first (usually only) binary is started with no arguments and no credentials:
// the servers recorded so far read their credentials only when a tool is called.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const { values } = parseArgs({
  options: {
    server: { type: 'string' },
    package: { type: 'string' },
  },
})
if (!values.server || !values.package) {
  console.error('usage: capture-mcp.mjs --server <name> --package <npm spec with exact version>')
  process.exit(2)
}

const work = mkdtempSync(join(tmpdir(), 'dsh-tool-search-mcp-'))
try {
  writeFileSync(join(work, 'package.json'), '{"private":true}\n')
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', values.package], { cwd: work, stdio: 'inherit' })
  if (install.status !== 0) throw new Error(`npm install ${values.package} failed`)
  const name = values.package.replace(/(?<=.)@[^@]*$/, '')
  const dir = join(work, 'node_modules', name)
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const bins = typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : manifest.bin ?? {}
  const bin = Object.values(bins)[0]
  if (bin === undefined) throw new Error(`${name} declares no binary`)
  const { serverInfo, tools } = await listTools(process.execPath, [join(dir, bin)])
  const record = {
    source: {
      package: manifest.name,
      version: manifest.version,
      license: manifest.license,
      server: serverInfo,
      capturedWith: 'bench/capture-mcp.mjs (stdio: initialize, tools/list)',
    },
    tools,
  }
  const out = fileURLToPath(new URL(`../catalogs/mcp/${values.server}.json`, import.meta.url))
  writeFileSync(out, `${JSON.stringify(record, null, 2)}\n`)
  console.log(`${out}: ${tools.length} tools from ${manifest.name}@${manifest.version} (${manifest.license})`)
} finally {
  rmSync(work, { recursive: true, force: true })
}

/**
 * One stdio session: the server's identity and every page of its tool list.
 * @param {string} command
 * @param {string[]} args
 */
async function listTools(command, args) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] })
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
  const exited = new Promise((_, reject) => child.on('exit', (code) => reject(new Error(`server exited with ${code} before answering`))))
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
    child.kill()
  }
}
