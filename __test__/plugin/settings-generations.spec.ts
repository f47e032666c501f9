/**
 * The plugin's settings on each generation of DSH's settings service after rc.8 (whose own is
 * settings.spec.ts): DSH 0.1.2 to 0.1.6's `installSection`, 0.1.7 and 0.2's row-id forms over
 * volatile fields, and none. The later services are emulations (see their files in
 * support/later-hosts/), run on the real rc.8 runtime and, for 0.1.7, a real loader row.
 */

import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import Loader from '@deepseek-ai/cordis-plugin-loader'
import z from '@deepseek-ai/schemastery'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PLUGIN_ID } from '../../plugin/contract.ts'
import { volatileField } from '../../plugin/host/dsh/settings.ts'
import * as ToolSearch from '../../plugin/index.ts'
import { createHarness, tempDir, type Harness, NATIVE } from '../support/harness.ts'
import { InstallSectionSettings } from '../support/later-hosts/settings-0.1.2.ts'
import { addRow, mountLaterHost, settingsForms } from '../support/later-hosts/settings-0.1.7.ts'
import { changeSettings, searchByDefault } from '../support/settings.ts'

let harness: Harness | undefined
const homes: string[] = []
afterEach(async () => {
  await harness?.close()
  harness = undefined
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true })
})

describe('DSH 0.1.2 to 0.1.6: a section installed through ctx.settings.installSection (emulated)', () => {
  it('takes the installSection path, and an edit of the section reaches the plugin live', async () => {
    harness = await createHarness({ plugin: NATIVE, settings: InstallSectionSettings })
    expect((harness.ctx.get('settings') as InstallSectionSettings).installed).toEqual(['tool-search'])
    expect(await searchByDefault(harness, 'a')).toEqual({ stated: '5', found: 4 })
    await changeSettings(harness, { defaultLimit: 2 })
    expect(await searchByDefault(harness, 'b')).toEqual({ stated: '2', found: 2 })
  })

  it('hands back to the row config when the service goes away', async () => {
    harness = await createHarness({ plugin: { ...NATIVE, defaultLimit: 3 } })
    const home = await tempDir()
    homes.push(home)
    const provider = harness.ctx.plugin(InstallSectionSettings, { path: join(home, 'settings.yaml') })
    await provider
    await changeSettings(harness, { defaultLimit: 2 })
    expect(await searchByDefault(harness, 'a')).toEqual({ stated: '2', found: 2 })
    await provider.dispose()
    expect(await searchByDefault(harness, 'b')).toEqual({ stated: '3', found: 3 })
  })
})

/**
 * Start DSH 0.1.7's settings (emulated) with the plugin as a loader row; `legacy` is an old
 * settings.yaml. `said` collects the infos and debug lines the plugin and DSH log (the harness
 * keeps warnings and errors).
 */
async function laterHost(config: Record<string, unknown>, options: { settings?: boolean; legacy?: string; home?: string } = {}): Promise<{ h: Harness; home: string; said: string[] }> {
  const h = await createHarness({ plugin: false })
  harness = h
  const said: string[] = []
  h.ctx.logger.exporter({ levels: { default: 4 }, export: (message) => {
    if (message.type === 'info' || message.type === 'debug') said.push(message.args.map(String).join(' '))
  } })
  const home = options.home ?? await tempDir()
  if (options.home === undefined) homes.push(home)
  if (options.legacy !== undefined) await writeFile(join(home, 'settings.yaml'), options.legacy)
  await mountLaterHost(h.ctx, home, options.settings ?? true)
  await addRow(h.ctx, PLUGIN_ID, ToolSearch, { ...NATIVE, ...config })
  return { h, home, said }
}

describe('DSH 0.1.7 and 0.2: the row\'s volatile fields are the settings (emulated SettingsForms, real loader row)', () => {
  it('serves the row as a form the plugin draws itself; an edit by row id reaches it without a remount', async () => {
    const { h } = await laterHost({})
    const forms = settingsForms(h.ctx)
    expect(forms.describe()).toMatchObject([{ ns: PLUGIN_ID, autoGenerate: false, value: { defaultLimit: 5, loading: 'native' }, user: { loading: 'native' } }])
    expect(await searchByDefault(h, 'a')).toEqual({ stated: '5', found: 4 })

    const fiber = h.ctx.loader.resolve(PLUGIN_ID).fiber
    await forms.update(PLUGIN_ID, { defaultLimit: 2 })
    expect(h.ctx.loader.resolve(PLUGIN_ID).fiber).toBe(fiber)
    expect(await searchByDefault(h, 'b')).toEqual({ stated: '2', found: 2 })
    await expect(forms.update(PLUGIN_ID, { bogus: 1 })).rejects.toThrow('Config field "bogus" is not volatile')
  })

  it('with no settings service, the row alone sets the plugin up, and a row edit reaches it live', async () => {
    const { h } = await laterHost({ defaultLimit: 3 }, { settings: false })
    expect(h.ctx.get('settings')).toBeUndefined()
    expect(await searchByDefault(h, 'a')).toEqual({ stated: '3', found: 3 })
    const fiber = h.ctx.loader.resolve(PLUGIN_ID).fiber
    await h.ctx.loader.update(PLUGIN_ID, { config: { ...NATIVE, defaultLimit: 2 } })
    expect(h.ctx.loader.resolve(PLUGIN_ID).fiber).toBe(fiber)
    expect(await searchByDefault(h, 'b')).toEqual({ stated: '2', found: 2 })
  })

  it('keeps the fields plain where the schemastery that builds the Config has no .volatile() (before 3.18.4)', () => {
    expect(volatileField(z.natural()).meta.volatile).toBe(true)
    const older = Object.assign(z.natural(), { volatile: undefined })
    expect(volatileField(older)).toBe(older)
  })
})

