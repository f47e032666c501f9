// `loading: stable` on the real DSH runtime: the request's tools never change while the Agent
// searches and runs what it found through call_tool, and a search result carries the found
// tools' definitions after the JSON that selects them.
import { describe, expect, it } from 'vitest'
import { CALL_TOOL_NAME } from '../../plugin/contract.ts'
import { selectionFromPayload } from '../../plugin/host/native.ts'
import { perTest } from '../support/per-test.ts'
import { reply, toolCall } from '../support/scripted-model.ts'
import { loggedBlocks, loggedResult } from '../support/session.ts'

const WEATHER = 'mcp__weather__forecast'
const GITHUB = 'mcp__github__create_issue'
const STABLE = { loading: 'stable' } as const

const t = perTest()

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

  it('answers a search with the selecting JSON first and the definitions after it', async () => {
    const h = await t.harness({ plugin: STABLE })
    const { agent } = await h.agent('a')
    await h.run(agent, 'weather', toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }), reply('ok'))
    const [selection, definitions] = loggedBlocks(agent, 'c1')
    expect(JSON.parse(selection!)).toMatchObject({ schemaVersion: 1, loading: 'stable', tools: [{ name: WEATHER }] })
    expect(selectionFromPayload(selection!)).toEqual([WEATHER])
    expect(selectionFromPayload(definitions!)).toEqual([])
    expect(definitions).toContain(`## ${WEATHER}`)
    expect(definitions).toContain('"city"')
    expect(definitions).toContain(CALL_TOOL_NAME)
  })
})
