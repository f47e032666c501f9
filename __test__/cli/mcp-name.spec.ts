import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import * as McpClient from '@deepseek-ai/dsh-mcp-client'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { afterEach, describe, expect, it } from 'vitest'
import { bridgeRewrite, publicToolName } from '../../bin/cli/mcp-name.js'

const SERVER = join(import.meta.dirname, 'fixtures', 'mcp-server.mjs')

// Raw names around each edge of the rule, for a server named `srv` (prefix `mcp__srv__`, 10 chars).
const RAW_NAMES = [
  'create_issue',
  'kebab-case-tool',
  'files.read',
  'with space',
  'ünïcödé',
  'x'.repeat(54), // exactly 64 once prefixed
  'x'.repeat(55), // one too many
  'y'.repeat(80),
  'a.b'.repeat(30),
]

let ctx: Context | undefined
afterEach(async () => { await ctx?.fiber.dispose() })

describe('the MCP bridge name rule', () => {
  it('gives the names DSH\'s own MCP bridge registers', async () => {
    ctx = new Context()
    // The registry needs the system prompt service; the bridge needs only the registry.
    await ctx.plugin(SystemPrompt, { persona: '' })
    await ctx.plugin(ToolRuntime, { mode: 'native' })
    await ctx.plugin(McpClient, {
      transport: 'stdio',
      serverName: 'srv',
      command: process.execPath,
      args: [SERVER, JSON.stringify(RAW_NAMES)],
      env: {},
      cwd: '',
      toolCallTimeoutMs: 10_000,
      failOnStartupError: true,
    })
    const registered = ctx.tools.schemas().map(tool => tool.name).filter(name => name.startsWith('mcp__')).sort()
    expect(registered).toEqual(RAW_NAMES.map(raw => publicToolName('srv', raw)).sort())
  })

  it('reports a rewrite only when the bridge changes the name', () => {
    expect(bridgeRewrite('create_issue', 'srv')).toBeUndefined()
    expect(bridgeRewrite('x'.repeat(54), 'srv')).toBeUndefined()
    expect(bridgeRewrite('files.read', 'srv')).toEqual({
      written: 'mcp__srv__files.read',
      registered: publicToolName('srv', 'files.read'),
      reason: 'has characters outside [A-Za-z0-9_-]',
    })
    expect(bridgeRewrite('x'.repeat(55), 'srv')?.reason).toBe('is 65 characters long (the limit is 64)')
  })

  it('takes a qualified name apart, and checks any other name against the contract alone', () => {
    expect(bridgeRewrite('mcp__github__create_issue')).toBeUndefined()
    expect(bridgeRewrite('mcp__fs__read.file')?.registered).toBe(publicToolName('fs', 'read.file'))
    expect(bridgeRewrite('read_file')).toBeUndefined()
    expect(bridgeRewrite('read.file')).toEqual({ written: 'read.file', registered: undefined, reason: 'has characters outside [A-Za-z0-9_-]' })
  })
})
