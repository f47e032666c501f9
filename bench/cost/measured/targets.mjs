// The tools a measured session's turns need, one per search turn, and the words the model asks
// tool_search for each.
//
// The first is the token table's own search: its query, and the tool it ranked first. The model
// the cost section computes (bench/cost/session.mjs) has every search bring new tools while any
// remain deferred, so the later turns need tools that earlier searches are unlikely to have
// loaded: catalog tools spread evenly over the catalog's order (which groups a server's or an
// API's tools together), the token table's hits left out, each asked for with the first words of
// its own description, as a model would word a need it read in a task.
//
// DSH's own tools are in every measured session beside the catalog (the headless profile
// registers them), and only two of its deferred ones can run here without side effects or the
// network: `str_replace_editor` (its `view` reads a file) and `web_search` (answered by the
// scripted server, see scripted-model.mjs). Those two are the DSH row's targets.

/**
 * @typedef {{type: 'function', function: {name: string, description?: string, parameters?: Record<string, any>}}} WireTool
 * @typedef {object} Target
 * @property {string} name
 * @property {string} query - what the model asks tool_search for
 * @property {(file: string) => Record<string, unknown>} arguments - the call's arguments, given a
 *   file the call may read
 */

/** Words of a description a query keeps. */
const QUERY_WORDS = 12

/** DSH's built-in tools a session can run, with the arguments the scripted model gives them. */
const RUNNABLE_BUILTINS = /** @type {Record<string, Target['arguments']>} */ ({
  web_search: () => ({ queries: ['release notes of the latest version'] }),
  str_replace_editor: (file) => ({ command: 'view', path: file }),
})

/**
 * @param {object} row
 * @param {readonly WireTool[]} row.catalog - the row's tools as DSH sends them (the token table's
 *   turn without the plugin records them).
 * @param {string} row.query - the token table's query.
 * @param {readonly string[]} row.hits - the token table's hits, best first.
 * @param {ReadonlySet<string>} row.builtins - DSH's own tool names.
 * @param {ReadonlySet<string>} row.core - tools the plugin never defers.
 * @param {number} count - targets wanted (the longest session's search turns); fewer when the
 *   catalog has fewer runnable deferred tools.
 * @returns {Target[]}
 */
export function sessionTargets({ catalog, query, hits, builtins, core }, count) {
  const runnable = catalog.filter(({ function: { name } }) => !core.has(name) && (!builtins.has(name) || Object.hasOwn(RUNNABLE_BUILTINS, name)))
  const byName = new Map(runnable.map((tool) => [tool.function.name, tool]))
  const first = hits.find((name) => byName.has(name))
  const others = runnable.filter((tool) => !hits.includes(tool.function.name))
  const spread = evenlySpaced(others, Math.max(0, count - (first === undefined ? 0 : 1)))
  return [
    ...first === undefined ? [] : [target(/** @type {WireTool} */ (byName.get(first)), query)],
    ...spread.map((tool) => target(tool, describedNeed(tool))),
  ]
}

/**
 * @param {WireTool} tool
 * @param {string} query
 * @returns {Target}
 */
function target({ function: { name, parameters } }, query) {
  const builtin = RUNNABLE_BUILTINS[name]
  return { name, query, arguments: builtin ?? (() => exampleArguments(parameters)) }
}

/**
 * `count` items spread evenly over `items`, in their order: the middle of each of `count` equal
 * stretches.
 * @template T
 * @param {readonly T[]} items
 * @param {number} count
 * @returns {T[]}
 */
export function evenlySpaced(items, count) {
  const n = Math.min(count, items.length)
  return Array.from({ length: n }, (_, i) => /** @type {T} */ (items[Math.floor(((i + 0.5) * items.length) / n)]))
}

/**
 * A model's words for needing a tool: its description's first sentence, at most
 * {@link QUERY_WORDS} words; the name's words when it has no description.
 * @param {WireTool} tool
 */
export function describedNeed({ function: { name, description = '' } }) {
  const sentence = description.replace(/\s+/g, ' ').trim().split(/(?<=[.!?])\s/)[0] ?? ''
  const words = (sentence === '' ? name.replace(/[^A-Za-z0-9]+/g, ' ') : sentence.replace(/[.!?]$/, '')).trim().split(' ')
  return words.slice(0, QUERY_WORDS).join(' ')
}

/**
 * Arguments that satisfy a JSON Schema's required properties with the plainest value of each
 * type: what the benchmark's tools are called with (they answer alike whatever they get).
 * @param {Record<string, any> | undefined} schema
 * @returns {Record<string, unknown>}
 */
export function exampleArguments(schema) {
  const properties = schema?.properties ?? {}
  /** @type {string[]} */
  const required = Array.isArray(schema?.required) ? schema.required : []
  return Object.fromEntries(required.filter((key) => Object.hasOwn(properties, key)).map((key) => [key, exampleValue(properties[key])]))
}

/** @param {Record<string, any> | undefined} schema @returns {unknown} */
function exampleValue(schema) {
  if (Array.isArray(schema?.enum) && schema.enum.length > 0) return schema.enum[0]
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type
  switch (type) {
    case 'integer': case 'number': return schema?.minimum ?? 1
    case 'boolean': return true
    case 'array': return []
    case 'object': return exampleArguments(schema)
    case 'null': return null
    default: return 'example'
  }
}
