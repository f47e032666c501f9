// emulated: the export surfaces of later DSH releases' modules, for Node's module customization
// hooks (`module.register`). Modules imported from the scopes given at registration (the built
// plugin) see `@deepseek-ai/dsh-settings` and `@deepseek-ai/dsh-llm` as later releases export
// them, while the rest of the graph keeps the real rc.8 modules: each reshaped module is a facade
// over the one real rc.8 instance, re-exporting its bindings less the names a later release
// removed, plus those it added.
//
//   @deepseek-ai/dsh-settings  installSettingsSection and settingsNamespace are gone from
//     0.1.2-alpha.2 [reports: anweat/dsh-web-search-pro#19, caob23/dsh-browser-control#1,
//     dsh-market/dsh-market#445]; absent from zsagi1368/deepseek-harness-zDSH
//     packages/settings/settings/src/index.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68 (0.1.7-rc.2)
//     and kinetick-labs/KinetickHarness packages/settings/settings/src/index.ts@1503dc9c0576b5cf357718f4cca0f56c0f226a43 (0.2.1)
//   @deepseek-ai/dsh-llm  CallId is ToolCallId, no alias: zDSH packages/llm/llm/src/brand.ts@85e854eadfe808b1d9b9df7e55e210747c8b8dc6
//     (0.1.5-rc.2), Kinetick packages/llm/llm/src/brand.ts@2fc60a6cfcccaee31a4381a59c015d499b202c8b (0.2.1)

/** Per package: the names a later release no longer exports, and the names it adds (as which rc.8 binding). */
const RESHAPED = {
  '@deepseek-ai/dsh-settings': { removed: ['installSettingsSection', 'settingsNamespace'], added: {} },
  '@deepseek-ai/dsh-llm': { removed: ['CallId'], added: { ToolCallId: 'CallId' } },
}

const SCHEME = 'dsh-later-host:'

/** @type {string[]} */
let scopes = []

/** @param {{ scopes: string[] }} data */
export function initialize(data) {
  scopes = data.scopes
}

/**
 * @param {string} specifier
 * @param {{ parentURL?: string }} context
 * @param {(specifier: string, context: object) => Promise<{ url: string }>} next
 */
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  const parent = context.parentURL ?? ''
  if (!Object.hasOwn(RESHAPED, specifier) || !scopes.some(scope => parent.startsWith(scope))) return resolved
  return { url: `${SCHEME}${specifier}#${resolved.url}`, shortCircuit: true }
}

/**
 * @param {string} url
 * @param {object} context
 * @param {(url: string, context: object) => Promise<object>} next
 */
export async function load(url, context, next) {
  if (!url.startsWith(SCHEME)) return next(url, context)
  const cut = url.indexOf('#')
  const name = /** @type {keyof typeof RESHAPED} */ (url.slice(SCHEME.length, cut))
  const real = url.slice(cut + 1)
  const { removed, added } = RESHAPED[name]
  const exported = Object.keys(await import(real)).filter(key => key !== 'default' && !removed.includes(key))
  const lines = [
    `import * as real from ${JSON.stringify(real)}`,
    ...exported.map(key => `export const ${key} = real.${key}`),
    ...Object.entries(added).map(([key, from]) => `export const ${key} = real.${from}`),
    'export default real.default',
  ]
  return { format: 'module', source: lines.join('\n'), shortCircuit: true }
}
