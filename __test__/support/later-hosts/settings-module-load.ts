/**
 * The module-load run's child process (module-load.spec.ts): imports a module through the later
 * releases' export surfaces (settings-exports-hooks.mjs, emulated), then, when it is the built
 * plugin, mounts it in an in-process DSH on the real rc.8 packages under the settings service of
 * one generation (`SETTINGS`: rc.8's real file settings, 0.1.2's `installSection`, 0.1.7's row
 * forms over a real loader row, or no service and the row alone; the later ones emulated, see
 * their files here), searches, edits `defaultLimit` the way that generation does and searches
 * again. Prints one JSON line of what it saw.
 *
 *   SETTINGS=rc.8|0.1.2|0.1.7|none node --experimental-transform-types settings-module-load.ts <module URL> <scope URL>...
 */

import { register } from 'node:module'
import { setImmediate as macrotask } from 'node:timers/promises'
import type { Plugin } from '@deepseek-ai/cordis'
import { PLUGIN_ID } from '../../../plugin/contract.ts'
import { createHarness, NATIVE, tempDir, type Harness } from '../harness.ts'
import { changeSettings, searchByDefault } from '../settings.ts'
import { InstallSectionSettings } from './settings-0.1.2.ts'
import { addRow, mountLaterHost, settingsForms } from './settings-0.1.7.ts'

/** An in-process DSH with the plugin mounted, and how that DSH changes the plugin's `defaultLimit`. */
interface Mounted {
  readonly h: Harness
  readonly setLimit: (limit: number) => Promise<void>
  /** What the host logged as errors before the plugin came: rc.8's own sections meeting 0.1.7's service. */
  readonly hostErrors?: readonly string[]
}

/** 0.1.7's host (emulated) with or without its settings service; then the plugin as its row. */
async function laterRow(plugin: Plugin, settings: boolean): Promise<{ h: Harness; hostErrors: string[] }> {
  const h = await createHarness({ plugin: false })
  await mountLaterHost(h.ctx, await tempDir(), settings)
  await macrotask()
  const hostErrors = h.errors.splice(0)
  await addRow(h.ctx, PLUGIN_ID, plugin, NATIVE)
  return { h, hostErrors }
}

/** The plugin under each generation's settings. */
const GENERATIONS: Record<string, (plugin: Plugin) => Promise<Mounted>> = {
  'rc.8': async (plugin) => {
    const h = await createHarness({ plugin: false, settings: true })
    await h.ctx.plugin(plugin, NATIVE)
    return { h, setLimit: limit => changeSettings(h, { defaultLimit: limit }) }
  },
  '0.1.2': async (plugin) => {
    const h = await createHarness({ plugin: false, settings: InstallSectionSettings })
    await h.ctx.plugin(plugin, NATIVE)
    return { h, setLimit: limit => changeSettings(h, { defaultLimit: limit }) }
  },
  '0.1.7': async (plugin) => {
    const { h, hostErrors } = await laterRow(plugin, true)
    return { h, hostErrors, setLimit: limit => settingsForms(h.ctx).update(PLUGIN_ID, { defaultLimit: limit }) }
  },
  none: async (plugin) => {
    const { h, hostErrors } = await laterRow(plugin, false)
    return { h, hostErrors, setLimit: async limit => { await h.ctx.loader.update(PLUGIN_ID, { config: { ...NATIVE, defaultLimit: limit } }) } }
  },
}

const [target, ...scopes] = process.argv.slice(2)
if (target === undefined) throw new Error('usage: settings-module-load.ts <module URL> <scope URL>...')
register(new URL('./settings-exports-hooks.mjs', import.meta.url), { data: { scopes } })

const said = (line: object): void => { process.stdout.write(`${JSON.stringify(line)}\n`) }
let plugin: Record<string, unknown>
try {
  plugin = await import(target) as Record<string, unknown>
} catch (error) {
  said({ imported: false, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) })
  process.exit(0)
}
if (typeof plugin.apply !== 'function') {
  said({ imported: true, exports: Object.keys(plugin) })
  process.exit(0)
}
const generation = GENERATIONS[process.env.SETTINGS ?? 'rc.8']
if (generation === undefined) throw new Error(`SETTINGS=${String(process.env.SETTINGS)}: not one of ${Object.keys(GENERATIONS).join(', ')}`)
const { h, setLimit, hostErrors = [] } = await generation(plugin as unknown as Plugin)
const before = await searchByDefault(h, 'a')
await setLimit(2)
const after = await searchByDefault(h, 'b')
said({ imported: true, name: plugin.name, before, after, warnings: h.warnings, errors: h.errors, hostErrors })
await h.close()
