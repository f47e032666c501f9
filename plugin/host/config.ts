/**
 * The plugin's configuration: the schemastery schemas the DSH loader and the settings service
 * validate against, and the normalized form the rest of the plugin reads. All are derived from
 * the fields in contract.ts, which the web card reads too.
 */

import z from '@deepseek-ai/schemastery'
import { SETTINGS, SETTING_KEYS, TOOL_SEARCH_NAME, compareNames, inBounds, sameNames, type SettingField, type SettingKey, type SettingsSection } from '../contract.ts'
import { liveValue, volatileField, type Live } from './dsh/settings.ts'
import { message } from './report.ts'

/** Plugin config, as written in a `cordis.patch.yml` row or the `tool-search` settings section. */
export type Config = { -readonly [K in SettingKey]: SettingsSection[K] extends readonly string[] ? string[] : SettingsSection[K] }

/** The row config as `apply` receives it: a field is a live reference where it is volatile. */
export type AppliedConfig = { readonly [K in SettingKey]: Config[K] | Live<Config[K]> }

/**
 * The row's schema, the module's `Config`. Every field is volatile where the host's schemastery
 * can mark it so: DSH 0.1.7+ serves those fields as the row's settings form, and the loader
 * commits an edit of them into the running plugin without a remount. Input may omit any field
 * (the schema fills the defaults).
 */
export const Config = z.object(Object.fromEntries(
  SETTING_KEYS.map(key => [key, volatileField(fieldSchema(SETTINGS[key]))]),
)) as unknown as z<Partial<Config>, AppliedConfig>

/**
 * The same fields, plain: the `tool-search` section's schema under the settings services that
 * resolve a section over the row (DSH 0.1.0-rc.8 to 0.1.6), which would throw on a volatile
 * reference.
 */
export const PlainConfig = z.object(Object.fromEntries(
  SETTING_KEYS.map(key => [key, fieldSchema(SETTINGS[key])]),
)) as unknown as z<Partial<Config>, Config>

function fieldSchema(field: SettingField): z {
  switch (field.kind) {
    case 'number': return z.natural().min(field.min).max(field.max).default(field.default).description(field.description)
    case 'names': return z.array(z.string()).default([...field.default]).description(field.description)
    case 'choice': return z.union(field.choices.map(choice => z.const(choice))).default(field.default).description(field.description)
  }
}

/** The row config's values now, read through their references. */
export function rowValues(config: Partial<AppliedConfig>): Partial<Config> {
  const present = SETTING_KEYS.filter(key => config[key] !== undefined)
  return Object.fromEntries(present.map(key => [key, liveValue(config[key])])) as Partial<Config>
}

/**
 * The fields of an old `tool-search:` section the plugin takes, each checked by its schema, and
 * why each other one is refused (an unknown key, or a value its schema rejects).
 */
export function acceptSection(section: Readonly<Record<string, unknown>>): { values: Partial<Config>; refused: string[] } {
  const values: Record<string, unknown> = {}
  const refused: string[] = []
  for (const [key, value] of Object.entries(section)) {
    // An empty entry (`defaultLimit:`) sets nothing.
    if (value === null || value === undefined) continue
    if (!(SETTING_KEYS as readonly string[]).includes(key)) {
      refused.push(`${key} (not a setting of this plugin)`)
      continue
    }
    try {
      fieldSchema(SETTINGS[key as SettingKey])(value)
      values[key] = value
    } catch (error) {
      refused.push(`${key} (${message(error)})`)
    }
  }
  return { values: values as Partial<Config>, refused }
}

/**
 * {@link Config} after normalization: what every other module reads. Name lists are trimmed,
 * de-duplicated and sorted by {@link compareNames}, empty names dropped; `neverSearch` never
 * contains `tool_search`, which would leave the model no way to find tools.
 */
export type ToolSearchSettings = SettingsSection

/**
 * Normalize one resolved config. The schema has already checked types when the value comes from
 * the loader or the settings service; a direct `ctx.plugin(apply, config)` call does not go through
 * either, so numbers are checked here as well rather than trusted.
 * @param config - a resolved config, possibly partial when applied without the loader.
 * @returns the normalized settings.
 */
export function normalizeSettings(config: Partial<Config>): ToolSearchSettings {
  const fields = SETTING_KEYS.map(key => [key, normalizeField(key, config[key])] as const)
  const settings = Object.fromEntries(fields) as unknown as ToolSearchSettings
  return { ...settings, neverSearch: settings.neverSearch.filter(name => name !== TOOL_SEARCH_NAME) }
}

/** Whether two normalized settings values are the same. */
export function sameSettings(a: ToolSearchSettings, b: ToolSearchSettings): boolean {
  return SETTING_KEYS.every((key) => {
    const [x, y] = [a[key], b[key]]
    return Array.isArray(x) && Array.isArray(y) ? sameNames(x, y) : x === y
  })
}

function normalizeField(key: SettingKey, value: number | string | readonly string[] | undefined): number | string | string[] {
  const field: SettingField = SETTINGS[key]
  if (field.kind === 'names') return normalizeNames((value ?? field.default) as readonly string[])
  if (field.kind === 'choice') {
    const choice = value ?? field.default
    if (typeof choice !== 'string' || !field.choices.includes(choice)) {
      throw new Error(`dsh-tool-search: ${key} must be one of ${field.choices.join(', ')}, got ${String(choice)}`)
    }
    return choice
  }
  const number = (value ?? field.default) as number
  if (!inBounds(field, number)) {
    throw new Error(`dsh-tool-search: ${key} must be a whole number from ${field.min} to ${field.max}, got ${String(number)}`)
  }
  return number
}

function normalizeNames(names: readonly string[]): string[] {
  const unique = new Set(names.map(name => name.trim()).filter(name => name.length > 0))
  return [...unique].sort(compareNames)
}
