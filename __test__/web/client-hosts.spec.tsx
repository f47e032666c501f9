// @vitest-environment jsdom
// The client module as DSH runs it: `apply` on a page of each generation, against the real host
// half (the plugin in an in-process DSH with file-backed settings and its catalog route on DSH's
// web server). DSH 0.1.0-rc.8's page offers settingsScope, connection.api and settings.plugin.item
// (support/settings-transport.ts); DSH 0.1.7's, EMULATED from its source, offers configForms and
// the Plugin Manager's plugins.row.config instead (support/later-client.ts). Between them, a page
// built from reports keeps settingsScope but writes over remote.settings. A page with neither
// must still run the module, which then says so once.

import type { Context, Plugin } from '@deepseek-ai/cordis'
import { settingsNamespace } from '@deepseek-ai/dsh-settings'
import WebServer from '@deepseek-ai/dsh-host-webserver'
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import type { ToolSearchCardFace } from '../../plugin/client/card-controller.ts'
import { ROW_CONFIG_KEY } from '../../plugin/client/card-slots.ts'
import { HOST_SETTLE_MS } from '../../plugin/client/host-notice.ts'
import * as clientModule from '../../plugin/client/index.ts'
import type { SettingsNamespaceView } from '../../plugin/client/host.ts'
import { en } from '../../plugin/client/locales.ts'
import { PLUGIN_ID, SETTINGS_NAMESPACE } from '../../plugin/contract.ts'
import { createHarness, type Harness, NATIVE } from '../support/harness.ts'
import { clientPage, renderEntry, type ClientPage } from './support/client-page.ts'
import { LATER_CONFIG_SLOTS, LaterSettingsRemote, provideLaterSettings } from './support/later-client.ts'
import { SettingsTransport, provideRc8Settings, type SettingsPlane } from './support/settings-transport.ts'

// See card.spec.tsx: a write round trip can outlast Testing Library's default 1 s on a loaded machine.
configure({ asyncUtilTimeout: 5_000 })

let harness: Harness | undefined
let loaded: { dispose(): unknown } | undefined
let warn: MockInstance<typeof console.warn>
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
})
afterEach(async () => {
  cleanup()
  await loaded?.dispose()
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  await harness?.close()
  harness = loaded = undefined
})

/** The plugin in an in-process DSH, with its catalog route on DSH's web server. */
async function dsh(): Promise<Harness> {
  const h = harness = await createHarness({ settings: true, plugin: NATIVE })
  await h.ctx.plugin(WebServer, { host: '127.0.0.1', port: 0 })
  // The page is DSH's own, so the card's root-relative requests reach DSH's web server.
  const origin = `http://127.0.0.1:${h.ctx.get('webServer')!.port}`
  const fetchFromNode = globalThis.fetch
  vi.stubGlobal('fetch', (input: string | URL, init?: RequestInit) => fetchFromNode(new URL(String(input), origin), init))
  return h
}

/** A page with slots and locale, and the module's timers faked from here on (its settle check among them). */
function newPage(): ClientPage {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true })
  return clientPage()
}

async function loadModule(on: ClientPage): Promise<void> {
  // As DSH's page loads it: the module object itself (its `ctx` is typed by the module's own
  // structural slice of DSH's client context, hence the cast).
  loaded = await on.root.plugin(clientModule as unknown as Plugin)
}

/** The user section DSH stores. */
function stored(h: Harness): unknown {
  return h.ctx.settings.describe().find(entry => entry.ns === SETTINGS_NAMESPACE)?.user
}

/** Give web_search a list, then move it to the other list; what DSH stores afterwards. */
async function moveWebSearch(h: Harness): Promise<void> {
  const policy = screen.getByRole('combobox', { name: 'Policy for web_search' })
  fireEvent.change(policy, { target: { value: 'always' } })
  await waitFor(() => { expect(stored(h)).toEqual({ alwaysVisible: ['web_search'] }) })
  await waitFor(() => { expect((policy as HTMLSelectElement).value).toBe('always') })
  fireEvent.change(policy, { target: { value: 'never' } })
  await waitFor(() => { expect(stored(h)).toEqual({ alwaysVisible: [], neverSearch: ['web_search'] }) })
}

