// @vitest-environment jsdom
// The card on DSH 0.1.7 from end to end, both halves EMULATED from 0.1.7's source and joined: the
// client module's `apply` on 0.1.7's page (configForms and plugins.row.config,
// support/later-client.ts), whose `remote.settings` reaches the host's settings controller and
// `SettingsForms` over the plugin mounted as a real loader row (support/later-hosts/settings-0.1.7.ts).
// What the card shows is the row's volatile fields as the host describes them, and what it saves
// is committed into the running plugin by the loader's volatile update.

import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Plugin } from '@deepseek-ai/cordis'
import WebServer from '@deepseek-ai/dsh-host-webserver'
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ToolSearchCardFace } from '../../plugin/client/card-controller.ts'
import { ROW_CONFIG_KEY } from '../../plugin/client/card-slots.ts'
import * as clientModule from '../../plugin/client/index.ts'
import { PLUGIN_ID } from '../../plugin/contract.ts'
import * as ToolSearch from '../../plugin/index.ts'
import { createHarness, tempDir, type Harness, NATIVE } from '../support/harness.ts'
import { addRow, mountLaterHost, settingsForms } from '../support/later-hosts/settings-0.1.7.ts'
import { reply, toolCall } from '../support/scripted-model.ts'
import { foundNames, loggedResult } from '../support/session.ts'
import { searchByDefault } from '../support/settings.ts'
import { clientPage, renderEntry, type ClientPage } from './support/client-page.ts'
import { LATER_CONFIG_SLOTS, LaterSettingsRemote, provideLaterSettings, type LaterClient } from './support/later-client.ts'

// A write here crosses the loader's reconcile and the catalog route before the page shows it.
configure({ asyncUtilTimeout: 5_000 })

let harness: Harness | undefined
let loaded: { dispose(): unknown } | undefined
const homes: string[] = []
afterEach(async () => {
  cleanup()
  await loaded?.dispose()
  vi.unstubAllGlobals()
  await harness?.close()
  harness = loaded = undefined
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true })
})

/**
 * DSH 0.1.7's host (emulated settings, real loader) with DSH's web server and the plugin as the
 * profile's `dsh-tool-search` row; `legacy` is the settings.yaml a user of an older DSH left in
 * `$DSH_HOME`.
 */
async function laterDsh(legacy?: string): Promise<Harness> {
  const h = harness = await createHarness({ plugin: false })
  const home = await tempDir()
  homes.push(home)
  if (legacy !== undefined) await writeFile(join(home, 'settings.yaml'), legacy)
  await h.ctx.plugin(WebServer, { host: '127.0.0.1', port: 0 })
  await mountLaterHost(h.ctx, home)
  await addRow(h.ctx, PLUGIN_ID, ToolSearch, { ...NATIVE })
  // The page is DSH's own, so the card's catalog requests go to DSH's web server.
  const fetchFromNode = globalThis.fetch
  const server = new URL(`http://127.0.0.1:${h.ctx.get('webServer')!.port}`)
  vi.stubGlobal('fetch', (input: string | URL, init?: RequestInit) => fetchFromNode(new URL(String(input), server), init))
  return h
}

/** DSH 0.1.7's page over that host, with the client module loaded and the row's page drawn. */
async function laterPage(h: Harness): Promise<{ on: ClientPage; client: LaterClient }> {
  const on = clientPage()
  on.slots.declareKeyed(...LATER_CONFIG_SLOTS)
  const { client } = await provideLaterSettings(on.root, new LaterSettingsRemote(h.ctx))
  // The module object itself, as the page loads it (its `ctx` type is the module's own slice).
  loaded = await on.root.plugin(clientModule as unknown as Plugin)
  render(renderEntry(on, 'plugins.row.config', ROW_CONFIG_KEY, { view: 'page', form: client.forms.pageForm(PLUGIN_ID) }))
  await screen.findByRole('table')
  return { on, client }
}

/** What the profile's row sets for the plugin, as the host describes it. */
function rowUser(h: Harness): unknown {
  return settingsForms(h.ctx).describe().find(row => row.ns === PLUGIN_ID)?.user
}

function countInput(): HTMLInputElement {
  return screen.getByRole('textbox', { name: 'Results per search' })
}

/** The names a fresh Agent's search for `query` finds. */
async function found(h: Harness, agentId: string, query: string): Promise<string[]> {
  const { agent } = await h.agent(agentId)
  await h.run(agent, 'tools?', toolCall('c1', 'tool_search', { query }), reply('ok'))
  return foundNames(loggedResult(agent, 'c1'))
}

