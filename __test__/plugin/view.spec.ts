import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../support/harness.ts'
import { reply, toolCall } from '../support/scripted-model.ts'

let harness: Harness
afterEach(async () => { await harness.close() })

describe('ctx.toolSearch, the read-only view for the web settings page', () => {
  it('lists the catalog with each tool\'s policy, the settings, and per-Agent selection counts', async () => {
    harness = await createHarness({ plugin: { alwaysVisible: ['web_search'], neverSearch: ['mcp__postgres__query', 'tool_search'] } })
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
    expect(view.agents()).toEqual([{ id: 'a', selected: 2, prefetched: 0 }, { id: 'b', selected: 0, prefetched: 0 }])
  })
})
