// The plugin where its native core did not load: it is given the loader's failed result (the
// binary cannot be uninstalled from under this process) and must still load, say why once, in
// DSH's log and on standard error, and step aside: every tool offered, no tool_search, nothing
// filtered, while the settings and the view stay live.
import { setImmediate as macrotask } from 'node:timers/promises'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TOOL_SEARCH_SETTINGS_NAMESPACE } from '../../plugin/host/settings.ts'
import { CORE_NAMES, DEFERRED_NAMES } from '../support/fixtures.ts'
import { createHarness, type Harness, NATIVE } from '../support/harness.ts'
import { PLATFORM_PACKAGE, missingCore } from '../support/missing-core.ts'
import { reply, toolCall } from '../support/scripted-model.ts'
import { loggedResult } from '../support/session.ts'

let harness: Harness
afterEach(async () => {
  await harness.close()
  vi.restoreAllMocks()
})

/** Standard error as the process would print it, while the harness starts. */
function captureStderr(): string[] {
  const lines: string[] = []
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk))
    return true
  })
  return lines
}

describe('without its native core', () => {
  it('the plugin loads, says why once in the log and on stderr, and the Agent is offered every tool', async () => {
    const stderr = captureStderr()
    harness = await createHarness({ plugin: NATIVE, core: await missingCore() })
    vi.restoreAllMocks()
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'forecast?', toolCall('c1', 'mcp__weather__forecast', { city: 'Paris' }), reply('sunny'))

    const said = harness.errors.filter(line => line.includes(PLATFORM_PACKAGE))
    expect(said).toHaveLength(1)
    expect(said[0]).toMatch(/^dsh-tool-search: tool_search is off and every tool stays offered: the native search core did not load: this machine is /)
    expect(stderr).toEqual([`${said[0]}\n`])
    expect(harness.model.toolNames().sort()).toEqual([...CORE_NAMES, ...DEFERRED_NAMES, 'todo_write'].sort())
    expect(loggedResult(agent, 'c1').isError).toBe(false)
    expect(harness.log.calls.map(call => call.name)).toEqual(['mcp__weather__forecast'])
  })

  it('stays aside through registry and settings changes, and its view says why', async () => {
    captureStderr()
    harness = await createHarness({ plugin: NATIVE, core: await missingCore(), settings: true })
    vi.restoreAllMocks()
    const { agent } = await harness.agent('a')
    harness.ctx.tools.register({ ...harness.ctx.tools.get('bash')!, name: 'mcp__late__tool' })
    await harness.ctx.settings.replace(TOOL_SEARCH_SETTINGS_NAMESPACE, { neverSearch: ['web_search'], defaultLimit: 3 })
    await macrotask()
    await harness.run(agent, 'hi', reply('hello'))

    expect(harness.model.toolNames()).toContain('mcp__late__tool')
    expect(harness.model.toolNames()).toContain('web_search')
    expect(harness.model.toolNames()).not.toContain('tool_search')
    expect(harness.errors.filter(line => line.includes('native search core'))).toHaveLength(1)
    const view = harness.ctx.toolSearch
    expect(view.unavailable()).toMatch(/^the native search core did not load: /)
    expect(view.unavailable()).toContain(PLATFORM_PACKAGE)
    expect(view.settings().neverSearch).toEqual(['web_search'])
    expect(view.catalog().find(row => row.name === 'web_search')?.policy).toBe('never')
    expect(view.agents()).toEqual([])
  })

  it('with its core, the view reports tool_search as available', async () => {
    harness = await createHarness({ plugin: NATIVE })
    expect(harness.ctx.toolSearch.unavailable()).toBeUndefined()
  })
})
