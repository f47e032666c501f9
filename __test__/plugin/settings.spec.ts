import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import FileSettingsProvider from '@deepseek-ai/dsh-settings-file'
import { afterEach, describe, expect, it } from 'vitest'
import { PlainConfig as Config, normalizeSettings } from '../../plugin/host/config.ts'
import { TOOL_SEARCH_SETTINGS_NAMESPACE } from '../../plugin/host/settings.ts'
import { createHarness, tempDir, type Harness, NATIVE } from '../support/harness.ts'
import { reply, toolCall } from '../support/scripted-model.ts'
import { foundNames, loggedResult } from '../support/session.ts'
import { changeSettings, limitDescription } from '../support/settings.ts'

const WEATHER = 'mcp__weather__forecast'

let harness: Harness | undefined
afterEach(async () => {
  await harness?.close()
  harness = undefined
})


describe('settings normalization', () => {
  it('trims, de-duplicates and sorts names, and never lets tool_search be blocked', () => {
    expect(normalizeSettings({
      defaultLimit: 7,
      alwaysVisible: [' web_search', 'web_search', '', 'b_tool', '  '],
      neverSearch: ['tool_search', ' z', 'a ', 'a'],
    })).toMatchObject({ defaultLimit: 7, alwaysVisible: ['b_tool', 'web_search'], neverSearch: ['a', 'z'] })
  })

  it('fills defaults and rejects a limit outside 1-20, in the schema and without it', () => {
    expect(Config({})).toMatchObject({ defaultLimit: 5, alwaysVisible: [], neverSearch: [] })
    expect(() => Config({ defaultLimit: 21 })).toThrow()
    expect(() => Config({ defaultLimit: 0 })).toThrow()
    expect(() => normalizeSettings({ defaultLimit: 2.5 })).toThrow(/defaultLimit must be a whole number from 1 to 20/)
  })

  it('fills prefetch with 0 (off) and rejects one outside 0-10, in the schema and without it', () => {
    expect(Config({})).toMatchObject({ prefetch: 0 })
    expect(Config({ prefetch: 10 })).toMatchObject({ prefetch: 10 })
    expect(() => Config({ prefetch: 11 })).toThrow()
    expect(() => Config({ prefetch: -1 })).toThrow()
    expect(() => normalizeSettings({ prefetch: 1.5 })).toThrow(/prefetch must be a whole number from 0 to 10/)
  })

  it('takes defer from its choices only, and autoMinTokens as a whole number of tokens', () => {
    expect(Config({})).toMatchObject({ defer: 'always', autoMinTokens: 70_000 })
    expect(Config({ defer: 'auto', autoMinTokens: 0 })).toMatchObject({ defer: 'auto', autoMinTokens: 0 })
    expect(() => Config({ defer: 'sometimes' as never })).toThrow()
    expect(() => Config({ autoMinTokens: -1 })).toThrow()
    expect(() => normalizeSettings({ defer: 'never' as never })).toThrow(/defer must be one of always, auto, got never/)
    expect(() => normalizeSettings({ autoMinTokens: 1.5 })).toThrow(/autoMinTokens must be a whole number from 0 to 10000000/)
  })

  it('takes loading from its choices only, stable by default', () => {
    expect(Config({})).toMatchObject({ loading: 'stable' })
    expect(Config({ loading: 'native' })).toMatchObject({ loading: 'native' })
    expect(() => Config({ loading: 'lazy' as never })).toThrow()
    expect(() => normalizeSettings({ loading: 'eager' as never })).toThrow(/loading must be one of native, stable, got eager/)
  })

  it('takes maxSelected as a whole number from 0 (no limit, the default) to 1000', () => {
    expect(Config({})).toMatchObject({ maxSelected: 0 })
    expect(Config({ maxSelected: 1000 })).toMatchObject({ maxSelected: 1000 })
    expect(() => Config({ maxSelected: 1001 })).toThrow()
    expect(() => normalizeSettings({ maxSelected: -1 })).toThrow(/maxSelected must be a whole number from 0 to 1000/)
  })
})

describe('the plugin without a settings service', () => {
  it('loads and applies its row config', async () => {
    harness = await createHarness({ plugin: { ...NATIVE, alwaysVisible: ['web_search'], neverSearch: ['bash'] } })
    expect(harness.ctx.get('settings')).toBeUndefined()
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'hi', reply('ok'))
    expect(harness.model.toolNames()).toContain('web_search')
    expect(harness.model.toolNames()).not.toContain('bash')
  })
})

