// Hostile input through the real DSH pipeline, one test per class not already covered by
// tool.spec.ts (blank, over-long and non-string queries, out-of-range, fractional and string
// limits, arguments that are not JSON): each ends in a result or a clear error, and the Agent
// keeps running. The second half gives every path from DSH into the native core hostile lengths
// and types: tool_search's arguments (model-direct and from a run_code program), the registry the
// index is built from, the settings lists that become exclusions, a result another plugin
// replaced, and the session events replay reads.
import { setImmediate as macrotask } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import type { ToolDefinition } from '@deepseek-ai/dsh-tools'
import * as ToolSearch from '../../plugin/index.ts'
import { TOOL_SEARCH_SETTINGS_NAMESPACE } from '../../plugin/host/settings.ts'
import { fixtureTool } from '../support/fixtures.ts'
import { createHarness, type Harness, NATIVE } from '../support/harness.ts'
import { reply, toolCall, toolCalls } from '../support/scripted-model.ts'
import { foundNames, loggedDispatch, loggedResult } from '../support/session.ts'

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
    harness = await createHarness({ plugin: NATIVE })
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
    harness = await createHarness({ plugin: NATIVE })
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
    harness = await createHarness({ plugin: NATIVE })
    harness.ctx.tools.register(fixtureTool({ name: 'mcp__odd__a\uD800b', description: 'Translate text between languages.' }))
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'go', toolCall('c1', 'tool_search', { query: 'translate text' }), reply('ok'))
    expect(foundNames(loggedResult(agent, 'c1'))[0]).toBe('mcp__odd__a\uFFFDb')
    expect(harness.model.toolNames()).not.toContain('mcp__odd__a\uD800b')
  })

  it('odd raw schemas from other plugins are indexed for what text they hold', async () => {
    harness = await createHarness({ plugin: NATIVE })
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
    harness = await createHarness({ plugin: NATIVE })
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
    harness = await createHarness({ plugin: NATIVE })
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

describe('hostile lengths and types on every path from DSH into the native core', () => {
  it('every tool_search argument: huge strings, odd numbers, arrays and objects where a string or a number goes', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const { agent } = await harness.agent('a')
    const invalid = /^Error: invalid arguments: /
    const cases: Record<string, { args: unknown; error: RegExp }> = {
      megabyteQuery: { args: { query: 'weather '.repeat(200_000) }, error: /query is longer than 4096 characters/ },
      astralQuery: { args: { query: '🌦'.repeat(4097) }, error: /query is longer than 4096 characters/ },
      arrayQuery: { args: { query: ['weather'] }, error: invalid },
      objectQuery: { args: { query: { text: 'weather' } }, error: invalid },
      nullQuery: { args: { query: null }, error: invalid },
      deepQuery: { args: `{"query":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, error: invalid },
      arrayLimit: { args: { query: 'weather', limit: [5] }, error: invalid },
      objectLimit: { args: { query: 'weather', limit: { n: 5 } }, error: invalid },
      booleanLimit: { args: { query: 'weather', limit: true }, error: invalid },
      nullLimit: { args: { query: 'weather', limit: null }, error: invalid },
      tinyLimit: { args: '{"query":"weather","limit":1e-300}', error: invalid },
      negativeZero: { args: '{"query":"weather","limit":-0}', error: /arguments must be losslessly JSON-serializable/ },
      pastSafeLimit: { args: { query: 'weather', limit: 2 ** 60 }, error: /limit must be a whole number from 1 to 20, got 1152921504606847000$/ },
      arrayArguments: { args: '["weather"]', error: invalid },
      stringArguments: { args: '"weather"', error: invalid },
      nullArguments: { args: 'null', error: invalid },
    }
    await harness.run(agent, 'try everything',
      toolCalls(...Object.entries(cases).map(([id, { args }]) => ({ id, name: 'tool_search', args }))),
      reply('done'))
    for (const [id, { error }] of Object.entries(cases)) {
      expect({ id, ...loggedResult(agent, id) }).toMatchObject({ id, isError: true, text: expect.stringMatching(error) })
    }
    expect(harness.model.toolNames()).not.toContain('mcp__weather__forecast')
  })

  it('arguments a run_code program passes: each call fails on its own, the program catches it, and runs on', async () => {
    harness = await createHarness({ plugin: NATIVE, mode: 'code' })
    const { agent } = await harness.agent('a')
    const hostile = ['"weather"', 'undefined', '{ query: "x".repeat(5_000_000) }', '{ query: ["weather"] }', '{ query: "weather", limit: 2 ** 60 }', '{ query: "weather", limit: [1] }', '{ query: { a: 1 } }']
    const program = `const errors = []
for (const args of [${hostile.join(', ')}]) {
  try { await tools.tool_search(args); errors.push('returned') } catch (error) { errors.push(String(error.message ?? error).slice(0, 80)) }
}
return errors`
    await harness.run(agent, 'search badly', toolCall('c1', 'run_code', { code: program, description: 'Hostile searches' }), reply('ok'))
    const result = loggedResult(agent, 'c1')
    expect(result.isError).toBe(false)
    expect(JSON.parse(result.text)).toEqual([
      expect.stringMatching(/invalid arguments: "arguments" must be an object/),
      // Refused by DSH's code runtime before any dispatch.
      expect.stringMatching(/arguments must be lossless JSON/),
      expect.stringMatching(/query is longer than 4096 characters/),
      expect.stringMatching(/invalid arguments: "query" must be a string/),
      expect.stringMatching(/limit must be a whole number from 1 to 20/),
      expect.stringMatching(/invalid arguments: "limit" must be an integer/),
      expect.stringMatching(/invalid arguments: "query" must be a string/),
    ])
    for (let call = 1; call < hostile.length; call += 1) expect(loggedDispatch(agent, `c1:code:${call}`).isError).toBe(true)
  })

  it('a registered name longer than the core takes in an exclude list, once found, leaves later searches working', async () => {
    const long = `mcp__odd__${'n'.repeat(2000)}`
    harness = await createHarness({ plugin: { ...NATIVE, alwaysVisible: [`mcp__also__${'v'.repeat(5000)}`] } })
    harness.ctx.tools.register(fixtureTool({ name: long, description: 'Translate text between languages.' }))
    harness.ctx.tools.register(fixtureTool({ name: `mcp__also__${'v'.repeat(5000)}`, description: 'Always offered, oddly named.' }))
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'go',
      toolCall('c1', 'tool_search', { query: 'translate text' }),
      toolCall('c2', 'tool_search', { query: 'weather forecast' }),
      reply('ok'))
    expect(foundNames(loggedResult(agent, 'c1'))[0]).toBe(long)
    expect(loggedResult(agent, 'c2').isError).toBe(false)
    expect(foundNames(loggedResult(agent, 'c2'))[0]).toBe('mcp__weather__forecast')
  })

  it('registry text of hostile sizes and types: a 5 MB description, a 50,000-value enum, non-string descriptions', async () => {
    harness = await createHarness({ plugin: NATIVE })
    harness.ctx.tools.register(fixtureTool({ name: 'mcp__big__essay', description: `${'filler words '.repeat(400_000)} lighthouse keeper` }))
    harness.ctx.tools.register(rawTool('mcp__big__enum', 'Pick a code.', { type: 'object', properties: { code: { type: 'string', enum: Array.from({ length: 50_000 }, (_, i) => `value${i}`) } } }))
    for (const [i, description] of [42, { text: 'object' }, ['array'], null].entries()) {
      harness.ctx.tools.register({ ...rawTool(`mcp__odd__description_${i}`, '', { type: 'object' }), description } as unknown as ToolDefinition)
    }
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'go',
      toolCall('c1', 'tool_search', { query: 'lighthouse keeper' }),
      toolCall('c2', 'tool_search', { query: 'value49999' }),
      toolCall('c3', 'tool_search', { query: 'description' }),
      reply('ok'))
    // Two words among 800,000 are a weak match: shown as a candidate rather than loaded.
    const essay = JSON.parse(loggedResult(agent, 'c1').text) as { tools: { name: string }[]; candidates?: { name: string }[] }
    // (Tools with no description may fill the page above it by meaning alone.)
    expect(essay.tools).toEqual([])
    expect((essay.candidates ?? []).map(hit => hit.name)).toContain('mcp__big__essay')
    // The enum's last value is indexed (a tool described only by a number may rank above it by meaning).
    expect(foundNames(loggedResult(agent, 'c2'))).toContain('mcp__big__enum')
    expect(loggedResult(agent, 'c3').isError).toBe(false)
  })

  it('settings lists of hostile lengths (20,000 names, a megabyte name) become exclusions the core takes', async () => {
    harness = await createHarness({ plugin: NATIVE, settings: true })
    const many = Array.from({ length: 20_000 }, (_, i) => `mcp__gone__tool_${i}`)
    await harness.ctx.settings.replace(TOOL_SEARCH_SETTINGS_NAMESPACE, { alwaysVisible: [...many, 'm'.repeat(1_000_000), 'web_search'], neverSearch: [...many.slice(0, 5000), 'mcp__postgres__query'] })
    await macrotask()
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'go', toolCall('c1', 'tool_search', { query: 'weather forecast' }), toolCall('c2', 'tool_search', { query: 'sql query postgres' }), reply('ok'))
    expect(foundNames(loggedResult(agent, 'c1'))[0]).toBe('mcp__weather__forecast')
    expect(foundNames(loggedResult(agent, 'c2'))).not.toContain('mcp__postgres__query')
    expect(harness.model.toolNames()).toContain('web_search')
  })

  it('a result another plugin replaced with a huge payload: committed within bounds, and the Agent searches on', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const names = [...Array.from({ length: 50_000 }, (_, i) => `mcp__fake__tool_${i}`), 'x'.repeat(1_000_000), 'mcp__github__create_issue']
    harness.ctx.on('tools/post-execute', async (exec, _result, next) => exec.name === 'tool_search' && exec.callId === 'c1'
      ? { kind: 'accept', value: { schemaVersion: 1, query: 'q'.repeat(1_000_000), tools: names.map(name => ({ name, description: 'd', score: 1 })) } }
      : next())
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'go', toolCall('c1', 'tool_search', { query: 'anything' }), toolCall('c2', 'tool_search', { query: 'weather forecast' }), reply('ok'))
    expect(loggedResult(agent, 'c1').isError).toBe(false)
    expect(foundNames(loggedResult(agent, 'c2'))[0]).toBe('mcp__weather__forecast')
    // Of the names it carried, only the registered one is offered.
    expect(harness.model.toolNames()).toContain('mcp__github__create_issue')
    expect(harness.model.toolNames().filter(name => name.startsWith('mcp__fake__'))).toEqual([])
  })

  it('session events of hostile lengths and types, replayed when the plugin attaches: the Agent starts with what they select', async () => {
    harness = await createHarness({ plugin: false })
    const { agent } = await harness.agent('a')
    const payload = (tools: string[]) => JSON.stringify({ schemaVersion: 1, query: 'q', tools: tools.map(name => ({ name, description: '', score: 1 })) })
    const dispatch = (subCallId: string, content: unknown) => ({ parentCallId: 'p', subCallId, name: 'tool_search', arguments: {}, isError: false, content })
    const odd: [string, unknown][] = [
      ['tool/call', { callId: 'c'.repeat(1_000_000), name: 'tool_search', arguments: {} }],
      ['tool/call', { callId: { id: 1 }, name: ['tool_search'], arguments: 'x'.repeat(1_000_000) }],
      ['tool/code-dispatch', dispatch('s1', [{ type: 'text', text: 'y'.repeat(5_000_000) }])],
      ['tool/code-dispatch', dispatch('s2', 'not a list')],
      ['tool/code-dispatch', dispatch('s3', [{ type: 'text', text: payload(['z'.repeat(2_000_000), 'mcp__mail__send_email']) }])],
      ...Array.from({ length: 20_000 }, (_, i): [string, unknown] => ['tool/call', { callId: `bulk${i}`, name: 'tool_search', arguments: {} }]),
    ]
    // `append` takes any type; its typed overloads name DSH's own event shapes.
    const session = agent.session as unknown as { append(type: string, data: unknown): void }
    for (const [type, data] of odd) session.append(type, data)
    await harness.ctx.plugin(ToolSearch, NATIVE)
    await harness.run(agent, 'hi', reply('ok'))
    expect(harness.model.toolNames()).toContain('mcp__mail__send_email')
    expect(harness.model.toolNames()).not.toContain('mcp__weather__forecast')
    await harness.run(agent, 'search', toolCall('c1', 'tool_search', { query: 'weather forecast' }), reply('ok'))
    expect(foundNames(loggedResult(agent, 'c1'))[0]).toBe('mcp__weather__forecast')
  })
})
