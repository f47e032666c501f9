/**
 * The module-load run's child process (module-load.spec.ts): imports a module through the later
 * releases' export surfaces (settings-exports-hooks.mjs, emulated), then, when it is the built
 * plugin, mounts it in an in-process DSH on the real rc.8 packages with rc.8's file settings,
 * searches, edits `defaultLimit` and searches again. Prints one JSON line of what it saw.
 *
 *   node --experimental-transform-types settings-module-load.ts <module URL> <scope URL>...
 */

import { register } from 'node:module'
import type { Plugin } from '@deepseek-ai/cordis'
import { createHarness, NATIVE } from '../harness.ts'
import { changeSettings, searchByDefault } from '../settings.ts'

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
const h = await createHarness({ plugin: false, settings: true })
await h.ctx.plugin(plugin as unknown as Plugin, NATIVE)
const before = await searchByDefault(h, 'a')
await changeSettings(h, { defaultLimit: 2 })
const after = await searchByDefault(h, 'b')
said({ imported: true, name: plugin.name, before, after, warnings: h.warnings, errors: h.errors })
await h.close()
