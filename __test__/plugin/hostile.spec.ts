// Hostile input through the real DSH pipeline, one test per class not already covered by
// tool.spec.ts (blank, over-long and non-string queries, out-of-range, fractional and string
// limits, arguments that are not JSON): each ends in a result or a clear error, and the Agent
// keeps running.
import { afterEach, describe, expect, it } from 'vitest'
import type { ToolDefinition } from '@deepseek-ai/dsh-tools'
import { fixtureTool } from '../support/fixtures.ts'
import { createHarness, type Harness } from '../support/harness.ts'
import { reply, toolCall, toolCalls } from '../support/scripted-model.ts'
import { foundNames, loggedResult } from '../support/session.ts'

let harness: Harness
afterEach(async () => { await harness.close() })

/** A tool registered with a raw JSON Schema, as an MCP bridge or another plugin may. */
function rawTool(name: string, description: string, parameters: Record<string, unknown>): ToolDefinition {
  return {
    name,
    description,
    parameters,
    output: { schema: { type: 'string' }, render: (_args: unknown, value: string) => [{ type: 'text', text: value }] },
    execute: () => Promise.resolve(`${name} ran`),
  } as unknown as ToolDefinition
}

/** A schema whose deepest description, `bottom`, is `levels` levels down. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'object', description: 'bottom' }
  for (let i = 1; i < levels; i += 1) schema = { type: 'object', properties: { layer: schema } }
  return schema
}

describe('hostile input through tool_search', () => {
  it('a huge limit is refused like any limit over 20', async () => {
    harness = await createHarness()
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'go',
      toolCalls(
        { id: 'safe', name: 'tool_search', args: { query: 'weather', limit: Number.MAX_SAFE_INTEGER } },
        { id: 'huge', name: 'tool_search', args: '{"query": "weather", "limit": 1e300}' },
        { id: 'negative', name: 'tool_search', args: { query: 'weather', limit: -3 } },
      ),
      reply('ok'))
    for (const id of ['safe', 'huge', 'negative']) {
      expect(loggedResult(agent, id)).toMatchObject({ isError: true, text: expect.stringMatching(/limit must be a whole number from 1 to 20|invalid arguments/) })
    }
    expect(harness.model.toolNames()).not.toContain('mcp__weather__forecast')
  })

  it('lone surrogates and control characters in a query are searched, not fatal', async () => {
    harness = await createHarness()
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'go',
      toolCalls(
        { id: 'surrogate', name: 'tool_search', args: { query: '\uD800weather\uDFFF forecast' } },
        { id: 'control', name: 'tool_search', args: { query: '\u0000github\u0007 issue\u001b' } },
      ),
      reply('ok'))
    expect(foundNames(loggedResult(agent, 'surrogate'))[0]).toBe('mcp__weather__forecast')
    expect(foundNames(loggedResult(agent, 'control'))[0]).toBe('mcp__github__create_issue')
    expect(harness.model.toolNames()).toEqual(expect.arrayContaining(['mcp__weather__forecast', 'mcp__github__create_issue']))
  })

  it('a tool name with a lone surrogate is found under U+FFFD and cannot be selected (no model API accepts such a name)', async () => {
    harness = await createHarness()
    harness.ctx.tools.register(fixtureTool({ name: 'mcp__odd__a\uD800b', description: 'Translate text between languages.' }))
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'go', toolCall('c1', 'tool_search', { query: 'translate text' }), reply('ok'))
    expect(foundNames(loggedResult(agent, 'c1'))[0]).toBe('mcp__odd__a\uFFFDb')
    expect(harness.model.toolNames()).not.toContain('mcp__odd__a\uD800b')
  })

  it('odd raw schemas from other plugins are indexed for what text they hold', async () => {
    harness = await createHarness()
    harness.ctx.tools.register(rawTool('mcp__odd__schema', 'Odd schema tool.', {
      type: 'object',
      properties: { a: { type: 'string', enum: ['alpha-value', 3, null] }, b: { anyOf: [{ type: 'string', description: 'spreadsheet cell' }, { type: 'null' }] }, c: { type: 'array', items: [{ title: 'tuple' }] } },
      description: 42,
    }))
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'go', toolCall('c1', 'tool_search', { query: 'spreadsheet cell' }), reply('ok'))
    expect(foundNames(loggedResult(agent, 'c1'))[0]).toBe('mcp__odd__schema')
  })

  it('a schema deeper than 32 levels: its first levels are searchable and one warning is logged, however often it is searched', async () => {
    harness = await createHarness()
    harness.ctx.tools.register(rawTool('mcp__deep__recursive', 'Recursive tree type.', nested(40)))
    const { agent: a } = await harness.agent('a')
    const { agent: b } = await harness.agent('b')
    await harness.run(a, 'go', toolCall('c1', 'tool_search', { query: 'layer tree' }), toolCall('c2', 'tool_search', { query: 'bottom' }), reply('ok'))
    await harness.run(b, 'go', toolCall('c1', 'tool_search', { query: 'recursive' }), reply('ok'))
    expect(foundNames(loggedResult(a, 'c1'))).toContain('mcp__deep__recursive')
    expect(foundNames(loggedResult(a, 'c2'))).not.toContain('mcp__deep__recursive')
    expect(harness.warnings.filter(w => w.includes('nests deeper than 32 levels'))).toEqual([
      'dsh-tool-search: the schema of "mcp__deep__recursive" nests deeper than 32 levels; its text below that depth is not searchable',
    ])
  })

  it('a huge catalog (1,000 tools with 20 KB descriptions) is searched, and results stay short', async () => {
    harness = await createHarness()
    const filler = 'Lorem ipsum dolor sit amet, '.repeat(730)
    for (let i = 0; i < 1000; i += 1) harness.ctx.tools.register(fixtureTool({ name: `mcp__bulk__tool_${i}`, description: `${filler} item ${i}` }))
    harness.ctx.tools.register(fixtureTool({ name: 'mcp__bulk__special', description: `${filler} quarterly revenue report` }))
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'go', toolCall('c1', 'tool_search', { query: 'quarterly revenue', limit: 20 }), reply('ok'))
    const result = loggedResult(agent, 'c1')
    expect(foundNames(result)[0]).toBe('mcp__bulk__special')
    expect(result.text.length).toBeLessThan(20 * 400)
  })
})
