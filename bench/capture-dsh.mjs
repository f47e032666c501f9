#!/usr/bin/env node
// Records the tools DSH itself offers the model, so the benchmark can measure DSH's own catalog
// offline. Runs the installed `dsh --profile headless` (the devDependency, no plugins added) in a
// fresh DSH_HOME against the scripted model endpoint of the profile E2E, and keeps the `tools`
// array of the first agent request: exactly what DSH's DeepSeek adapter put on the wire. Writes
// catalogs/dsh/headless-tools.json as `{source, tools: [{name, description, parameters}]}`
// (the `function` part of each wire entry, in the order DSH sent them).
//
//   node bench/capture-dsh.mjs
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HMR_PATCH } from '../e2e/lib/dsh-install.mjs'
import { startModelServer } from '../e2e/lib/model-server.mjs'
import { repoPath } from './lib/repo.mjs'

const dsh = JSON.parse(readFileSync(repoPath('node_modules/@deepseek-ai/dsh/package.json'), 'utf8'))
const home = mkdtempSync(join(tmpdir(), 'dsh-tool-search-capture-'))
const server = await startModelServer(() => ({ text: 'done' }))
try {
  const patch = join(home, 'hmr-on.yml')
  writeFileSync(patch, HMR_PATCH)
  const child = spawn(repoPath('node_modules/.bin/dsh'), ['--profile', 'headless', '--patch', patch, 'hello'], {
    env: {
      ...process.env,
      DSH_HOME: home,
      DSH_TELEMETRY_DISABLED: '1',
      DEEPSEEK_BASE_URL: server.baseUrl,
      DEEPSEEK_API_KEY: 'scripted-model-needs-no-key',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const code = await new Promise((resolve) => child.on('exit', resolve))
  const request = server.agentRequests[0]
  if (code !== 0 || request === undefined) throw new Error(`dsh exited with ${code} after ${server.agentRequests.length} agent requests`)
  const record = {
    source: {
      package: dsh.name,
      version: dsh.version,
      license: dsh.license,
      profile: 'headless',
      capturedWith: 'bench/capture-dsh.mjs (tools of the first chat-completions request)',
    },
    tools: request.tools.map((/** @type {{function: object}} */ entry) => entry.function),
  }
  const out = repoPath('catalogs/dsh/headless-tools.json')
  writeFileSync(out, `${JSON.stringify(record, null, 2)}\n`)
  console.log(`${out}: ${record.tools.length} tools from ${dsh.name}@${dsh.version} --profile headless`)
} finally {
  await server.close()
  rmSync(home, { recursive: true, force: true })
}
