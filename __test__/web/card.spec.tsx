// @vitest-environment jsdom
// The Tool Search card in a DOM, against the real host half: the plugin in an in-process DSH with
// file-backed settings, its catalog route on DSH's web server, and the settings plane of the page
// played twice: as DSH 0.1.0-rc.8's page offers it (settingsScope and connection.api, see
// support/settings-transport.ts), and as DSH 0.1.7's does (configForms, EMULATED from its source,
// see support/later-client.ts). The same card must behave the same on both.

import { setImmediate as macrotask } from 'node:timers/promises'
import { Context } from '@deepseek-ai/cordis'
import WebServer from '@deepseek-ai/dsh-host-webserver'
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { catalogFetcher } from '../../plugin/client/catalog-fetch.ts'
import { ToolSearchCardController } from '../../plugin/client/card-controller.ts'
import { fromConfigForm, type SettingsSource } from '../../plugin/client/host-settings.ts'
import { SettingsWriter } from '../../plugin/client/settings-writer.ts'
import { ToolSearchCard } from '../../plugin/client/ToolSearchCard.tsx'
import { PLUGIN_ID, SETTINGS_NAMESPACE } from '../../plugin/contract.ts'
import type { Config } from '../../plugin/host/config.ts'
import { TOOL_SEARCH_SETTINGS_NAMESPACE } from '../../plugin/host/settings.ts'
import type { NativeLoad } from '../../plugin/host/native.ts'
import { createHarness, type Harness, NATIVE } from '../support/harness.ts'
import { PLATFORM_PACKAGE, missingCore } from '../support/missing-core.ts'
import { reply, toolCall } from '../support/scripted-model.ts'
import { t } from './support/client-page.ts'
import { bindInjectFace } from './support/inject-face.ts'
import { EmulatedConfigForms, LaterClient, LaterSettingsRemote } from './support/later-client.ts'
import { SettingsTransport, type SettingsPlane } from './support/settings-transport.ts'

// A write crosses the host's settings file and the catalog route before the page shows it; on a
// loaded two-core machine that can take longer than the 1 s Testing Library waits by default.
configure({ asyncUtilTimeout: 5_000 })

type Access = 'write' | 'read' | 'memory'

/** One DSH page generation: the settings plane it puts under the card, and what differs on it. */
interface PageHost {
  readonly name: string
  /** The namespace the page's writes name. */
  readonly ns: string
  /** What a one-field write that never reached DSH reads as: rc.8's scope hides the failure. */
  readonly lostWrite: string
  connect(h: Harness, access: Access): { source: SettingsSource; plane: SettingsPlane }
}

const HOSTS: readonly PageHost[] = [
  {
    name: 'DSH 0.1.0-rc.8 (settingsScope)',
    ns: SETTINGS_NAMESPACE,
    lostWrite: 'DSH did not accept the change.',
    connect: (h, access) => {
      const transport = new SettingsTransport(h.ctx, SETTINGS_NAMESPACE, access)
      return { source: transport.source(), plane: transport }
    },
  },
  {
    name: 'DSH 0.1.7, emulated (configForms)',
    ns: PLUGIN_ID,
    lostWrite: 'DSH could not be reached.',
    connect: (h, access) => {
      const remote = new LaterSettingsRemote(h.ctx, access)
      const forms = new EmulatedConfigForms(new Context(), remote)
      return { source: fromConfigForm(forms.get(PLUGIN_ID)), plane: new LaterClient(remote, forms) }
    },
  },
]

let harness: Harness | undefined
let card: ToolSearchCardController | undefined
afterEach(async () => {
  cleanup()
  card?.dispose()
  await harness?.close()
  harness = card = undefined
})

interface Mounted {
  readonly h: Harness
  readonly transport: SettingsPlane
}

async function open(): Promise<void> {
  fireEvent.click(screen.getByRole('button', { name: /Tool Search/ }))
  await screen.findByRole('table')
}

function row(name: string): HTMLElement {
  return screen.getByRole('rowheader', { name: new RegExp(`^${name}\\b`) }).closest('tr')!
}

/** The policy the Policy column shows for a tool. */
function shownPolicy(name: string): string | undefined {
  return row(name).dataset.policy
}

function policySelect(name: string): HTMLSelectElement {
  return screen.getByRole('combobox', { name: `Policy for ${name}` })
}

