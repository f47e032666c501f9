import { afterEach, describe, expect, it } from 'vitest'
import { CORE_NAMES, DEFERRED_NAMES } from '../support/fixtures.ts'
import { createHarness, type Harness, NATIVE } from '../support/harness.ts'
import { reply, toolCall } from '../support/scripted-model.ts'
import { foundNames, loggedResult } from '../support/session.ts'

let harness: Harness
afterEach(async () => { await harness.close() })

/** The real dsh-tool-todo plugin registers `todo_write`, a core tool. */
const OFFERED_AT_START = [...CORE_NAMES, 'todo_write', 'tool_search'].sort()

describe('the tool surface an Agent is offered', () => {
  it('without the plugin every registered tool is offered (the baseline the other tests shrink)', async () => {
    harness = await createHarness({ plugin: false })
    const { agent } = await harness.agent('a1')
    await harness.run(agent, 'hi', reply('hello'))
    expect(harness.model.toolNames().sort()).toEqual([...CORE_NAMES, ...DEFERRED_NAMES, 'todo_write'].sort())
  })

  it('starts with the core tools and tool_search, and no deferred tool', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const { agent } = await harness.agent('a1')
    await harness.run(agent, 'hi', reply('hello'))
    expect(harness.model.toolNames().sort()).toEqual(OFFERED_AT_START)
  })

  it('offers the tools a search found on the very next request', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const { agent } = await harness.agent('a1')
    await harness.run(agent, 'what is the weather in Paris?',
      toolCall('c1', 'tool_search', { query: 'weather forecast for a city' }),
      reply('found it'))

    const [first, second] = harness.model.requests
    expect(harness.model.toolNames(first)).not.toContain('mcp__weather__forecast')
    expect(foundNames(loggedResult(agent, 'c1'))[0]).toBe('mcp__weather__forecast')
    expect(harness.model.toolNames(second).sort()).toEqual([...OFFERED_AT_START, 'mcp__weather__forecast'].sort())
  })

  it('hides the tool:<name> guidance of a deferred tool until it is found, and keeps family sections', async () => {
    harness = await createHarness({ plugin: NATIVE })
    harness.ctx.systemPrompt.section({ name: 'tool:mcp__weather__forecast', order: 150, text: 'WEATHER GUIDANCE' })
    harness.ctx.systemPrompt.section({ name: 'tool:bash', order: 150, text: 'BASH GUIDANCE' })
    // Named after no registered tool (like DSH's `tool:jobs`): no provenance, so it stays.
    harness.ctx.systemPrompt.section({ name: 'tool:jobs', order: 150, text: 'JOBS GUIDANCE' })
    const { agent } = await harness.agent('a1')
    await harness.run(agent, 'weather?',
      toolCall('c1', 'tool_search', { query: 'weather forecast' }),
      reply('ok'))

    const [first, second] = harness.model.requests
    expect(harness.model.system(first)).not.toContain('WEATHER GUIDANCE')
    expect(harness.model.system(first)).toContain('BASH GUIDANCE')
    expect(harness.model.system(first)).toContain('JOBS GUIDANCE')
    expect(harness.model.system(second)).toContain('WEATHER GUIDANCE')
  })

  it('spends result slots on tools the Agent cannot call yet', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const { agent } = await harness.agent('a1')
    // "search" matches grep (core, callable), web_search (deferred) and more.
    await harness.run(agent, 'look things up',
      toolCall('c1', 'tool_search', { query: 'search', limit: 20 }),
      reply('ok'))
    const found = foundNames(loggedResult(agent, 'c1'))
    expect(found).toContain('web_search')
    expect(found.filter(name => OFFERED_AT_START.includes(name))).toEqual([])
  })

  it('answers an exact-name query for an already callable tool with that tool first', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const { agent } = await harness.agent('a1')
    await harness.run(agent, 'is grep there?',
      toolCall('c1', 'tool_search', { query: 'grep' }),
      reply('yes'))
    expect(foundNames(loggedResult(agent, 'c1'))[0]).toBe('grep')
  })
})