describe('the card on DSH 0.1.7\'s page over DSH 0.1.7\'s host (both emulated, real loader row)', () => {
  it('shows the row the host serves, refuses 99, and its edits reach the running plugin without a remount', async () => {
    const h = await laterDsh()
    const fiber = h.ctx.loader.resolve(PLUGIN_ID).fiber
    const { on, client } = await laterPage(h)
    const described = settingsForms(h.ctx).describe()[0]!
    expect(client.forms.get(PLUGIN_ID).getSnapshot()).toMatchObject({ status: 'ready', value: described.value, user: { loading: 'native' }, revision: described.revision, writable: true, mode: 'host' })
    expect(countInput().value).toBe('5')

    const face = on.slots.entry('plugins.row.config', ROW_CONFIG_KEY)!.inject() as unknown as ToolSearchCardFace
    expect(await face.saveSetting('defaultLimit', 99)).toEqual({ ok: false, reason: 'refused' })
    await screen.findByText('The result count was not saved: DSH did not accept the change.', { exact: false })
    expect(client.requests.at(-1)).toMatchObject({ ns: PLUGIN_ID, ops: [{ op: 'set', path: ['defaultLimit'], value: 99 }] })
    expect([countInput().value, rowUser(h), h.ctx.toolSearch.settings().defaultLimit]).toEqual(['5', { loading: 'native' }, 5])

    fireEvent.change(countInput(), { target: { value: '3' } })
    fireEvent.submit(countInput().form!)
    await waitFor(() => { expect(rowUser(h)).toEqual({ loading: 'native', defaultLimit: 3 }) })
    expect(h.ctx.loader.resolve(PLUGIN_ID).fiber).toBe(fiber)
    const search = h.ctx.tools.schemas().find(tool => tool.name === 'tool_search')
    expect(JSON.stringify(search?.parameters)).toContain('Default: 3.')
    expect(await searchByDefault(h, 'a')).toEqual({ stated: '3', found: 3 })

    const policy = screen.getByRole('combobox', { name: 'Policy for web_search' })
    fireEvent.change(policy, { target: { value: 'always' } })
    await waitFor(() => { expect(rowUser(h)).toMatchObject({ alwaysVisible: ['web_search'] }) })
    await h.run((await h.agent('b')).agent, 'hello', reply('ok'))
    expect(h.model.toolNames()).toContain('web_search')
    await waitFor(() => { expect((policy as HTMLSelectElement).value).toBe('always') })
    fireEvent.change(policy, { target: { value: 'never' } })
    await waitFor(() => { expect(rowUser(h)).toEqual({ loading: 'native', defaultLimit: 3, alwaysVisible: [], neverSearch: ['web_search'] }) })
    expect(client.requests.at(-1)).toMatchObject({ ns: PLUGIN_ID, ops: [{ path: ['alwaysVisible'], value: [] }, { path: ['neverSearch'], value: ['web_search'] }], expectedRevision: expect.any(Number) })
    expect(await found(h, 'c', 'search the web for result snippets')).not.toContain('web_search')
    expect(within(screen.getByRole('list', { name: 'Never search' })).getByText('web_search')).toBeTruthy()
    expect(h.ctx.loader.resolve(PLUGIN_ID).fiber).toBe(fiber)
  })

  it('refuses a save planned from a revision the row moved past as a conflict, then shows what the row holds', async () => {
    const h = await laterDsh()
    const { on, client } = await laterPage(h)
    client.follow = false
    await settingsForms(h.ctx).update(PLUGIN_ID, { defaultLimit: 4 })
    const face = on.slots.entry('plugins.row.config', ROW_CONFIG_KEY)!.inject() as unknown as ToolSearchCardFace
    expect(await face.saveSetting('defaultLimit', 6)).toEqual({ ok: false, reason: 'conflict' })
    await waitFor(() => { expect(countInput().value).toBe('4') })
    expect([rowUser(h), h.ctx.toolSearch.settings().defaultLimit]).toEqual([{ loading: 'native', defaultLimit: 4 }, 4])
  })

  it('shows a user\'s tool-search: section of settings.yaml as the plugin carried it into the row', async () => {
    const h = await laterDsh('tool-search:\n  defaultLimit: 2\n  alwaysVisible: [web_search]\n')
    const { client } = await laterPage(h)
    const carried = { loading: 'native', defaultLimit: 2, alwaysVisible: ['web_search'] }
    await waitFor(() => { expect(countInput().value).toBe('2') })
    expect(within(screen.getByRole('list', { name: 'Always visible' })).getByText('web_search')).toBeTruthy()
    expect(client.forms.get(PLUGIN_ID).getSnapshot().user).toEqual(carried)
    expect(h.ctx.loader.resolve(PLUGIN_ID).options.config).toEqual(carried)
    expect(await searchByDefault(h, 'a')).toEqual({ stated: '2', found: 2 })
  })
})
