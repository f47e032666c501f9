#!/usr/bin/env node
// Captures the CLI's embedded default catalog (bin/catalogs/) from real software, once:
//
// - dsh.json: the tools DSH offers the model, taken from the first chat-completions request the
//   repo's own @deepseek-ai/dsh (devDependency) sends to a scripted model in a fresh headless
//   profile, native mode.
// - mcp-github.json: the `tools/list` result of the GitHub MCP server from npm, under the names
//   DSH's MCP bridge registers for a server named `github`.
//
//   node scripts/capture-cli-catalogs.mjs
//
// Needs the repo's node_modules and the npm registry. Rerun only to move to another DSH or
// server version, and update the versions below and the README's sample output with it.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { publicToolName } from '../bin/cli/mcp-name.js'
import { HMR_PATCH } from './e2e/dsh-install.mjs'
import { startModelServer } from './e2e/model-server.mjs'
import { runOk } from './e2e/processes.mjs'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const OUT = join(REPO, 'bin', 'catalogs')
const GITHUB_SERVER = { name: '@modelcontextprotocol/server-github', version: '2025.4.8', serverName: 'github' }

const scratch = mkdtempSync(join(tmpdir(), 'dsh-tool-search-capture-'))
try {
  await captureDsh()
  await captureGithub()
} finally {
  rmSync(scratch, { recursive: true, force: true })
}

async function captureDsh() {
  const dsh = join(REPO, 'node_modules', '.bin', 'dsh')
  const { stdout: version } = await runOk(dsh, ['--version'])
  const patch = join(scratch, 'hmr-on.yml')
  writeFileSync(patch, HMR_PATCH)
  const server = await startModelServer(() => ({ text: 'done' }))
  try {
    const env = { ...process.env, DSH_HOME: join(scratch, 'home'), DSH_TELEMETRY_DISABLED: '1', DEEPSEEK_BASE_URL: server.baseUrl, DEEPSEEK_API_KEY: 'scripted' }
    delete env.DSH_TOOLS_MODE
    await runOk(dsh, ['--profile', 'headless', '--patch', patch, 'hello'], { cwd: scratch, env, timeoutMs: 300_000 })
  } finally {
    await server.close()
  }
  const tools = server.agentRequests[0]?.tools
  if (!Array.isArray(tools) || tools.length === 0) throw new Error('dsh sent no tools to the scripted model')
  write('dsh.json', {
    source: `The tools DeepSeek Harness (@deepseek-ai/dsh ${version.trim()}, MIT) offers the model: the "tools" of its first chat-completions request in a fresh headless profile, native mode, on ${process.platform}. Captured by scripts/capture-cli-catalogs.mjs.`,
    tools,
  })
}

async function captureGithub() {
  const { name, version, serverName } = GITHUB_SERVER
  const dir = join(scratch, 'github')
  await runOk('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', `${name}@${version}`], { timeoutMs: 300_000 })
  const entry = join(dir, 'node_modules', name, 'dist', 'index.js')
  const { serverInfo, tools } = await listTools(entry)
  write('mcp-github.json', {
    source: `tools/list of the GitHub MCP server (${name} ${version}, MIT, Anthropic, PBC; server "${serverInfo.name}" ${serverInfo.version}), named as DSH's MCP bridge registers them for serverName "${serverName}". Captured by scripts/capture-cli-catalogs.mjs.`,
    tools: tools.map((tool) => ({ ...tool, name: publicToolName(serverName, tool.name) })),
  })
}

/** `initialize` then `tools/list` over stdio (newline-delimited JSON-RPC), then stop the server. */
async function listTools(entry) {
  // The server only lists tools; it never calls GitHub here, but refuses to start without a token.
  const child = spawn(process.execPath, [entry], { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, GITHUB_PERSONAL_ACCESS_TOKEN: 'unused' } })
  const waiting = new Map()
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line)
    waiting.get(message.id)?.(message)
  })
  let id = 0
  const request = (method, params) => new Promise((settle, reject) => {
    waiting.set(++id, (message) => message.error ? reject(new Error(`${method}: ${message.error.message}`)) : settle(message.result))
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n')
  })
  try {
    const { serverInfo } = await request('initialize', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'dsh-tool-search-capture', version: '0' } })
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n')
    const { tools } = await request('tools/list', {})
    return { serverInfo, tools }
  } finally {
    child.kill()
  }
}

function write(file, catalog) {
  writeFileSync(join(OUT, file), JSON.stringify(catalog, null, 2) + '\n')
  process.stderr.write(`wrote bin/catalogs/${file}: ${catalog.tools.length} tools\n`)
}
