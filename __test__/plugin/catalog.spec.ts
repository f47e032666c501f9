import { afterEach, describe, expect, it } from 'vitest'
import { fixtureTool } from '../support/fixtures.ts'
import { createHarness, type Harness, NATIVE } from '../support/harness.ts'
import { reply, toolCall } from '../support/scripted-model.ts'
import { foundNames, loggedResult } from '../support/session.ts'

let harness: Harness
afterEach(async () => { await harness.close() })

const TRANSLATE = { name: 'mcp__deepl__translate', description: 'Translate text into another language.' }

describe('the search catalog', () => {
  it('follows registry changes: a tool registered later is found, an unregistered one is not', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'translate', toolCall('c1', 'tool_search', { query: 'translate text' }), reply('none'))
    expect(foundNames(loggedResult(agent, 'c1'))).not.toContain(TRANSLATE.name)

    const unregister = harness.ctx.tools.register(fixtureTool(TRANSLATE))
    await harness.run(agent, 'translate', toolCall('c2', 'tool_search', { query: 'translate text' }), reply('found'))
    expect(foundNames(loggedResult(agent, 'c2'))[0]).toBe(TRANSLATE.name)

    unregister()
    await harness.run(agent, 'translate', toolCall('c3', 'tool_search', { query: 'translate text' }), reply('gone'))
    expect(foundNames(loggedResult(agent, 'c3'))).not.toContain(TRANSLATE.name)
    // Selected but no longer registered: nothing to offer.
    expect(harness.model.toolNames()).not.toContain(TRANSLATE.name)
  })

  it('searches the tools of the Agent\'s own scope', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const { agent: a } = await harness.agent('a', {
      setup: (agentCtx) => { agentCtx.tools.register(fixtureTool(TRANSLATE)) },
    })
    const { agent: b } = await harness.agent('b')
    await harness.run(a, 'translate', toolCall('c1', 'tool_search', { query: 'translate text' }), reply('ok'))
    await harness.run(b, 'translate', toolCall('c1', 'tool_search', { query: 'translate text' }), reply('ok'))
    expect(foundNames(loggedResult(a, 'c1'))[0]).toBe(TRANSLATE.name)
    expect(foundNames(loggedResult(b, 'c1'))).not.toContain(TRANSLATE.name)
  })

  it('leaves out a tool whose schema cannot be serialized, with a warning, and keeps the rest searchable', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const broken = fixtureTool({ name: 'mcp__broken__tool', description: 'Forecast tool with a broken schema.' })
    // A BigInt survives DSH's structuredClone of the assembly but not JSON.
    harness.ctx.tools.register({ ...broken, parameters: { type: 'object', properties: { n: { default: 10n } } } as never })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'forecast' }), reply('ok'))

    const result = loggedResult(agent, 'c1')
    expect(result.isError).toBe(false)
    expect(foundNames(result)).toEqual(['mcp__weather__forecast'])
    expect(harness.warnings.filter(warning => warning.includes('mcp__broken__tool'))).toHaveLength(1)
  })
})
