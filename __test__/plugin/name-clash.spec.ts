import { afterEach, describe, expect, it } from 'vitest'
import { CORE_NAMES, DEFERRED_NAMES, fixtureTool } from '../support/fixtures.ts'
import { createHarness, type Harness } from '../support/harness.ts'
import { reply } from '../support/scripted-model.ts'

let harness: Harness
afterEach(async () => { await harness.close() })

describe('another plugin owning the name tool_search', () => {
  it('does not stop DSH: the plugin steps aside, says why, offers every tool, and takes over once the name is free', async () => {
    harness = await createHarness({ plugin: false })
    const foreign = harness.ctx.tools.register(fixtureTool({ name: 'tool_search', description: 'Someone else\'s search.' }))
    const errors: string[] = []
    harness.ctx.logger.exporter({ levels: { default: 3 }, export: (message) => {
      if (message.type === 'error') errors.push(message.args.map(String).join(' '))
    } })
    await harness.ctx.plugin(await import('../../plugin/index.ts'), {})

    const { agent } = await harness.agent('a1')
    await harness.run(agent, 'hi', reply('hello'))
    expect(errors.filter((line) => line.includes('cannot register tool_search'))).toHaveLength(1)
    expect(harness.model.toolNames().sort()).toEqual([...CORE_NAMES, ...DEFERRED_NAMES, 'todo_write', 'tool_search'].sort())

    foreign()
    await harness.run(agent, 'again', reply('hello'))
    const last = harness.model.toolNames(harness.model.requests.at(-1))
    expect(last).toContain('tool_search')
    expect(last.filter((name) => DEFERRED_NAMES.includes(name))).toEqual([])
  })
})