/** Save a result count the host refuses (the page's own field stops it first), through the entry's face. */
async function saveRefusedCount(on: ClientPage, slot: string, key: string): Promise<unknown> {
  const face = on.slots.entry(slot, key)!.inject() as unknown as ToolSearchCardFace
  return face.saveSetting('defaultLimit', 99)
}

/** The write requests, each as its namespace and the fields it set. */
function writes(plane: SettingsPlane): [string, (string | undefined)[]][] {
  return plane.requests.map(request => [request.ns, request.ops.map(op => op.path[0])])
}

function expectNoNotice(): void {
  vi.advanceTimersByTime(HOST_SETTLE_MS)
  expect(warn).not.toHaveBeenCalled()
}

describe('the client module on DSH 0.1.0-rc.8\'s page', () => {
  it('waits for no service rc.8 lacks, finds settingsScope and settings.plugin.item, shows and edits the settings', async () => {
    expect(clientModule.inject).toEqual(['slots', 'locale'])
    const h = await dsh()
    const on = newPage()
    const transport = new SettingsTransport(h.ctx, SETTINGS_NAMESPACE)
    await provideRc8Settings(on.root, transport)
    await loadModule(on)
    // The Plugins section declares its slot after this module has loaded.
    expect(on.slots.keys('settings.plugin.item')).toEqual([])
    on.slots.declareKeyed('settings.plugin.item')
    expect(on.slots.keys('settings.plugin.item')).toEqual([SETTINGS_NAMESPACE])

    render(<ul>{renderEntry(on, 'settings.plugin.item', SETTINGS_NAMESPACE)}</ul>)
    fireEvent.click(await screen.findByRole('button', { name: /Tool Search/ }))
    await screen.findByRole('table')
    expect((screen.getByRole('textbox', { name: 'Results per search' }) as HTMLInputElement).value).toBe('5')
    await moveWebSearch(h)
    expect(writes(transport)).toEqual([[SETTINGS_NAMESPACE, ['alwaysVisible']], [SETTINGS_NAMESPACE, ['alwaysVisible', 'neverSearch']]])
    expect(transport.requests[1]?.expectedRevision).toBeTypeOf('number')

    expect(await saveRefusedCount(on, 'settings.plugin.item', SETTINGS_NAMESPACE)).toEqual({ ok: false, reason: 'refused' })
    await screen.findByText('The result count was not saved: DSH did not accept the change.', { exact: false })
    expect((screen.getByRole('textbox', { name: 'Results per search' }) as HTMLInputElement).value).toBe('5')
    expect(h.ctx.toolSearch.settings().defaultLimit).toBe(5)
    expectNoNotice()
  })
})