/** The user section DSH stores (what settings.yaml holds under `tool-search:`). */
function stored(h: Harness): unknown {
  return h.ctx.settings.describe().find(entry => entry.ns === SETTINGS_NAMESPACE)?.user
}

function revision(h: Harness): number {
  return h.ctx.settings.describe().find(entry => entry.ns === SETTINGS_NAMESPACE)!.revision
}

describe.each(HOSTS)('the Tool Search card on $name', (host) => {
  async function mount({ plugin = NATIVE, access = 'write', pollMs = 60_000, core }: { plugin?: Partial<Config>; access?: Access; pollMs?: number; core?: NativeLoad } = {}): Promise<Mounted> {
    const h = harness = await createHarness({ settings: true, plugin, ...core === undefined ? {} : { core } })
    await h.ctx.plugin(WebServer, { host: '127.0.0.1', port: 0 })
    const { source, plane } = host.connect(h, access)
    card = new ToolSearchCardController(source, new SettingsWriter(source), catalogFetcher(`http://127.0.0.1:${h.ctx.get('webServer')!.port}`), { pollMs, filterDelayMs: 0 })
    render(<ToolSearchCard t={t} {...bindInjectFace(card.inject())} />)
    return { h, transport: plane }
  }

  it('discloses a live catalog: each tool\'s effective policy, selection count and policy control', async () => {
    const { h } = await mount({ plugin: { ...NATIVE, neverSearch: ['mcp__postgres__query'] } })
    const { agent } = await h.agent('a')
    await h.agent('b')
    await h.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }), reply('ok'))

    const header = screen.getByRole('button', { name: /Tool Search/ })
    expect(header.getAttribute('aria-expanded')).toBe('false')
    await open()
    expect(header.getAttribute('aria-expanded')).toBe('true')
    expect(screen.getByText('Showing 10 of 10 tools · live agents: 2')).toBeTruthy()

    const weather = within(row('mcp__weather__forecast'))
    expect(shownPolicy('mcp__weather__forecast')).toBe('selected')
    expect(weather.getByText('Selected', { selector: '.dts-badge' })).toBeTruthy()
    expect(weather.getByLabelText('Selected by 1; live agents: 2').textContent).toBe('1')
    expect(shownPolicy('bash')).toBe('core')
    expect(shownPolicy('mcp__postgres__query')).toBe('never')
    expect(shownPolicy('web_search')).toBe('deferred')
    expect(policySelect('mcp__postgres__query').value).toBe('never')
    expect(within(row('tool_search')).queryByRole('combobox')).toBeNull()
    // Core tools offer no "always visible", which would add nothing.
    expect([...policySelect('bash').options].map(option => option.value)).toEqual(['default', 'never'])
    expect([...policySelect('web_search').options].map(option => option.value)).toEqual(['default', 'always', 'never'])

    // Every control has a name a screen reader can announce.
    for (const role of ['button', 'combobox', 'textbox', 'searchbox'] as const) {
      expect(screen.queryAllByRole(role, { name: /\S/ })).toHaveLength(screen.queryAllByRole(role).length)
    }
  })

  it('keeps the catalog live while open: a search made meanwhile shows on the next poll', async () => {
    const { h } = await mount({ pollMs: 50 })
    await open()
    expect(shownPolicy('mcp__weather__forecast')).toBe('deferred')
    const { agent } = await h.agent('a')
    await h.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }), reply('ok'))
    await waitFor(() => { expect(shownPolicy('mcp__weather__forecast')).toBe('selected') })
    expect(screen.getByText('Showing 10 of 10 tools · live agents: 1')).toBeTruthy()
  })

  it('writes one list for a policy change, which the plugin applies at once and the catalog then shows', async () => {
    const { h, transport } = await mount()
    await open()
    fireEvent.change(policySelect('web_search'), { target: { value: 'always' } })
    await waitFor(() => { expect(shownPolicy('web_search')).toBe('always') })
    expect(stored(h)).toEqual({ alwaysVisible: ['web_search'] })
    expect(transport.requests.map(request => request.ops.map(op => op.path[0]))).toEqual([['alwaysVisible']])
    expect(policySelect('web_search').value).toBe('always')
    expect(within(screen.getByRole('list', { name: 'Always visible' })).getByText('web_search')).toBeTruthy()

    const { agent } = await h.agent('a')
    await h.run(agent, 'hi', reply('ok'))
    expect(h.model.toolNames()).toContain('web_search')
  })

  it('moves a tool between the lists in ONE write of both, fenced by the revision it read', async () => {
    const { h, transport } = await mount({ plugin: NATIVE })
    await h.ctx.settings.mutate(TOOL_SEARCH_SETTINGS_NAMESPACE, [{ op: 'set', path: ['alwaysVisible'], value: ['web_search'] }])
    await macrotask()
    await open()
    const before = revision(h)
    fireEvent.change(policySelect('web_search'), { target: { value: 'never' } })
    await waitFor(() => { expect(shownPolicy('web_search')).toBe('never') })
    expect(transport.requests).toEqual([{
      ns: host.ns,
      ops: [
        { op: 'set', path: ['alwaysVisible'], value: [] },
        { op: 'set', path: ['neverSearch'], value: ['web_search'] },
      ],
      expectedRevision: before,
    }])
    expect(revision(h)).toBe(before + 1)
    expect(stored(h)).toEqual({ alwaysVisible: [], neverSearch: ['web_search'] })
    expect(h.ctx.toolSearch.settings()).toMatchObject({ alwaysVisible: [], neverSearch: ['web_search'] })
  })

  it('shows a move that could not be sent, and leaves both lists as they were', async () => {
    const { h, transport } = await mount({ plugin: NATIVE })
    await h.ctx.settings.mutate(TOOL_SEARCH_SETTINGS_NAMESPACE, [{ op: 'set', path: ['alwaysVisible'], value: ['web_search'] }])
    await macrotask()
    await open()
    transport.unreachable = 1
    fireEvent.change(policySelect('web_search'), { target: { value: 'never' } })
    const alert = await screen.findByText(/The policy of web_search was not saved: DSH could not be reached\./)
    expect(alert.textContent).toContain('Nothing was changed')
    expect(policySelect('web_search').value).toBe('always')
    expect(within(screen.getByRole('list', { name: 'Always visible' })).getByText('web_search')).toBeTruthy()
    expect(within(screen.getByRole('list', { name: 'Never search' })).getByText('None')).toBeTruthy()
    expect(stored(h)).toEqual({ alwaysVisible: ['web_search'] })

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }))
    expect(screen.queryByText(/was not saved/)).toBeNull()
  })

  it('refuses a move planned from stale lists, so a change made elsewhere is not overwritten', async () => {
    const { h, transport } = await mount({ plugin: NATIVE })
    await h.ctx.settings.mutate(TOOL_SEARCH_SETTINGS_NAMESPACE, [{ op: 'set', path: ['alwaysVisible'], value: ['web_search'] }])
    await macrotask()
    await open()
    // Another page adds a tool; this page has not heard about it yet.
    transport.follow = false
    await h.ctx.settings.mutate(TOOL_SEARCH_SETTINGS_NAMESPACE, [{ op: 'set', path: ['alwaysVisible'], value: ['mcp__mail__send_email', 'web_search'] }])
    fireEvent.change(policySelect('web_search'), { target: { value: 'never' } })
    await screen.findByText(/The policy of web_search was not saved: the settings changed elsewhere in the meantime\. Try again\./)
    expect(stored(h)).toEqual({ alwaysVisible: ['mcp__mail__send_email', 'web_search'] })

    // The document-updated notice arrives: the page shows what DSH holds, and a retry works.
    transport.follow = true
    transport.load()
    await within(screen.getByRole('list', { name: 'Always visible' })).findByText('mcp__mail__send_email')
    fireEvent.change(policySelect('web_search'), { target: { value: 'never' } })
    await waitFor(() => { expect(stored(h)).toEqual({ alwaysVisible: ['mcp__mail__send_email'], neverSearch: ['web_search'] }) })
  })

  it('checks the result count as it is typed and saves a valid one, which the plugin applies at once', async () => {
    const { h, transport } = await mount()
    await open()
    const input = screen.getByRole('textbox', { name: 'Results per search' }) as HTMLInputElement
    const save = within(input.form!).getByRole('button', { name: 'Save' }) as HTMLButtonElement
    expect(input.value).toBe('5')
    expect(save.disabled).toBe(true)
    for (const text of ['0', '21', 'abc', '2.5', '', ' 7x']) {
      fireEvent.change(input, { target: { value: text } })
      expect([text, input.getAttribute('aria-invalid'), save.disabled]).toEqual([text, 'true', true])
      expect(screen.getByText('Enter a whole number from 1 to 20.').id).toBe(input.getAttribute('aria-describedby'))
      fireEvent.submit(input.form!)
    }
    expect(transport.requests).toEqual([])

    fireEvent.change(input, { target: { value: '7' } })
    expect(input.getAttribute('aria-invalid')).toBe('false')
    fireEvent.submit(input.form!)
    await waitFor(() => { expect(stored(h)).toEqual({ defaultLimit: 7 }) })
    await macrotask()
    const search = h.ctx.tools.schemas().find(tool => tool.name === 'tool_search')
    expect(JSON.stringify(search?.parameters)).toContain('Default: 7.')
  })

  it('saves the prefetch count, and lists per live Agent the tools it selected and those prefetched', async () => {
    const { h } = await mount({ pollMs: 50 })
    await open()
    const input = screen.getByRole('textbox', { name: 'Prefetch per message' }) as HTMLInputElement
    expect(input.value).toBe('0')
    fireEvent.change(input, { target: { value: '11' } })
    expect(screen.getByText('Enter a whole number from 0 to 10.')).toBeTruthy()
    fireEvent.change(input, { target: { value: '3' } })
    fireEvent.submit(input.form!)
    await waitFor(() => { expect(stored(h)).toEqual({ prefetch: 3 }) })
    await macrotask()

    const { agent } = await h.agent('a')
    await h.agent('b')
    await h.run(agent, 'What will the weather forecast be in Paris?', toolCall('c1', 'tool_search', { query: 'send email', limit: 1 }), reply('ok'))
    const agents = screen.getByRole('region', { name: 'Live agents' })
    await waitFor(() => { expect(within(agents).getByText('2 selected · 1 prefetched · native loading')).toBeTruthy() })
    const rows = within(agents).getAllByRole('listitem').map(item => item.textContent ?? '')
    expect(rows[0]).toContain('Found: mcp__mail__send_email, mcp__weather__forecast')
    expect(rows[0]).toMatch(/Tools in its last request: about \d+ tokens; offering every tool: about \d+\./)
    // The prefetch offered the weather tool on the first request, the search the mail tool on the second.
    expect(rows[0]).toContain('Cache breaks from changed tools since its first request: 1.')
    expect(rows[1]).toBe('Agent 20 selected · 0 prefetched · native loadingNothing found yet.')
  })

  it('saves the loading mode, and shows an Agent under stable loading with what it found and no cache break', async () => {
    const { h } = await mount({ plugin: {}, pollMs: 50 })
    await open()
    const mode = screen.getByRole('combobox', { name: 'Loading found tools' }) as HTMLSelectElement
    expect([mode.value, [...mode.options].map(option => option.value)]).toEqual(['stable', ['native', 'stable']])
    const { agent } = await h.agent('a')
    await h.run(agent, 'weather?',
      toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }),
      toolCall('c2', 'call_tool', { name: 'mcp__weather__forecast', arguments: { city: 'Oslo' } }),
      reply('ok'))
    const agents = screen.getByRole('region', { name: 'Live agents' })
    await waitFor(() => { expect(within(agents).getByText('1 selected · 0 prefetched · stable loading')).toBeTruthy() })
    const row = within(agents).getAllByRole('listitem')[0]!.textContent ?? ''
    expect(row).toContain('Found: mcp__weather__forecast')
    expect(row).not.toContain('Cache breaks')

    fireEvent.change(mode, { target: { value: 'native' } })
    await waitFor(() => { expect(stored(h)).toEqual({ loading: 'native' }) })
    await macrotask()
    expect(h.ctx.toolSearch.settings().loading).toBe('native')
    await h.run(agent, 'again', reply('ok'))
    expect(h.model.toolNames()).not.toContain('call_tool')
    expect(h.model.toolNames()).toContain('mcp__weather__forecast')
  })

  it('shows a count that was not saved and keeps both the stored count and the typed one', async () => {
    const { h, transport } = await mount()
    await open()
    const input = screen.getByRole('textbox', { name: 'Results per search' }) as HTMLInputElement
    transport.unreachable = 1
    fireEvent.change(input, { target: { value: '12' } })
    fireEvent.click(within(input.form!).getByRole('button', { name: 'Save' }))
    await screen.findByText(`The result count was not saved: ${host.lostWrite}`, { exact: false })
    expect(input.value).toBe('12')
    expect(stored(h)).toBeUndefined()
    expect(h.ctx.toolSearch.settings().defaultLimit).toBe(5)
  })

  it('saves the ranking', async () => {
    const { h } = await mount()
    await open()
    const ranking = screen.getByRole('combobox', { name: 'Ranking' }) as HTMLSelectElement
    expect([ranking.value, [...ranking.options].map(option => option.textContent)]).toEqual(['auto', ['Automatic (words and meaning)', 'Words only']])
    fireEvent.change(ranking, { target: { value: 'lexical' } })
    await waitFor(() => { expect(stored(h)).toEqual({ ranking: 'lexical' }) })
    await waitFor(() => { expect(ranking.value).toBe('lexical') })
  })

  it('saves the deferral mode and its threshold, which the plugin applies from the next user message', async () => {
    const { h } = await mount()
    const { agent } = await h.agent('a')
    await open()
    const mode = screen.getByRole('combobox', { name: 'Defer tools' }) as HTMLSelectElement
    expect([mode.value, [...mode.options].map(option => option.textContent)]).toEqual(['always', ['Always', 'Automatic, by catalog size']])
    fireEvent.change(mode, { target: { value: 'auto' } })
    await waitFor(() => { expect(stored(h)).toEqual({ defer: 'auto' }) })
    await waitFor(() => { expect(mode.value).toBe('auto') })

    const threshold = screen.getByRole('textbox', { name: 'Automatic deferral threshold (tokens)' }) as HTMLInputElement
    expect(threshold.value).toBe('70000')
    fireEvent.change(threshold, { target: { value: '0' } })
    fireEvent.submit(threshold.form!)
    await waitFor(() => { expect(stored(h)).toEqual({ defer: 'auto', autoMinTokens: 0 }) })
    await macrotask()
    await h.run(agent, 'hi', reply('ok'))
    expect(h.model.toolNames()).toContain('tool_search')

    fireEvent.change(threshold, { target: { value: '10000000' } })
    fireEvent.submit(threshold.form!)
    await waitFor(() => { expect(stored(h)).toEqual({ defer: 'auto', autoMinTokens: 10_000_000 }) })
    await macrotask()
    await h.run(agent, 'hi', reply('ok'))
    expect(h.model.toolNames()).not.toContain('tool_search')
    expect(h.model.toolNames()).toContain('mcp__weather__forecast')
  })

  it('saves the most tools kept per agent, which the plugin applies at the next user message', async () => {
    const { h } = await mount()
    const { agent } = await h.agent('a')
    await h.run(agent, 'two tools',
      toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }),
      toolCall('c2', 'tool_search', { query: 'github issue', limit: 1 }),
      reply('ok'))
    await open()
    const limit = screen.getByRole('textbox', { name: 'Most tools kept per agent' }) as HTMLInputElement
    expect(limit.value).toBe('0')
    fireEvent.change(limit, { target: { value: '1001' } })
    expect(limit.getAttribute('aria-invalid')).toBe('true')
    fireEvent.change(limit, { target: { value: '1' } })
    fireEvent.submit(limit.form!)
    await waitFor(() => { expect(stored(h)).toEqual({ maxSelected: 1 }) })
    await macrotask()
    await h.run(agent, 'next', reply('ok'))
    expect(h.model.toolNames().filter(name => name.startsWith('mcp__'))).toEqual(['mcp__github__create_issue'])
  })

  it('shows a deferral mode that was not saved and keeps showing the stored one', async () => {
    const { h, transport } = await mount()
    await open()
    transport.unreachable = 1
    const mode = screen.getByRole('combobox', { name: 'Defer tools' }) as HTMLSelectElement
    fireEvent.change(mode, { target: { value: 'auto' } })
    await screen.findByText(`The deferral mode was not saved: ${host.lostWrite}`, { exact: false })
    expect(mode.value).toBe('always')
    expect(h.ctx.toolSearch.settings().defer).toBe('always')
  })

  it('edits the lists directly: remove a name, add one, move one, and refuse blank or tool_search', async () => {
    const { h, transport } = await mount()
    await h.ctx.settings.mutate(TOOL_SEARCH_SETTINGS_NAMESPACE, [{ op: 'set', path: ['alwaysVisible'], value: ['mcp__mail__send_email', 'web_search'] }])
    await macrotask()
    await open()
    fireEvent.click(screen.getByRole('button', { name: 'Remove web_search from Always visible' }))
    await waitFor(() => { expect(stored(h)).toEqual({ alwaysVisible: ['mcp__mail__send_email'] }) })

    const addNever = screen.getByRole('combobox', { name: 'Tool name to add to Never search' }) as HTMLInputElement
    fireEvent.submit(addNever.form!)
    expect(screen.getByText('Enter a tool name.')).toBeTruthy()
    fireEvent.change(addNever, { target: { value: 'tool_search' } })
    fireEvent.submit(addNever.form!)
    expect(screen.getByText('tool_search is always offered and cannot be blocked.')).toBeTruthy()
    expect(transport.requests).toHaveLength(1)

    fireEvent.change(addNever, { target: { value: ' mcp__mail__send_email ' } })
    fireEvent.submit(addNever.form!)
    await waitFor(() => { expect(stored(h)).toEqual({ alwaysVisible: [], neverSearch: ['mcp__mail__send_email'] }) })
    expect(transport.requests.at(-1)?.ops).toHaveLength(2)
    expect(addNever.value).toBe('')
  })

  it('filters the catalog by text on the host and by policy on the page', async () => {
    await mount({ plugin: { ...NATIVE, alwaysVisible: ['web_search'] } })
    await open()
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter tools' }), { target: { value: 'MCP__' } })
    await screen.findByText('Showing 4 of 4 tools · live agents: 0')
    expect(screen.queryByRole('rowheader', { name: /^bash\b/ })).toBeNull()

    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter tools' }), { target: { value: '' } })
    await screen.findByText('Showing 10 of 10 tools · live agents: 0')
    fireEvent.change(screen.getByRole('combobox', { name: 'Show' }), { target: { value: 'always' } })
    expect(screen.getAllByRole('rowheader').map(cell => cell.querySelector('code')?.textContent)).toEqual(['web_search'])
  })

  it('disables every control where DSH cannot write the settings', async () => {
    await mount({ access: 'read', plugin: { ...NATIVE, alwaysVisible: ['web_search'] } })
    await open()
    expect(screen.getByText('These settings can only be changed from the machine running DSH.')).toBeTruthy()
    const controls = [
      screen.getByRole('textbox', { name: 'Results per search' }),
      screen.getByRole('combobox', { name: 'Defer tools' }),
      screen.getByRole('textbox', { name: 'Automatic deferral threshold (tokens)' }),
      screen.getByRole('textbox', { name: 'Most tools kept per agent' }),
      screen.getByRole('button', { name: 'Remove web_search from Always visible' }),
      ...screen.getAllByRole('button', { name: 'Add' }),
      ...screen.getAllByRole('combobox', { name: /^Policy for / }),
    ] as (HTMLInputElement | HTMLButtonElement | HTMLSelectElement)[]
    expect(controls.filter(control => !control.disabled)).toEqual([])
  })

  it('is absent where the settings are not served to this page (a remote browser)', async () => {
    await mount({ access: 'memory' })
    expect(screen.queryByRole('button', { name: /Tool Search/ })).toBeNull()
  })

  it('says tool_search is off, in the host\'s words naming the package to install, and still edits the lists', async () => {
    await mount({ core: await missingCore() })
    await open()
    const alert = screen.getAllByRole('alert').find(element => element.textContent !== '')
    expect(alert?.textContent).toMatch(/^tool_search is off, so the model is offered every tool\.the native search core did not load: this machine is /)
    expect(alert?.textContent).toContain(PLATFORM_PACKAGE)
    fireEvent.change(policySelect('web_search'), { target: { value: 'always' } })
    await waitFor(() => { expect(shownPolicy('web_search')).toBe('always') })
  })

  it('shows no such notice while tool_search works', async () => {
    await mount()
    await open()
    expect(screen.queryByText(/tool_search is off/)).toBeNull()
  })
})
