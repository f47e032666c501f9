import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness, NATIVE } from '../support/harness.ts'
import { reply, toolCall } from '../support/scripted-model.ts'
import { foundNames, loggedResult } from '../support/session.ts'

let harness: Harness
afterEach(async () => { await harness.close() })

const WEATHER = 'mcp__weather__forecast'
const GITHUB = 'mcp__github__create_issue'

describe('per-Agent selection', () => {
  it('is isolated between Agents', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const { agent: a } = await harness.agent('a')
    const { agent: b } = await harness.agent('b')
    await harness.run(a, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast' }), reply('ok'))
    await harness.run(b, 'issue?', toolCall('c1', 'tool_search', { query: 'github issue' }), reply('ok'))
    await harness.run(a, 'again', reply('ok'))

    const [, aAfterSearch, bFirst, bAfterSearch, aLater] = harness.model.requests
    expect(harness.model.toolNames(aAfterSearch)).toContain(WEATHER)
    expect(harness.model.toolNames(bFirst)).not.toContain(WEATHER)
    expect(harness.model.toolNames(bAfterSearch)).toContain(GITHUB)
    expect(harness.model.toolNames(bAfterSearch)).not.toContain(WEATHER)
    expect(harness.model.toolNames(aLater)).toContain(WEATHER)
    expect(harness.model.toolNames(aLater)).not.toContain(GITHUB)
  })

  it('only grows for the life of the Agent', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }), reply('ok'))
    await harness.run(agent, 'issue?', toolCall('c2', 'tool_search', { query: 'github issue', limit: 1 }), reply('ok'))
    await harness.run(agent, 'more', reply('ok'))
    expect(foundNames(loggedResult(agent, 'c2'))).toEqual([GITHUB])
    const last = harness.model.toolNames()
    expect(last).toContain(WEATHER)
    expect(last).toContain(GITHUB)
  })

  it('commits nothing when tools/post-execute blocks the result', async () => {
    harness = await createHarness({ plugin: NATIVE })
    harness.ctx.on('tools/post-execute', async (exec, _result, next) => exec.name === 'tool_search'
      ? { kind: 'block', feedback: [{ type: 'text', text: 'search is not allowed right now' }] }
      : next())
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast' }), reply('ok'))
    expect(loggedResult(agent, 'c1')).toEqual({ isError: true, text: 'search is not allowed right now' })
    expect(harness.model.toolNames()).not.toContain(WEATHER)
  })

  it('commits nothing from a failed search', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 99 }), reply('ok'))
    expect(loggedResult(agent, 'c1').isError).toBe(true)
    expect(harness.model.toolNames()).not.toContain(WEATHER)
  })

  it('persists the canonical payload when tools/post-execute rewrote the content, and still commits', async () => {
    harness = await createHarness({ plugin: NATIVE })
    harness.ctx.on('tools/post-execute', async (exec, _result, next) => exec.name === 'tool_search'
      ? { kind: 'accept', content: [{ type: 'text', text: 'a summary some policy preferred' }] }
      : next())
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast' }), reply('ok'))
    const logged = loggedResult(agent, 'c1')
    expect(logged.isError).toBe(false)
    expect(logged.text).toMatch(/^\{"schemaVersion":1,"query":"weather forecast","tools":\[\{"name":"mcp__weather__forecast",/)
    expect(harness.model.toolNames()).toContain(WEATHER)
  })

  it('commits and persists the final value when tools/post-execute replaced it', async () => {
    harness = await createHarness({ plugin: NATIVE })
    harness.ctx.on('tools/post-execute', async (exec, _result, next) => exec.name === 'tool_search'
      ? {
        kind: 'accept',
        // Same payload shape, keys in another order, a different tool.
        value: { tools: [{ score: 1, description: 'Create an issue.', name: GITHUB }], query: 'q', schemaVersion: 1 },
      }
      : next())
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast' }), reply('ok'))
    expect(loggedResult(agent, 'c1').text).toBe(JSON.stringify({
      schemaVersion: 1, query: 'q', tools: [{ name: GITHUB, description: 'Create an issue.', score: 1 }],
    }))
    expect(harness.model.toolNames()).toContain(GITHUB)
    expect(harness.model.toolNames()).not.toContain(WEATHER)
  })
})
