// `loading: stable` on the real DSH runtime: the request's tools never change while the Agent
// searches and runs what it found through call_tool, and a search result carries the found
// tools' definitions after the JSON that selects them.
import { describe, expect, it } from 'vitest'
import { CALL_TOOL_NAME } from '../../plugin/contract.ts'
import { selectionFromPayload } from '../../index.js'
import { replaySelection } from '../../plugin/selection/result.ts'
import { perTest } from '../support/per-test.ts'
import { reply, toolCall } from '../support/scripted-model.ts'
import { loggedBlocks, loggedDispatch, loggedResult } from '../support/session.ts'

const WEATHER = 'mcp__weather__forecast'
const GITHUB = 'mcp__github__create_issue'
const STABLE = { loading: 'stable' } as const

const t = perTest()

/** A `run_code` call whose program is `code`. */
function runCode(id: string, code: string) {
  return toolCall(id, 'run_code', { code, description: 'Run a program against the tools' })
}

/** The `tools:sdk` section's text in a rendered system prompt. */
function sdkOf(system: string): string {
  const start = system.indexOf('## Writing code for run_code')
  return start < 0 ? '' : system.slice(start, system.indexOf('\n```', system.indexOf('```ts', start) + 5))
}

/** Each request's `tools`, serialized as the adapter would send them. */
function toolBytes(requests: readonly { tools?: unknown }[]): string[] {
  return requests.map(request => JSON.stringify(request.tools))
}

describe('stable loading', () => {
  it('keeps every request\'s tools byte-identical through two searches and two found-tool calls', async () => {
    const h = await t.harness({ plugin: STABLE })
    const { agent } = await h.agent('a')
    await h.run(agent, 'weather, then an issue',
      toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }),
      toolCall('c2', CALL_TOOL_NAME, { name: WEATHER, arguments: { city: 'Oslo' } }),
      toolCall('c3', 'tool_search', { query: 'github issue', limit: 1 }),
      toolCall('c4', CALL_TOOL_NAME, { name: GITHUB, arguments: { repo: 'a/b', title: 'Bug' } }),
      reply('done'))
    const bytes = toolBytes(h.model.requests)
    expect(bytes).toHaveLength(5)
    expect(new Set(bytes).size).toBe(1)
    expect(h.model.toolNames()).toEqual(expect.arrayContaining(['tool_search', CALL_TOOL_NAME]))
    expect(h.model.toolNames()).not.toContain(WEATHER)
    expect(new Set(h.model.requests.map(request => request.system)).size).toBe(1)
    expect(h.log.calls).toEqual([{ name: WEATHER, args: { city: 'Oslo' } }, { name: GITHUB, args: { repo: 'a/b', title: 'Bug' } }])
    expect(loggedResult(agent, 'c2')).toEqual({ isError: false, text: `${WEATHER} ran` })
  })

  it('leaves a tool the Agent found out of later searches, unless it is asked for by name', async () => {
    const h = await t.harness({ plugin: STABLE })
    const { agent } = await h.agent('a')
    await h.run(agent, 'weather twice',
      toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }),
      toolCall('c2', 'tool_search', { query: 'weather forecast', limit: 3 }),
      toolCall('c3', 'tool_search', { query: WEATHER, limit: 1 }),
      reply('ok'))
    const names = (id: string) => (JSON.parse(loggedBlocks(agent, id)[0]!) as { tools: { name: string }[] }).tools.map(tool => tool.name)
    expect(names('c1')).toEqual([WEATHER])
    expect(names('c2')).not.toContain(WEATHER)
    expect(names('c3')).toEqual([WEATHER])
  })

  it('answers a search with the selecting JSON first and the definitions after it', async () => {
    const h = await t.harness({ plugin: STABLE })
    const { agent } = await h.agent('a')
    await h.run(agent, 'weather', toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }), reply('ok'))
    const [selection, definitions] = loggedBlocks(agent, 'c1')
    expect(JSON.parse(selection!)).toMatchObject({ schemaVersion: 1, loading: 'stable', tools: [{ name: WEATHER }] })
    expect(selectionFromPayload(selection!)).toEqual([WEATHER])
    expect(selectionFromPayload(definitions!)).toEqual([])
    expect(definitions).toContain(`## ${WEATHER}`)
    expect(definitions).toContain('arguments: {\n  city?: string // City name.')
    expect(definitions).toContain(CALL_TOOL_NAME)
  })
})