describe('the client module on a DSH 0.1.2 to 0.1.6 page (emulated from reports)', () => {
  // No source of these pages was found; what is reported of them: settingsScope stays (to 0.1.6
  // or 0.1.7-alpha.1), connection.api is gone from 0.1.2-alpha.1 (DSH-compat's release notes),
  // and remote.settings answers from 0.1.2-rc.1 as it does on 0.1.7 (Mars-Sea/dsh-commandcode-provider
  // src/client/settings-scope.ts@6ad9ca9272e276eed8cc8877bee13c5f96dfb9c9). That remote is
  // support/later-client.ts's, serving rc.8's real section under its own namespace.
  it('writes several fields at once over remote.settings, where connection has no api', async () => {
    const h = await dsh()
    const on = newPage()
    const transport = new SettingsTransport(h.ctx, SETTINGS_NAMESPACE)
    const remote = new LaterSettingsRemote(h.ctx, 'write', SETTINGS_NAMESPACE)
    await on.root.plugin({
      name: 'emulated 0.1.2 to 0.1.6 settings services',
      apply: (ctx: Context) => {
        ctx.provide('settingsScope', {
          bind: () => transport.scope(),
          describe: () => ({ acceptView: (view: SettingsNamespaceView) => { transport.acceptView(view) } }),
        })
        ctx.provide('connection', { isLoopback: true, generation: 1, state: 'open' })
        ctx.provide('remote.settings', remote)
      },
    })
    on.slots.declareKeyed('settings.plugin.item')
    await loadModule(on)
    render(<ul>{renderEntry(on, 'settings.plugin.item', SETTINGS_NAMESPACE)}</ul>)
    fireEvent.click(await screen.findByRole('button', { name: /Tool Search/ }))
    await screen.findByRole('table')
    await moveWebSearch(h)
    expect(writes(transport)).toEqual([[SETTINGS_NAMESPACE, ['alwaysVisible']]])
    expect(remote.requests).toMatchObject([{ ns: SETTINGS_NAMESPACE, ops: [{ path: ['alwaysVisible'], value: [] }, { path: ['neverSearch'], value: ['web_search'] }] }])
    expect(remote.requests[0]?.expectedRevision).toBeTypeOf('number')
    expect(within(screen.getByRole('list', { name: 'Never search' })).getByText('web_search')).toBeTruthy()

    // A stale revision is told as a conflict, in the remote's spelling of it.
    const face = on.slots.entry('settings.plugin.item', SETTINGS_NAMESPACE)!.inject() as unknown as ToolSearchCardFace
    transport.follow = false
    await h.ctx.settings.update(settingsNamespace(SETTINGS_NAMESPACE), { defaultLimit: 7 })
    expect(await face.setPolicy('web_search', 'always')).toMatchObject({ ok: false, reason: 'conflict' })
    expect(remote.requests).toHaveLength(2)
    expectNoNotice()
  })
})

describe('the client module on DSH 0.1.7\'s page (emulated)', () => {
  it('runs before any settings service exists, takes configForms and plugins.row.config when they arrive, shows and edits the settings by row id', async () => {
    const h = await dsh()
    const on = newPage()
    await loadModule(on)
    const { client } = await provideLaterSettings(on.root, new LaterSettingsRemote(h.ctx))
    on.slots.declareKeyed(...LATER_CONFIG_SLOTS)
    expect(on.slots.keys('plugins.row.config')).toEqual([`@anionex/dsh-tool-search#${PLUGIN_ID}`])
    expect(ROW_CONFIG_KEY).toBe(`@anionex/dsh-tool-search#${PLUGIN_ID}`)
    expect(on.slots.keys('plugins.bundle.config')).toEqual([])

    const summary = render(renderEntry(on, 'plugins.row.config', ROW_CONFIG_KEY, { view: 'summary' }))
    expect(summary.container.textContent).toBe(en.description)
    summary.unmount()

    render(renderEntry(on, 'plugins.row.config', ROW_CONFIG_KEY, { view: 'page', form: client.forms.pageForm(PLUGIN_ID) }))
    await screen.findByRole('table')
    expect(screen.queryByRole('button', { name: /Tool Search/ })).toBeNull()
    expect((screen.getByRole('textbox', { name: 'Results per search' }) as HTMLInputElement).value).toBe('5')
    await moveWebSearch(h)
    expect(writes(client)).toEqual([[PLUGIN_ID, ['alwaysVisible']], [PLUGIN_ID, ['alwaysVisible', 'neverSearch']]])
    expect(client.requests[1]).toMatchObject({ ops: [{ op: 'set', path: ['alwaysVisible'], value: [] }, { op: 'set', path: ['neverSearch'], value: ['web_search'] }] })
    expect(client.requests[1]?.expectedRevision).toBeTypeOf('number')
    expect(within(screen.getByRole('list', { name: 'Never search' })).getByText('web_search')).toBeTruthy()

    expect(await saveRefusedCount(on, 'plugins.row.config', ROW_CONFIG_KEY)).toEqual({ ok: false, reason: 'refused' })
    await screen.findByText('The result count was not saved: DSH did not accept the change.', { exact: false })
    expect((screen.getByRole('textbox', { name: 'Results per search' }) as HTMLInputElement).value).toBe('5')
    expect(client.requests.at(-1)).toMatchObject({ ns: PLUGIN_ID, ops: [{ op: 'set', path: ['defaultLimit'], value: 99 }] })
    expect(h.ctx.toolSearch.settings().defaultLimit).toBe(5)
    expectNoNotice()
  })

  it('says on its page why it is empty when the page takes configForms away', async () => {
    const h = await dsh()
    const on = newPage()
    on.slots.declareKeyed(...LATER_CONFIG_SLOTS)
    const { fiber } = await provideLaterSettings(on.root, new LaterSettingsRemote(h.ctx))
    await loadModule(on)
    render(renderEntry(on, 'plugins.row.config', ROW_CONFIG_KEY, { view: 'page' }))
    await screen.findByRole('table')
    await fiber.dispose()
    await screen.findByText(en.unavailable)
    expect(screen.queryByRole('table')).toBeNull()
  })

  it('keeps the page but shows no settings to a remote browser', async () => {
    const h = await dsh()
    const on = newPage()
    on.slots.declareKeyed(...LATER_CONFIG_SLOTS)
    await provideLaterSettings(on.root, new LaterSettingsRemote(h.ctx, 'memory'))
    await loadModule(on)
    render(renderEntry(on, 'plugins.row.config', ROW_CONFIG_KEY, { view: 'page' }))
    await screen.findByText(en.unavailable)
    expectNoNotice()
  })
})

