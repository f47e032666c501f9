import type { StreamChunk } from '@deepseek-ai/dsh-llm'
import { defineTool } from '@deepseek-ai/dsh-tools'
import { afterEach, describe, expect, it } from 'vitest'
import type { Config } from '../../plugin/host/config.ts'
import { estimateToolTokens } from '../../plugin/offer/token-estimate.ts'
import { CORE_NAMES, DEFERRED_NAMES, fixtureTool } from '../support/fixtures.ts'
import { createHarness, type Harness, NATIVE } from '../support/harness.ts'
import { reply, toolCall } from '../support/scripted-model.ts'
import { changeSettings } from '../support/settings.ts'

let harness: Harness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})


/** The estimated tokens of the deferred fixtures' schemas, as `defer: auto` weighs them. */
function deferredSize(h: Harness): number {
  const deferred = new Set(DEFERRED_NAMES)
  return h.ctx.tools.schemas().filter(tool => deferred.has(tool.name)).reduce((sum, tool) => sum + estimateToolTokens(tool), 0)
}

/** Whether a request offered every fixture tool and not tool_search: nothing deferred. */
function offersEverything(names: readonly string[]): boolean {
  return [...CORE_NAMES, ...DEFERRED_NAMES].every(name => names.includes(name)) && !names.includes('tool_search')
}

/** Whether a request deferred the fixtures: tool_search and the core tools, no deferred one. */
function defers(names: readonly string[]): boolean {
  return names.includes('tool_search') && CORE_NAMES.every(name => names.includes(name)) && !DEFERRED_NAMES.some(name => names.includes(name))
}

describe('defer: auto', () => {
  it('offers every tool and not tool_search while the deferred schemas do not exceed the threshold, and defers above it', async () => {
    harness = await createHarness({ plugin: NATIVE, settings: true })
    const h = harness
    const size = deferredSize(h)
    expect(size).toBeGreaterThan(0)
    await changeSettings(h, { defer: 'auto', autoMinTokens: size })
    const { agent } = await h.agent('a')
    await h.run(agent, 'hi', reply('ok'))
    expect(offersEverything(h.model.toolNames())).toBe(true)

    await changeSettings(h, { defer: 'auto', autoMinTokens: size - 1 })
    await h.run(agent, 'hi again', reply('ok'))
    expect(defers(h.model.toolNames())).toBe(true)
  })

  it('counts the registry again when it changes, and switches only when the next user message starts a turn', async () => {
    harness = await createHarness({ plugin: NATIVE, settings: true })
    const h = harness
    await changeSettings(h, { defer: 'auto', autoMinTokens: deferredSize(h) })
    const { agent } = await h.agent('a')
    const extra = fixtureTool({ name: 'mcp__extra__lookup', description: 'Look a record up in the extra directory.', properties: { id: 'Record id.' } })
    await h.run(agent, 'go',
      // While the model answers the first step, a server adds a tool: the deferred schemas now
      // exceed the threshold.
      () => {
        h.ctx.tools.register(extra)
        return toolCall('c1', 'bash', { command: 'ls' }) as StreamChunk[]
      },
      reply('done'))
    const [first, second] = h.model.requests
    expect(offersEverything(h.model.toolNames(first))).toBe(true)
    // The same turn: nothing the model was offered is hidden, and the new tool is offered too.
    expect(offersEverything(h.model.toolNames(second))).toBe(true)
    expect(h.model.toolNames(second)).toContain('mcp__extra__lookup')

    await h.run(agent, 'next', reply('ok'))
    expect(defers(h.model.toolNames())).toBe(true)
    expect(h.model.toolNames()).not.toContain('mcp__extra__lookup')
  })

  it('applies a settings change within a turn from the next user message on, both ways', async () => {
    harness = await createHarness({ plugin: NATIVE, settings: true })
    const h = harness
    const size = deferredSize(h)
    let next: Partial<Config> = {}
    h.ctx.tools.register(defineTool({
      name: 'bash_settings',
      description: 'Test tool: writes the tool-search settings while a turn runs.',
      parameters: {},
      output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
      async execute() {
        await changeSettings(h, next)
        return 'written'
      },
    }))
    await changeSettings(h, { defer: 'always', alwaysVisible: ['bash_settings'] })
    const { agent } = await h.agent('a')

    next = { defer: 'auto', autoMinTokens: size, alwaysVisible: ['bash_settings'] }
    await h.run(agent, 'stop deferring', toolCall('c1', 'bash_settings', {}), reply('ok'))
    expect(h.model.requests.slice(0, 2).every(request => defers(h.model.toolNames(request)))).toBe(true)
    await h.run(agent, 'later', reply('ok'))
    expect(offersEverything(h.model.toolNames())).toBe(true)

    next = { defer: 'always', alwaysVisible: ['bash_settings'] }
    await h.run(agent, 'defer again', toolCall('c2', 'bash_settings', {}), reply('ok'))
    expect(h.model.requests.slice(3, 5).every(request => offersEverything(h.model.toolNames(request)))).toBe(true)
    await h.run(agent, 'later', reply('ok'))
    expect(defers(h.model.toolNames())).toBe(true)
  })

  it('prefetches by the turn\'s own decision: nothing while every tool is offered, and from the turn deferral starts', async () => {
    harness = await createHarness({ plugin: NATIVE, settings: true })
    const h = harness
    const size = deferredSize(h)
    await changeSettings(h, { defer: 'auto', autoMinTokens: size, prefetch: 1 })
    const { agent } = await h.agent('a')
    await h.run(agent, 'what is the weather forecast in Paris?', reply('ok'))
    expect(offersEverything(h.model.toolNames())).toBe(true)
    expect(h.ctx.toolSearch.agents()).toMatchObject([{ id: 'a', selected: 0, prefetched: 0 }])

    await changeSettings(h, { defer: 'auto', autoMinTokens: size - 1, prefetch: 1 })
    await h.run(agent, 'send an email to Bob', reply('ok'))
    const names = h.model.toolNames()
    expect(names).toContain('tool_search')
    expect(names.filter(name => DEFERRED_NAMES.includes(name))).toEqual(['mcp__mail__send_email'])
  })

  it('keeps the neverSearch names hidden while every other tool is offered', async () => {
    harness = await createHarness({ plugin: { ...NATIVE, defer: 'auto', autoMinTokens: 1_000_000, neverSearch: ['web_search'] } })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'hi', reply('ok'))
    const names = harness.model.toolNames()
    expect(names).toEqual(expect.arrayContaining(DEFERRED_NAMES.filter(name => name !== 'web_search')))
    expect(names).not.toContain('web_search')
    expect(names).not.toContain('tool_search')
  })

  it('declares every tool but tool_search in the Code Mode SDK while nothing is deferred', async () => {
    harness = await createHarness({ mode: 'code', plugin: { ...NATIVE, defer: 'auto', autoMinTokens: 1_000_000 } })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'hi', reply('ok'))
    const system = harness.model.system()
    for (const name of DEFERRED_NAMES) expect(system).toContain(`${name}: `)
    expect(system).not.toContain('tool_search')
  })
})

describe('defer: always', () => {
  it('defers whatever the size of the deferred schemas (the default)', async () => {
    harness = await createHarness({ plugin: { ...NATIVE, autoMinTokens: 1_000_000 } })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'hi', reply('ok'))
    expect(defers(harness.model.toolNames())).toBe(true)
  })
})
