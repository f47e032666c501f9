import { afterEach, describe, expect, it } from 'vitest'
import type { Context } from '@deepseek-ai/cordis'
import * as ToolSearch from '../../plugin/index.ts'
import { CORE_NAMES, DEFERRED_NAMES } from '../support/fixtures.ts'
import { createHarness, type Harness, NATIVE } from '../support/harness.ts'
import { reply, toolCall } from '../support/scripted-model.ts'

const WEATHER = 'mcp__weather__forecast'

let harness: Harness
afterEach(async () => { await harness.close() })

/** Live listeners of the two Agent-scoped events the plugin subscribes to per Agent. */
function listenerCounts(ctx: Context): { assemble: number; result: number } {
  const hooks = ctx.events._hooks
  return { assemble: hooks['system-prompt/assemble']?.length ?? 0, result: hooks['tools/result']?.length ?? 0 }
}

describe('Agent lifecycle', () => {
  it('adds two listeners per Agent and removes them when the Agent is disposed', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const base = listenerCounts(harness.ctx)
    const a = await harness.agent('a')
    const b = await harness.agent('b')
    expect(listenerCounts(harness.ctx)).toEqual({ assemble: base.assemble + 2, result: base.result + 2 })
    await a.dispose()
    expect(listenerCounts(harness.ctx)).toEqual({ assemble: base.assemble + 1, result: base.result + 1 })
    await b.dispose()
    expect(listenerCounts(harness.ctx)).toEqual(base)
    expect(harness.ctx.toolSearch.agents()).toEqual([])
  })

  it('forgets a disposed Agent: a new Agent under the same id starts from its own log', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const first = await harness.agent('a')
    await harness.run(first.agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast' }), reply('ok'))
    await first.dispose()
    const second = await harness.agent('a')
    await harness.run(second.agent, 'hi', reply('ok'))
    expect(harness.model.toolNames()).not.toContain(WEATHER)
  })

  it('unloading the plugin removes every listener it added to live Agents; reloading re-attaches them from their logs', async () => {
    harness = await createHarness({ plugin: false })
    const fiber = harness.ctx.plugin(ToolSearch, NATIVE)
    await fiber
    const { agent } = await harness.agent('a')
    const attached = listenerCounts(harness.ctx)
    await harness.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast' }), reply('ok'))

    await fiber.dispose()
    expect(listenerCounts(harness.ctx)).toEqual({ assemble: attached.assemble - 1, result: attached.result - 1 })
    await harness.run(agent, 'hi', reply('ok'))
    expect(harness.model.toolNames().sort()).toEqual([...CORE_NAMES, ...DEFERRED_NAMES, 'todo_write'].sort())

    await harness.ctx.plugin(ToolSearch, NATIVE)
    expect(listenerCounts(harness.ctx)).toEqual(attached)
    await harness.run(agent, 'hi', reply('ok'))
    expect(harness.model.toolNames().sort()).toEqual([...CORE_NAMES, 'todo_write', 'tool_search', WEATHER].sort())
  })
})
