/**
 * Live settings: the row config, overridden by the `tool-search` section of DSH's settings while
 * a service that keeps sections is mounted (DSH 0.1.0-rc.8 to 0.1.6), or edited in the row itself
 * (0.1.7 and later, where the row's fields are the settings). Which of these the host does is
 * `dsh/settings.ts`'s business; this file only keeps the settings in force and says when they change.
 */

import type { Context } from '@deepseek-ai/cordis'
import type { SettingsNamespace } from '@deepseek-ai/dsh-settings'
import { PLUGIN_ID, SETTINGS_NAMESPACE } from '../contract.ts'
import { PlainConfig, acceptSection, normalizeSettings, rowValues, sameSettings, type AppliedConfig, type Config, type ToolSearchSettings } from './config.ts'
import { installSettings, onVolatileUpdate } from './dsh/settings.ts'
import { message } from './report.ts'

/** The settings section this plugin owns under DSH 0.1.0-rc.8 to 0.1.6 (a plain string from 0.1.2 on). */
export const TOOL_SEARCH_SETTINGS_NAMESPACE = SETTINGS_NAMESPACE as SettingsNamespace

/** The current normalized settings plus change notification. */
export interface LiveSettings {
  /** The settings in force right now. */
  readonly current: ToolSearchSettings
  /**
   * Observe committed changes (only real changes: a write that normalizes to the same value is
   * not reported).
   * @param listener - called with the new and the previous settings.
   */
  onChange(listener: (next: ToolSearchSettings, prev: ToolSearchSettings) => void): void
}

/**
 * Wire the plugin's settings. With no settings service the row config stays in force, read live
 * (an edit of only its fields reaches the running plugin); a service mounted later is picked up,
 * and when it goes away the row config comes back.
 * @param ctx - the plugin context that owns the wiring.
 * @param config - the row config as `apply` received it.
 * @returns the live view.
 */
export function installToolSearchSettings(ctx: Context, config: Partial<AppliedConfig>): LiveSettings {
  const row = (): Partial<Config> => rowValues(config)
  /** The section that overrides the row, while one does. */
  let section: (() => Partial<Config>) | undefined
  let current = normalizeSettings(row())
  const listeners: ((next: ToolSearchSettings, prev: ToolSearchSettings) => void)[] = []
  const refresh = (): void => {
    const prev = current
    let next: ToolSearchSettings
    try {
      next = normalizeSettings((section ?? row)())
    } catch (error) {
      ctx.logger.warn(`dsh-tool-search: the new settings were not applied: ${message(error)}`)
      return
    }
    if (sameSettings(prev, next)) return
    current = next
    for (const listener of listeners) listener(next, prev)
  }
  onVolatileUpdate(ctx, () => {
    if (section === undefined) return refresh()
    // The row is the section's base layer, which the service took when the section was set up:
    // set it up again on the new row, as a remount did before the row's fields were live.
    ctx.fiber.restart().catch((error: unknown) => { ctx.logger.warn(`dsh-tool-search: the row's new settings were not applied: ${message(error)}`) })
  })
  installSettings(ctx, {
    namespace: SETTINGS_NAMESPACE,
    schema: PlainConfig,
    row: () => PlainConfig(row()),
    section: {
      attach: (current) => { section = current },
      detach: () => {
        section = undefined
        refresh()
      },
      onChange: refresh,
    },
    legacy: { name: SETTINGS_NAMESPACE, rowId: PLUGIN_ID, accept: acceptSection },
  })
  return {
    get current() { return current },
    onChange: (listener) => { listeners.push(listener) },
  }
}