describe('a user\'s tool-search: section at the first start of DSH 0.1.7 (emulated)', () => {
  const legacy = 'tool-search:\n  defaultLimit: 2\n  alwaysVisible: [web_search]\n  maxSelected: 5000\n  bogus: 1\nother-plugin:\n  x: 1\n'

  it('is carried into the row and said so, the fields it cannot take named; DSH\'s own import drops it, the file stays', async () => {
    const { h, home, said } = await laterHost({}, { legacy })
    const forms = settingsForms(h.ctx)
    await vi.waitFor(() => { expect(forms.describe()[0]?.user).toEqual({ loading: 'native', defaultLimit: 2, alwaysVisible: ['web_search'] }) })
    await vi.waitFor(() => { expect(said.join('\n')).toMatch(/carried defaultLimit, alwaysVisible from the tool-search: section of .*settings\.yaml(\.imported)? into the profile's dsh-tool-search row/) })
    expect(h.warnings.join('\n')).toMatch(/left out of the tool-search: settings carried from .* \(the file keeps them\): maxSelected \(.*\); bogus \(not a setting of this plugin\)/)
    await vi.waitFor(() => { expect(h.warnings.join('\n')).toMatch(/settings: section %s of %s was not imported into entry %s tool-search/) })
    expect(await readFile(join(home, 'settings.yaml.imported'), 'utf8')).toBe(legacy)
    expect(await searchByDefault(h, 'a')).toEqual({ stated: '2', found: 2 })
  })

  it('is carried once: a later edit of the row survives the next starts, with or without the marker', async () => {
    const first = await laterHost({}, { legacy })
    const forms = settingsForms(first.h.ctx)
    await vi.waitFor(() => { expect(forms.describe()[0]?.user).toMatchObject({ defaultLimit: 2 }) })
    await forms.update(PLUGIN_ID, { defaultLimit: 7 })
    const row = { ...first.h.ctx.loader.resolve(PLUGIN_ID).options.config as Record<string, unknown> }
    await first.h.close()

    const second = await laterHost(row, { home: first.home })
    await vi.waitFor(() => { expect(second.said.join('\n')).toContain('the old tool-search: settings were carried over before') })
    expect(settingsForms(second.h.ctx).describe()[0]?.user).toMatchObject({ defaultLimit: 7 })
    await second.h.close()

    await rm(join(first.home, 'cache'), { recursive: true })
    const third = await laterHost(row, { home: first.home })
    await vi.waitFor(() => { expect(third.h.warnings.join('\n')).toContain('was not carried over: the profile already sets defaultLimit, alwaysVisible for dsh-tool-search') })
    expect(settingsForms(third.h.ctx).describe()[0]?.user).toMatchObject({ defaultLimit: 7 })
  })

  it('with a settings.yaml that is not YAML, warns, loses nothing and still runs', async () => {
    const broken = 'tool-search: [unclosed\n'
    const { h, home } = await laterHost({ defaultLimit: 3 }, { legacy: broken })
    await vi.waitFor(() => { expect(h.warnings.join('\n')).toMatch(/settings\.yaml(\.imported)? is not valid YAML \(.*\), so its tool-search: settings were not carried over; the file is left as it is/) })
    expect(await readFile(join(home, 'settings.yaml.imported'), 'utf8')).toBe(broken)
    expect(await searchByDefault(h, 'a')).toEqual({ stated: '3', found: 3 })
  })
})

describe('a row edit under an rc.8 settings section (real rc.8 provider, real loader row)', () => {
  it('sets the section up again over the new row, which is its base', async () => {
    const h = await createHarness({ plugin: false, settings: true })
    harness = h
    await h.ctx.plugin(Loader, {})
    await addRow(h.ctx, PLUGIN_ID, ToolSearch, { ...NATIVE, defaultLimit: 3 })
    await changeSettings(h, { alwaysVisible: ['web_search'] })
    expect(await searchByDefault(h, 'a')).toEqual({ stated: '3', found: 3 })
    await h.ctx.loader.update(PLUGIN_ID, { config: { ...NATIVE, defaultLimit: 2 } })
    await h.ctx.loader.await()
    expect(await searchByDefault(h, 'b')).toEqual({ stated: '2', found: 2 })
    expect(h.model.toolNames()).toContain('web_search')
  })
})
