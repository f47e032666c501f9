import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness, NATIVE } from '../support/harness.ts'
import { reply, toolCall } from '../support/scripted-model.ts'

let harness: Harness
afterEach(async () => { await harness.close() })

describe('ctx.toolSearch, the read-only view for the web settings page', () => {
  it('lists the catalog with each tool\'s policy, the settings, and per-Agent selection counts', async () => {
    harness = await createHarness({ plugin: { ...NATIVE, alwaysVisible: ['web_search'], neverSearch: ['mcp__postgres__query', 'tool_search'] } })
    const view = harness.ctx.toolSearch
    expect(view.settings()).toMatchObject({ defaultLimit: 5, alwaysVisible: ['web_search'], neverSearch: ['mcp__postgres__query'] })
    expect(view.catalog().map(({ name, policy }) => [name, policy])).toEqual([
      ['bash', 'core'],
      ['grep', 'core'],
      ['mcp__github__create_issue', 'deferred'],
      ['mcp__mail__send_email', 'deferred'],
      ['mcp__postgres__query', 'never'],
      ['mcp__weather__forecast', 'deferred'],
      ['read', 'core'],
      ['todo_write', 'core'],
      ['tool_search', 'search'],
      ['web_search', 'always'],
    ])
    expect(view.catalog().find(row => row.name === 'bash')?.description).toBe('Run a shell command in the workspace.')

    const { agent: a } = await harness.agent('a')
    await harness.agent('b')
    await harness.run(a, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast github issue', limit: 2 }), reply('ok'))
    const weighed = { offeredTokens: expect.any(Number), allTokens: expect.any(Number) }
    expect(view.agents()).toEqual([
      // Two requests, the second offering the two tools found: one change of the offered tools.
      { id: 'a', selected: 2, prefetched: 0, loading: 'native', found: expect.arrayContaining(['mcp__weather__forecast', 'mcp__github__create_issue']), ...weighed, cacheBreaks: 1 },
      { id: 'b', selected: 0, prefetched: 0, loading: 'native', found: [] },
    ])
  })

  it('under stable loading, an Agent that searches and runs what it found has changed no request\'s tools', async () => {
    harness = await createHarness({ plugin: { loading: 'stable' } })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'weather?',
      toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }),
      toolCall('c2', 'call_tool', { name: 'mcp__weather__forecast', arguments: { city: 'Oslo' } }),
      reply('ok'))
    expect(harness.ctx.toolSearch.agents()).toEqual([
      { id: 'a', selected: 1, prefetched: 0, loading: 'stable', found: ['mcp__weather__forecast'], offeredTokens: expect.any(Number), allTokens: expect.any(Number), cacheBreaks: 0 },
    ])
    expect(harness.ctx.toolSearch.catalog().find(row => row.name === 'call_tool')?.policy).toBe('search')
  })
})
