import { afterEach, describe, expect, it, vi } from 'vitest'
import { fixtureTool } from '../support/fixtures.ts'
import { createHarness, type Harness, NATIVE } from '../support/harness.ts'
import { reply, toolCall } from '../support/scripted-model.ts'

// Count native index builds: the real ToolIndex, with `fromJson` observed.
const builds = vi.hoisted(() => ({ catalogs: [] as string[], outlines: 0 }))
vi.mock('../../index.js', async (importOriginal) => {
  const { observeIndexBuilds } = await import('../support/observed-native.ts')
  return observeIndexBuilds(await importOriginal(), (json, index) => {
    builds.catalogs.push(json)
    const outline = index.outline.bind(index)
    index.outline = (options) => {
      builds.outlines += 1
      return outline(options)
    }
  })
})

let harness: Harness
afterEach(async () => {
  await harness.close()
  builds.catalogs.length = 0
  builds.outlines = 0
})

const search = (id: string, query: string) => toolCall(id, 'tool_search', { query })

describe('native index caching', () => {
  it('builds one index for many searches and model calls, shared by Agents with the same catalog', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const { agent: a } = await harness.agent('a')
    await harness.run(a, 'go', search('c1', 'weather'), search('c2', 'github issue'), reply('ok'))
    const { agent: b } = await harness.agent('b')
    await harness.run(b, 'go', search('c1', 'send email'), reply('ok'))
    await harness.run(a, 'go', search('c3', 'postgres'), reply('ok'))
    expect(builds.catalogs).toHaveLength(1)
    // The catalog outline in tool_search's description is made once for both Agents.
    expect(builds.outlines).toBe(1)
  })

  it('builds again once after the registry changed, and only when the corpus content changed', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'go', search('c1', 'weather'), reply('ok'))
    // A registry change that leaves the corpus as it was: a tool registered and unregistered again.
    harness.ctx.tools.register(fixtureTool({ name: 'mcp__deepl__translate', description: 'Translate text.' }))()
    await harness.run(agent, 'go', search('c2', 'weather'), reply('ok'))
    expect(builds.catalogs).toHaveLength(1)

    harness.ctx.tools.register(fixtureTool({ name: 'mcp__deepl__translate', description: 'Translate text.' }))
    await harness.run(agent, 'go', search('c3', 'translate'), search('c4', 'weather'), reply('ok'))
    expect(builds.catalogs).toHaveLength(2)
    expect(builds.catalogs[1]).toContain('mcp__deepl__translate')
  })

  it('passes the catalog as one JSON array without tool_search or neverSearch tools', async () => {
    harness = await createHarness({ plugin: { ...NATIVE, neverSearch: ['mcp__postgres__query'] } })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'go', search('c1', 'weather'), reply('ok'))
    const catalog = JSON.parse(builds.catalogs[0] ?? '') as { name: string }[]
    const names = catalog.map(tool => tool.name)
    expect(names).toContain('mcp__weather__forecast')
    expect(names).toContain('bash')
    expect(names).not.toContain('tool_search')
    expect(names).not.toContain('mcp__postgres__query')
  })
})