describe('a settings service that comes and goes', () => {
  it('is picked up when mounted after the plugin, and the row config returns when it is unloaded', async () => {
    harness = await createHarness({ plugin: { ...NATIVE, alwaysVisible: ['web_search'] } })
    const h = harness
    const dir = await tempDir()
    try {
      const provider = h.ctx.plugin(FileSettingsProvider, { path: join(dir, 'settings.yaml') })
      await provider
      await changeSettings(h, { alwaysVisible: [WEATHER] })
      const { agent } = await h.agent('a')
      await h.run(agent, 'hi', reply('ok'))
      expect(h.model.toolNames()).toContain(WEATHER)
      expect(h.model.toolNames()).not.toContain('web_search')

      await provider.dispose()
      await h.run(agent, 'hi', reply('ok'))
      expect(h.model.toolNames()).toContain('web_search')
      expect(h.model.toolNames()).not.toContain(WEATHER)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('live settings', () => {
  it('registers the tool-search section with the row config as its base', async () => {
    harness = await createHarness({ settings: true, plugin: { ...NATIVE, defaultLimit: 3 } })
    expect(harness.ctx.settings.get(TOOL_SEARCH_SETTINGS_NAMESPACE)).toMatchObject({ defaultLimit: 3, alwaysVisible: [], neverSearch: [] })
  })

  it('neverSearch hides a selected tool without forgetting it, and unsearchable tools are not found', async () => {
    harness = await createHarness({ plugin: NATIVE, settings: true })
    const h = harness
    const { agent } = await h.agent('a')
    await h.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast' }), reply('ok'))
    expect(h.model.toolNames()).toContain(WEATHER)

    await changeSettings(h, { neverSearch: [WEATHER] })
    await h.run(agent, 'weather?', toolCall('c2', 'tool_search', { query: 'weather forecast' }), reply('none'))
    expect(foundNames(loggedResult(agent, 'c2'))).not.toContain(WEATHER)
    expect(h.model.toolNames()).not.toContain(WEATHER)

    await changeSettings(h, {})
    await h.run(agent, 'again', reply('ok'))
    expect(h.model.toolNames()).toContain(WEATHER)
  })

  it('alwaysVisible offers a deferred tool without a search; neverSearch wins over it', async () => {
    harness = await createHarness({ plugin: NATIVE, settings: true })
    const h = harness
    const { agent } = await h.agent('a')
    await changeSettings(h, { alwaysVisible: ['web_search', WEATHER] })
    await h.run(agent, 'hi', reply('ok'))
    expect(h.model.toolNames()).toEqual(expect.arrayContaining(['web_search', WEATHER]))

    await changeSettings(h, { alwaysVisible: ['web_search', WEATHER], neverSearch: [WEATHER] })
    await h.run(agent, 'hi', reply('ok'))
    expect(h.model.toolNames()).toContain('web_search')
    expect(h.model.toolNames()).not.toContain(WEATHER)
  })

  it('defaultLimit changes the limit description and the number of results of a search without a limit', async () => {
    harness = await createHarness({ plugin: NATIVE, settings: true })
    const h = harness
    const { agent } = await h.agent('a')
    await h.run(agent, 'tools?', toolCall('c1', 'tool_search', { query: 'mcp weather github postgres mail' }), reply('ok'))
    expect(limitDescription(h.model.requests[0]?.tools)).toContain('Default: 5.')
    expect(foundNames(loggedResult(agent, 'c1'))).toHaveLength(4)

    await changeSettings(h, { defaultLimit: 2 })
    // A fresh Agent: the first one can already call every mcp tool, so it would get no new ones.
    const { agent: other } = await h.agent('b')
    await h.run(other, 'tools?', toolCall('c1', 'tool_search', { query: 'mcp weather github postgres mail' }), reply('ok'))
    expect(limitDescription(h.model.requests[2]?.tools)).toContain('Default: 2.')
    expect(foundNames(loggedResult(other, 'c1'))).toHaveLength(2)
  })

  it('loading switches live between native and stable: call_tool comes and goes, and tool_search says how found tools are used', async () => {
    harness = await createHarness({ settings: true, plugin: NATIVE })
    const h = harness
    const { agent } = await h.agent('a')
    const searchText = (): string => h.model.requests.at(-1)?.tools?.find(tool => tool.name === 'tool_search')?.description ?? ''
    await h.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }), reply('ok'))
    expect(h.model.toolNames()).toContain(WEATHER)
    expect(h.model.toolNames()).not.toContain('call_tool')
    expect(searchText()).toContain('you call them by name')

    await changeSettings(h, { loading: 'stable' })
    await h.run(agent, 'again', toolCall('c2', 'call_tool', { name: WEATHER, arguments: { city: 'Oslo' } }), reply('ok'))
    // The selection is kept; under stable it is run through call_tool, not offered.
    expect(h.model.toolNames()).toContain('call_tool')
    expect(h.model.toolNames()).not.toContain(WEATHER)
    expect(searchText()).toContain('call_tool({"name"')
    expect(loggedResult(agent, 'c2')).toEqual({ isError: false, text: `${WEATHER} ran` })

    await changeSettings(h, { loading: 'native' })
    await h.run(agent, 'native again', reply('ok'))
    expect(h.model.toolNames()).toContain(WEATHER)
    expect(h.model.toolNames()).not.toContain('call_tool')
  })

  it('ranking: auto finds a tool by meaning (the model package is installed in a checkout); lexical by words alone', async () => {
    harness = await createHarness({ plugin: NATIVE, settings: true })
    const h = harness
    // No fixture tool has "rain" or "tomorrow": only the semantic model relates them to a forecast.
    const query = 'will it rain tomorrow'
    const { agent } = await h.agent('a')
    await h.run(agent, 'rain?', toolCall('c1', 'tool_search', { query }), reply('ok'))
    expect(foundNames(loggedResult(agent, 'c1'))[0]).toBe(WEATHER)

    await changeSettings(h, { ranking: 'lexical' })
    const { agent: other } = await h.agent('b')
    await h.run(other, 'rain?', toolCall('c1', 'tool_search', { query }), reply('ok'))
    expect(foundNames(loggedResult(other, 'c1'))).toEqual([])
  })
})
