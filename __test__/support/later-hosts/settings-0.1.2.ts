/**
 * emulated: the settings service of DSH 0.1.2 to 0.1.6 (generation 2), built on the real rc.8
 * file provider (`@deepseek-ai/dsh-settings-file@0.1.0-rc.8`).
 *
 * Source: zsagi1368/deepseek-harness-zDSH packages/settings/settings/README.md@d128b28263d4c08149e95791922006e0b20a6e38
 * (0.1.5-rc.2) documents `ctx.settings.installSection(owner, ns, schema, entry, hooks)`: while the
 * service exists it registers the namespace with the plugin's row config as `base`, and when the
 * service goes away the plugin falls back to that config; `register` is still there. Its official
 * caller, packages/shell/bash-local/src/index.ts@85e854eadfe808b1d9b9df7e55e210747c8b8dc6, calls it
 * from inside `ctx.inject(['settings'], …)` with its own context as `owner` and a plain string
 * namespace. The method's own source (0.1.2-0.1.6 src/index.ts) is in no index we reach, so its body
 * here is rc.8's `installSettingsSection` from step 2 on, re-homed as a method (installed
 * dsh-settings@0.1.0-rc.8 lib/index.js), which is also what third-party test stubs of it do [report].
 */

import type { Context } from '@deepseek-ai/cordis'
import type { SettingsNamespace } from '@deepseek-ai/dsh-settings'
import FileSettingsProvider from '@deepseek-ai/dsh-settings-file'
import type z from '@deepseek-ai/schemastery'

/** What `installSection` tells the plugin. */
export interface InstallSectionHooks<T> {
  setSource(current: () => T): void
  onChange(): void
}

/** emulated: rc.8's file provider with 0.1.2's `installSection` method. */
export class InstallSectionSettings extends FileSettingsProvider {
  /** The namespaces `installSection` was called for, in order: which path a plugin took. */
  readonly installed: string[] = []

  installSection<T>(owner: Context, ns: string, schema: z<T>, entry: T, hooks: InstallSectionHooks<T>): void {
    this.installed.push(ns)
    const scope = this.register(ns as SettingsNamespace, schema, { base: entry })
    hooks.setSource(() => scope.get())
    this.ctx.effect(() => () => {
      if (unloading(owner)) return
      hooks.setSource(() => entry)
      hooks.onChange()
    })
    hooks.onChange()
    scope.watch(() => {
      if (!unloading(owner)) hooks.onChange()
    })
  }
}

/** cordis 4 `FiberState` DISPOSED (4) and UNLOADING (5), as rc.8's settings module compares them. */
function unloading(ctx: Context): boolean {
  const state = ctx.fiber.state as number
  return state === 4 || state === 5
}
