// The columns of the measured-cost table: DSH without this plugin, and the plugin under one
// configuration each, written as the `tool-search:` section of $DSH_HOME/settings.yaml. Adding a
// column is adding an entry here. A column runs when the installed plugin declares every setting
// it sets, with that value among the setting's choices; otherwise it is reported as not run, and
// the next benchmark run after the setting lands fills it in (as `loading: stable` will).

/**
 * @typedef {Record<string, string | number>} PluginSettings
 * @typedef {{id: string, label: string, settings: PluginSettings | null}} Column
 *   `settings` null: the plugin is not installed
 */

/** @type {readonly Column[]} */
export const COLUMNS = [
  { id: 'all', label: 'Without the plugin (every tool offered)', settings: null },
  { id: 'native', label: 'native', settings: { loading: 'native' } },
  { id: 'native-prefetch', label: 'native + prefetch 3', settings: { loading: 'native', prefetch: 3 } },
  { id: 'stable', label: 'stable', settings: { loading: 'stable' } },
  { id: 'stable-prefetch', label: 'stable + prefetch 3', settings: { loading: 'stable', prefetch: 3 } },
]

/** The column every other is compared with: every tool offered. */
export const BASELINE = 'all'

/**
 * Why the installed plugin cannot run a column, or undefined when it can.
 * @param {Column} column
 * @param {Record<string, {kind: string, choices?: readonly string[]}>} fields - the installed
 *   plugin's settings fields (contract.ts's SETTINGS).
 * @returns {string | undefined}
 */
export function unsupported({ settings }, fields) {
  for (const [key, value] of Object.entries(settings ?? {})) {
    const field = fields[key]
    if (field === undefined) return `the installed plugin has no \`${key}\` setting`
    if (field.kind === 'choice' && !field.choices?.includes(String(value))) return `the installed plugin's \`${key}\` setting has no choice \`${value}\``
  }
  return undefined
}

/**
 * The settings.yaml a column runs with: its settings under `tool-search:`, or nothing.
 * @param {PluginSettings} settings
 */
export function settingsYaml(settings) {
  const entries = Object.entries(settings)
  // Values are plain words and numbers; JSON strings are valid YAML scalars all the same.
  return entries.length === 0 ? '' : `tool-search:\n${entries.map(([key, value]) => `  ${key}: ${JSON.stringify(value)}\n`).join('')}`
}