describe('a page that offers both settings services', () => {
  it('takes the one that serves the plugin\'s settings: here settingsScope, where configForms has no form for the row', async () => {
    const h = await dsh()
    const on = newPage()
    const remote = new LaterSettingsRemote(h.ctx, 'write', 'another-row')
    await provideLaterSettings(on.root, remote, { connection: false })
    const transport = new SettingsTransport(h.ctx, SETTINGS_NAMESPACE)
    await provideRc8Settings(on.root, transport)
    on.slots.declareKeyed(...LATER_CONFIG_SLOTS)
    await loadModule(on)
    render(renderEntry(on, 'plugins.row.config', ROW_CONFIG_KEY, { view: 'page' }))
    await screen.findByRole('table')
    await moveWebSearch(h)
    expect(writes(transport)).toEqual([[SETTINGS_NAMESPACE, ['alwaysVisible']], [SETTINGS_NAMESPACE, ['alwaysVisible', 'neverSearch']]])
    expect(remote.requests).toEqual([])
    expectNoNotice()
  })
})

describe('a page that offers the card no settings or no place', () => {
  it('with no settings service: the module runs, its page says the settings are not offered, and the console says so once', async () => {
    const on = newPage()
    on.slots.declareKeyed(...LATER_CONFIG_SLOTS)
    await loadModule(on)
    render(renderEntry(on, 'plugins.row.config', ROW_CONFIG_KEY, { view: 'page' }))
    expect(screen.getByText(en.unavailable)).toBeTruthy()
    vi.advanceTimersByTime(HOST_SETTLE_MS - 1)
    expect(warn).not.toHaveBeenCalled()
    vi.advanceTimersByTime(3 * HOST_SETTLE_MS)
    expect(warn).toHaveBeenCalledTimes(1)
    const [message] = warn.mock.calls[0]!
    expect(message).toMatch(/^dsh-tool-search: the Tool Search card cannot show the plugin's settings: 10 s after loading, this page offers no settings service the card can read \(configForms on DSH 0\.1\.7 and later, settingsScope before\)\. tool_search itself runs as configured/)
    expect(message).not.toContain('no place')
  })

  it('with no slot for the card: the module runs and the console says so once', async () => {
    const h = await dsh()
    const on = newPage()
    await provideRc8Settings(on.root, new SettingsTransport(h.ctx, SETTINGS_NAMESPACE))
    await loadModule(on)
    vi.advanceTimersByTime(3 * HOST_SETTLE_MS)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]![0]).toContain('this page offers no place for the card (the Plugin Manager\'s plugins.row.config on DSH 0.1.7 and later, Settings\' settings.plugin.item before)')
    expect(warn.mock.calls[0]![0]).not.toContain('no settings service')
  })

  it('with neither, in one line', async () => {
    const on = newPage()
    await loadModule(on)
    vi.advanceTimersByTime(HOST_SETTLE_MS)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]![0]).toMatch(/offers no settings service .*, and no place for the card/)
  })
})
