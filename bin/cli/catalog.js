// Loading the catalog a command works on: the files given with --catalog (or the embedded default
// catalog), checked by the Rust core, as one index plus the tools as written.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ToolIndex } from '../../index.js'
import { InputError } from './errors.js'
import { publicToolName } from './mcp-name.js'

/**
 * The embedded default catalog: the benchmark's recordings of DSH's own tools and of the GitHub
 * MCP server's tools/list (see the READMEs in catalogs/dsh and catalogs/mcp), the latter
 * under the names DSH's bridge gives them. The package ships these two files for the command line.
 */
const DEFAULT_CATALOG = [
  { file: fileURLToPath(new URL('../../catalogs/dsh/headless-tools.json', import.meta.url)), mcpServer: undefined },
  { file: fileURLToPath(new URL('../../catalogs/mcp/github.json', import.meta.url)), mcpServer: 'github' },
]
const DEFAULT_LABEL = 'the default catalog of DSH 0.1.0-rc.8 and GitHub MCP server tools'

/** DSH's rule for an MCP `serverName` (dsh-mcp-client's config schema). */
const SERVER_NAME = /^[A-Za-z0-9_-]{1,32}$/

/**
 * One tool as its catalog wrote it.
 * @typedef {object} Tool
 * @property {string} name the name it is indexed and searched under
 * @property {string} written its name in the catalog (a raw MCP name when `server` is set)
 * @property {string | undefined} server the MCP server whose tools/list the tool came from, when known
 * @property {string} description "" when missing
 * @property {Record<string, unknown> | undefined} parameters its parameter (input) schema
 */

/**
 * @typedef {object} Catalog
 * @property {Tool[]} tools every tool in catalog order, repeated names included
 * @property {ToolIndex} index the core's index (a repeated name keeps its first tool)
 * @property {string} label where the tools came from, for output
 */

/**
 * @param {{ files?: string[] | undefined, mcpServer?: string | undefined }} choice `-` reads standard input
 * @returns {Catalog}
 */
export function loadCatalog({ files, mcpServer }) {
  if (mcpServer !== undefined && !SERVER_NAME.test(mcpServer)) {
    throw new InputError(`--mcp-server must be 1 to 32 characters of A-Z, a-z, 0-9, _ and - (DSH's rule for a server name), got '${mcpServer}'`)
  }
  const given = files !== undefined && files.length > 0
  if (!given && mcpServer !== undefined) throw new InputError('--mcp-server names the server of the files given with --catalog; the default catalog is named already')
  const read = given ? files.map(file => readFile(file, mcpServer)) : DEFAULT_CATALOG.map(part => readFile(part.file, part.mcpServer))
  const tools = read.flatMap(part => part.tools)
  const label = given ? files.map(shownName).join(', ') : DEFAULT_LABEL
  const only = given && read.length === 1 && mcpServer === undefined ? read[0] : undefined
  return { tools, index: only?.index ?? rebuild(tools, label), label }
}

/**
 * One index over tools from several files, or renamed by --mcp-server.
 * @param {Tool[]} tools
 * @param {string} label
 */
function rebuild(tools, label) {
  try {
    return ToolIndex.fromJson(JSON.stringify(tools.map(({ name, description, parameters }) => ({ name, description, parameters }))))
  } catch (error) {
    // JSON.stringify recurses; the core reads any depth, but only from the file as it is.
    if (error instanceof RangeError) throw new InputError(`${label}: a parameter schema nests too deeply to merge or rename its tools; pass the file alone, without --mcp-server`)
    throw error
  }
}

/**
 * @param {string} file
 * @param {string | undefined} mcpServer
 * @returns {{ tools: Tool[], index: ToolIndex }}
 */
function readFile(file, mcpServer) {
  const text = readText(file)
  let index
  try {
    // The core decides what a catalog is and words the errors; a catalog it accepts is read below.
    index = ToolIndex.fromJson(text)
  } catch (error) {
    throw new InputError(`${shownName(file)}: ${/** @type {Error} */ (error).message}`)
  }
  const root = JSON.parse(text)
  /** @type {unknown[]} */
  const items = Array.isArray(root) ? root : root.tools
  const tools = items.map(item => {
    const tool = definition(/** @type {Record<string, unknown>} */ (item))
    const written = /** @type {string} */ (tool['name'])
    const description = tool['description']
    return {
      name: mcpServer === undefined ? written : publicToolName(mcpServer, written),
      written,
      server: mcpServer,
      description: typeof description === 'string' ? description : '',
      parameters: ['parameters', 'inputSchema', 'input_schema'].map(key => tool[key]).find(isObject),
    }
  })
  return { tools, index }
}

/**
 * The definition inside one catalog entry, as the core reads it (src/catalog.rs): OpenAI's wire
 * form nests it under `function`; MCP and plain tools are the definition itself.
 * @param {Record<string, unknown>} item
 * @returns {Record<string, unknown>}
 */
function definition(item) {
  const inner = item['function']
  return item['type'] === 'function' && isObject(inner) ? inner : item
}

/**
 * A JSON object (not an array, not null).
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** @param {string} file */
function shownName(file) {
  return file === '-' ? 'standard input' : file
}

/** @param {string} file */
function readText(file) {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8')
  } catch (error) {
    const { code, message } = /** @type {NodeJS.ErrnoException} */ (error)
    const why = { ENOENT: 'no such file', EISDIR: 'it is a directory', EACCES: 'permission denied' }[code ?? ''] ?? message
    throw new InputError(`cannot read catalog ${file === '-' ? 'from standard input' : file}: ${why}`)
  }
}
