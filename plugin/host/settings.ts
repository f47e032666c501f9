/**
 * Live settings: the row config, overridden by the `tool-search` section of the DSH settings
 * document while a settings service is mounted.
 */

import type { Context } from '@deepseek-ai/cordis'
import { installSettingsSection, settingsNamespace } from '@deepseek-ai/dsh-settings'
import { Config, normalizeSettings, sameSettings, type ToolSearchSettings } from './config.ts'
import { SETTINGS_NAMESPACE } from '../contract.ts'

/** The settings namespace this plugin owns, as DSH's settings service names it. */
export const TOOL_SEARCH_SETTINGS_NAMESPACE = settingsNamespace(SETTINGS_NAMESPACE)

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
 * Wire the plugin's settings. With no settings service (a bare composition, or a profile without
 * `dsh-settings-file`) `installSettingsSection` never fires and the row config stays in force; when
 * the service appears, its section is layered over the row config, and when it goes away the row
 * config comes back.
 * @param ctx - the plugin context that owns the registration.
 * @param config - the row config, used as the settings `base` layer.
 * @returns the live view.
 */
export function installToolSearchSettings(ctx: Context, config: Config): LiveSettings {
  let current = normalizeSettings(config)
  let source: () => Config = () => config
  const listeners: ((next: ToolSearchSettings, prev: ToolSearchSettings) => void)[] = []
  installSettingsSection(ctx, TOOL_SEARCH_SETTINGS_NAMESPACE, Config, config, {
    setSource: (next) => { source = next },
    onChange: () => {
      const prev = current
      const next = normalizeSettings(source())
      if (sameSettings(prev, next)) return
      current = next
      for (const listener of listeners) listener(next, prev)
    },
  })
  return {
    get current() { return current },
    onChange: (listener) => { listeners.push(listener) },
  }
}
