/**
 * The plugin's configuration: the schemastery schema the DSH loader and the settings service
 * validate against, and the normalized form the rest of the plugin reads.
 */

import z from '@deepseek-ai/schemastery'

/** The one tool this plugin adds; it is always offered and can never be blocked. */
export const TOOL_SEARCH_NAME = 'tool_search'

/** Largest `limit` a single search may ask for (and largest configurable default). */
export const MAX_LIMIT = 20

/** Default for `defaultLimit` when neither the row config nor the settings document sets it. */
const DEFAULT_LIMIT = 5

/** Plugin config, as written in a `cordis.patch.yml` row or the `tool-search` settings section. */
export interface Config {
  /** Results `tool_search` returns when the model omits `limit`, 1-20. */
  defaultLimit: number
  /** Exact tool names offered on every request even though they are not core tools. */
  alwaysVisible: string[]
  /** Exact tool names never offered and never searchable; wins over every other list. */
  neverSearch: string[]
}

/** Input may omit any field (the schema fills the defaults); `apply` receives the full {@link Config}. */
export const Config: z<Partial<Config>, Config> = z.object({
  defaultLimit: z.natural().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT)
    .description('Tools returned by one tool_search call when the model does not pass a limit (1-20).'),
  alwaysVisible: z.array(z.string()).default([])
    .description('Exact tool names always offered to the model, in addition to the core tools.'),
  neverSearch: z.array(z.string()).default([])
    .description('Exact tool names never offered and never found by tool_search. Wins over always-visible.'),
})

/** {@link Config} after normalization: what every other module reads. */
export interface ToolSearchSettings {
  readonly defaultLimit: number
  /** Trimmed, de-duplicated, sorted by code point; empty names dropped. */
  readonly alwaysVisible: readonly string[]
  /** Same normalization; never contains `tool_search`, which would leave the model no way to find tools. */
  readonly neverSearch: readonly string[]
}

/**
 * Normalize one resolved config. The schema has already checked types when the value comes from
 * the loader or the settings service; a direct `ctx.plugin(apply, config)` call does not go through
 * either, so the limit is checked here as well rather than trusted.
 * @param config - a resolved config, possibly partial when applied without the loader.
 * @returns the normalized settings.
 */
export function normalizeSettings(config: Partial<Config>): ToolSearchSettings {
  const defaultLimit = config.defaultLimit ?? DEFAULT_LIMIT
  if (!Number.isInteger(defaultLimit) || defaultLimit < 1 || defaultLimit > MAX_LIMIT) {
    throw new Error(`dsh-tool-search: defaultLimit must be a whole number from 1 to ${MAX_LIMIT}, got ${String(defaultLimit)}`)
  }
  return {
    defaultLimit,
    alwaysVisible: normalizeNames(config.alwaysVisible ?? []),
    neverSearch: normalizeNames(config.neverSearch ?? []).filter(name => name !== TOOL_SEARCH_NAME),
  }
}

/** Whether two normalized settings values are the same. */
export function sameSettings(a: ToolSearchSettings, b: ToolSearchSettings): boolean {
  return a.defaultLimit === b.defaultLimit
    && sameNames(a.alwaysVisible, b.alwaysVisible)
    && sameNames(a.neverSearch, b.neverSearch)
}

export function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i])
}

function normalizeNames(names: readonly string[]): string[] {
  const unique = new Set(names.map(name => name.trim()).filter(name => name.length > 0))
  // Code-point order, not locale order: tool names are identifiers, and the result must not
  // depend on the machine's locale.
  return [...unique].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}