describe('stable loading in Code Mode', () => {
  it('keeps the SDK the same on every request; a search inside run_code returns TypeScript declarations, and run_code calls the found tool', async () => {
    const h = await t.harness({ plugin: STABLE, mode: 'code' })
    const { agent } = await h.agent('a')
    await h.run(agent, 'weather',
      runCode('r1', 'return await tools.tool_search({ query: "weather forecast", limit: 1 })'),
      runCode('r2', `return await tools[${JSON.stringify(WEATHER)}]({ city: "Oslo" })`),
      reply('done'))
    const sdks = h.model.requests.map(request => sdkOf(request.system ?? ''))
    expect(sdks[0]).toContain('tool_search')
    expect(new Set(sdks).size).toBe(1)
    expect(sdks[0]).not.toContain(WEATHER)
    expect(sdks[0]).not.toMatch(/^ {2}call_tool: /m)
    expect(new Set(h.model.requests.map(request => JSON.stringify(request.tools))).size).toBe(1)
    const found = loggedResult(agent, 'r1').text
    expect(found).toContain('run_code')
    expect(found).toContain(`tools.${WEATHER}(args: {`)
    expect(selectionFromPayload(loggedDispatch(agent, 'r1:code:1').text.split('Definitions')[0]!)).toEqual([WEATHER])
    expect(h.log.calls).toEqual([{ name: WEATHER, args: { city: 'Oslo' } }])
  })

  it('under both, offers call_tool natively and keeps it out of the SDK; tools and SDK stay the same', async () => {
    const h = await t.harness({ plugin: STABLE, mode: 'both' })
    const { agent } = await h.agent('a')
    await h.run(agent, 'weather',
      toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }),
      toolCall('c2', CALL_TOOL_NAME, { name: WEATHER, arguments: { city: 'Oslo' } }),
      reply('done'))
    expect(h.model.toolNames()).toContain(CALL_TOOL_NAME)
    expect(new Set(toolBytes(h.model.requests)).size).toBe(1)
    expect(new Set(h.model.requests.map(request => sdkOf(request.system ?? ''))).size).toBe(1)
    expect(sdkOf(h.model.system())).toMatch(/^ {2}tool_search: /m)
    expect(sdkOf(h.model.system())).not.toMatch(/^ {2}call_tool: /m)
    // Native calls run here, so the definitions are the ones call_tool takes.
    expect(loggedBlocks(agent, 'c1')[1]).toContain('arguments: {\n  city?: string')
    expect(h.log.calls).toEqual([{ name: WEATHER, args: { city: 'Oslo' } }])
  })
})

describe('prefetch under stable loading', () => {
  it('puts the prefetched definitions after the user\'s message and leaves the tools alone', async () => {
    const h = await t.harness({ plugin: { ...STABLE, prefetch: 3 } })
    const { agent } = await h.agent('a')
    await h.run(agent, 'What will the weather forecast be in Paris this week?',
      toolCall('c1', CALL_TOOL_NAME, { name: WEATHER, arguments: { city: 'Paris' } }),
      reply('sunny'))
    const [first] = h.model.requests
    expect(h.model.toolNames(first)).not.toContain(WEATHER)
    expect(new Set(toolBytes(h.model.requests)).size).toBe(1)
    const messages = first!.messages
    const asked = messages.findIndex(message => JSON.stringify(message.content).includes('weather forecast be in Paris'))
    const definitions = messages.findIndex(message => JSON.stringify(message.content).includes(`## ${WEATHER}`))
    expect(asked).toBeGreaterThanOrEqual(0)
    expect(definitions).toBeGreaterThan(asked)
    expect(messages[definitions]).toMatchObject({ role: 'user', source: { kind: 'plugin', plugin: 'dsh-tool-search' } })
    expect(h.log.calls).toEqual([{ name: WEATHER, args: { city: 'Paris' } }])

    // Asking again prefetches nothing the Agent has already found, so no definitions follow.
    await h.run(agent, 'And the weather forecast for Paris next week?', reply('bye'))
    expect(JSON.stringify(h.model.requests.at(-1)?.messages.at(-1))).not.toContain('Definitions of the found tools')
  })
})

describe('replay of old and new payloads', () => {
  it('selects from a stable session what the live Agent selected, and from a native log what it always did', async () => {
    const h = await t.harness({ plugin: STABLE })
    const { agent } = await h.agent('a')
    await h.run(agent, 'weather', toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }), reply('ok'))
    await h.run(agent, 'issue', toolCall('c2', 'tool_search', { query: `select:${GITHUB}` }), reply('ok'))
    expect(replaySelection(agent.session.events).selected).toEqual([WEATHER, GITHUB])
    expect(h.ctx.toolSearch.agents()[0]?.found).toEqual([WEATHER, GITHUB])

    const native = JSON.stringify({ schemaVersion: 1, query: 'q', tools: [{ name: WEATHER, description: 'd', score: 1 }] })
    const discover = JSON.stringify({ schemaVersion: 1, query: 'q', discover: true, tools: [{ name: GITHUB, description: 'd', score: 1, parameters: {} }] })
    const events = [
      { type: 'tool/call', data: { callId: 'x1', name: 'tool_search' } },
      { type: 'tool/result', data: { message: { content: [{ type: 'tool-result', toolCallId: 'x1', content: [{ type: 'text', text: native }] }] } } },
      { type: 'tool/call', data: { callId: 'x2', name: 'tool_search' } },
      { type: 'tool/result', data: { message: { content: [{ type: 'tool-result', toolCallId: 'x2', content: [{ type: 'text', text: discover }] }] } } },
    ]
    expect(replaySelection(events).selected).toEqual([WEATHER])
  })
})
