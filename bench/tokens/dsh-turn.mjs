// One user turn of a real in-process DSH 0.1.0-rc.8, recorded on the wire. The model is DSH's own
// DeepSeek adapter (dsh-llm-deepseek) pointed at the profile E2E's scripted chat-completions
// endpoint on 127.0.0.1, so every request body is exactly what DSH would send a provider: the
// `tools` array is the adapter's `{type: 'function', function: {name, description, parameters}}`
// serialization of the assembly, after every prompt listener (this plugin's filter included).
// Catalog tools are registered through the real ToolRuntime; MCP catalogs go through DSH's real
// MCP bridge (dsh-mcp-client) talking to mcp-replay-server.mjs over stdio.
import { fileURLToPath } from 'node:url'
import { Context } from '@deepseek-ai/cordis'
import AgentRegistry from '@deepseek-ai/dsh-agent'
import AgentLoop from '@deepseek-ai/dsh-agent-loop'
import LlmRuntime, { createUserMessage } from '@deepseek-ai/dsh-llm'
import { DeepSeekAdapter, resolveAdapterOptions } from '@deepseek-ai/dsh-llm-deepseek'
import * as McpClient from '@deepseek-ai/dsh-mcp-client'
import SessionStore, { SessionId } from '@deepseek-ai/dsh-session'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { startModelServer } from '../../e2e/lib/model-server.mjs'

const PROVIDER = 'deepseek-official'
const REPLAY_SERVER = fileURLToPath(new URL('./mcp-replay-server.mjs', import.meta.url))

/** The built plugin, as the packed package ships it (`pnpm run build:plugin` makes dist/). */
async function loadPlugin() {
  try {
    return await import('../../dist/index.js')
  } catch (error) {
    throw new Error(`the built plugin (dist/index.js) cannot be loaded; run \`pnpm run build:plugin\` first: ${/** @type {Error} */ (error).message}`)
  }
}

/**
 * How the plugin's searches in these turns rank: its default `ranking` setting (the turns load it
 * with the default config), and for `auto` what the native core builds without options, hybrid
 * when the model package resolves. Read from the same built plugin and addon the turns use.
 * @returns {Promise<'lexical' | 'hybrid'>}
 */
export async function pluginRanking() {
  const [{ SETTINGS }, { ToolIndex }] = await Promise.all([import('../../dist/contract.js'), import('../../index.js')])
  const setting = /** @type {(typeof SETTINGS.ranking.choices)[number]} */ (SETTINGS.ranking.default)
  return setting === 'lexical' ? 'lexical' : ToolIndex.fromJson('[]').ranking
}

/**
 * Run one user turn and return the chat-completions bodies DSH sent for it.
 * With `query`, the model's first answer calls `tool_search` with it and its second ends the turn
 * (two requests); without, the first answer ends the turn (one request).
 * @param {object} setup
 * @param {Tool[]} [setup.tools] - registered as they are.
 * @param {{server: string, fixture: string}[]} [setup.mcp] - MCP fixtures, each bridged as `mcp__<server>__*`.
 * @param {boolean} setup.plugin - whether this plugin is loaded (default config, with `loading:
 *   native`: the benchmark counts the schemas a search adds to the next request).
 * @param {string} [setup.query] - the model's `tool_search` query.
 * @returns {Promise<import('../../e2e/lib/model-server.mjs').ChatRequest[]>} the request bodies, in order.
 * @typedef {import('../lib/catalogs.mjs').Tool} Tool
 */
export async function recordTurn({ tools = [], mcp = [], plugin, query }) {
  const server = await startModelServer((body) => {
    const searched = body.messages.some((/** @type {{role: string}} */ message) => message.role === 'tool')
    return query === undefined || searched
      ? { text: 'done' }
      : { toolCalls: [{ name: 'tool_search', arguments: { query } }] }
  })
  const ctx = new Context()
  const errors = /** @type {unknown[]} */ ([])
  try {
    await mountAgentRuntime(ctx)
    const connection = resolveAdapterOptions({ baseURL: server.baseUrl })
    ctx.llm.registerAdapter([PROVIDER], new DeepSeekAdapter({
      options: () => connection,
      resolveApiKey: () => Promise.resolve('scripted-model-needs-no-key'),
      resolveUserId: () => /** @type {import('@deepseek-ai/dsh-anonymous-user-id').AnonymousUserId} */ (/** @type {unknown} */ ('dsh-tool-search-benchmark')),
    }))
    for (const tool of tools) ctx.tools.register(catalogTool(tool))
    for (const { server: serverName, fixture } of mcp) {
      // The bridge's schema fills in env, cwd and the call timeout.
      await ctx.plugin(McpClient, /** @type {McpClient.Config} */ (/** @type {unknown} */ ({
        transport: 'stdio',
        serverName,
        command: process.execPath,
        args: [REPLAY_SERVER, fixture],
        failOnStartupError: true,
      })))
    }
    if (plugin) await ctx.plugin(await loadPlugin(), { loading: 'native' })
    ctx.on('agent/error', ({ error }) => { errors.push(error) })

    const { agent } = await ctx.agents.create({
      sessionId: SessionId('benchmark'),
      agentOptions: { provider: PROVIDER, model: 'deepseek-v4-flash' },
    })
    agent.followup(createUserMessage({ content: [{ type: 'text', text: 'Benchmark turn.' }], source: { kind: 'user' } }))
    await agent.whenIdle()
    const expected = query === undefined ? 1 : 2
    if (errors.length > 0) throw new Error(`the benchmark turn failed: ${String(errors[0])}`)
    if (server.failures.length > 0) throw new Error(`the scripted model failed: ${server.failures[0]?.message}`)
    if (server.agentRequests.length !== expected) throw new Error(`expected ${expected} model requests, DSH sent ${server.agentRequests.length}`)
    return server.agentRequests
  } finally {
    await ctx.fiber.dispose()
    await server.close()
  }
}

/**
 * DSH's runtime for Agents with native tools and no persona, as the benchmark's turns run on it;
 * the model adapter, the tools and the plugin are each caller's own.
 * @param {Context} ctx
 */
export async function mountAgentRuntime(ctx) {
  await ctx.plugin(LlmRuntime)
  await ctx.plugin(SessionStore)
  await ctx.plugin(SystemPrompt, { persona: '' })
  await ctx.plugin(ToolRuntime, { mode: 'native' })
  await ctx.plugin(AgentRegistry)
  await ctx.plugin(AgentLoop, { agents: [] })
}

/**
 * A registry definition carrying a catalog entry's name, description and schema unchanged.
 * @param {Tool} entry
 */
export function catalogTool({ name, description, parameters }) {
  return {
    name,
    description,
    parameters,
    output: { schema: {}, render: () => [] },
    execute: () => Promise.reject(new Error(`${name} is a benchmark catalog entry and never runs`)),
  }
}
