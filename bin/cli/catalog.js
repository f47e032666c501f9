// Loading the catalog a command works on: the files given with --catalog (or the embedded default
// catalog), read by the Rust core, as one index plus the tools as written. What a catalog file
// may look like (a list, an MCP tools/list result, OpenAI's wire form) is the core's knowledge
// alone: readCatalog hands back each entry as the index reads it.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
// The core through the plugin's guarded loader: without a binary, main.js says why before any command runs.
import { ToolIndex, readCatalog } from '../../dist/host/native.js'
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
 * @property {string | null} parameters its parameter (input) schema's JSON text as written, null when it has none
 */

/**
 * @typedef {object} Catalog
 * @property {Tool[]} tools every tool in catalog order, repeated names included
 * @property {ToolIndex} index the core's index (a repeated name keeps its first tool)
 * @property {string} label where the tools came from, for output
 */

/** @typedef {'auto' | 'lexical'} Ranking the plugin's ranking setting */

/**
 * @param {{ files?: string[] | undefined, mcpServer?: string | undefined, ranking?: Ranking }} choice
 *   `-` reads standard input; `ranking` as the plugin's setting (default auto)
 * @returns {Promise<Catalog>} once the index's semantic vectors are in place, so the ranking is the
 *   one tool_search settles on
 */
export async function loadCatalog({ files, mcpServer, ranking = 'auto' }) {
  const options = ranking === 'lexical' ? /** @type {const} */ ({ ranking: 'lexical' }) : undefined
  if (mcpServer !== undefined && !SERVER_NAME.test(mcpServer)) {
    throw new InputError(`--mcp-server must be 1 to 32 characters of A-Z, a-z, 0-9, _ and - (DSH's rule for a server name), got '${mcpServer}'`)
  }
  const given = files !== undefined && files.length > 0
  if (!given && mcpServer !== undefined) throw new InputError('--mcp-server names the server of the files given with --catalog; the default catalog is named already')
  const read = given ? files.map(file => readFile(file, mcpServer)) : DEFAULT_CATALOG.map(part => readFile(part.file, part.mcpServer))
  const tools = read.flatMap(part => part.tools)
  const label = given ? files.map(shownName).join(', ') : DEFAULT_LABEL
  const only = given && read.length === 1 && mcpServer === undefined ? read[0] : undefined
  // No wait for the transformer's vectors: a search makes those it needs, and answers as it would
  // once every tool's is made.
  const index = only === undefined ? rebuild(tools, options) : inCore(only.file, () => ToolIndex.fromJson(only.text, options))
  return { tools, index, label }
}

/**
 * One index over tools from several files, or renamed by --mcp-server. Each schema goes back in
 * as the text it was written as, so nothing here re-serializes (or recurses into) a schema.
 * @param {Tool[]} tools
 * @param {{ ranking: 'lexical' } | undefined} options
 */
function rebuild(tools, options) {
  const entries = tools.map(({ name, description, parameters }) =>
    `{"name":${JSON.stringify(name)},"description":${JSON.stringify(description)}${parameters === null ? '' : `,"parameters":${parameters}`}}`)
  return ToolIndex.fromJson(`[${entries.join(',')}]`, options)
}

/**
 * One catalog file's tools as written, and its text, which the single-file case indexes as it is.
 * @param {string} file
 * @param {string | undefined} mcpServer
 * @returns {{ file: string, text: string, tools: Tool[] }}
 */
function readFile(file, mcpServer) {
  const text = readText(file)
  const entries = inCore(file, () => readCatalog(text))
  const tools = entries.map(({ name: written, description, parameters }) => ({
    name: mcpServer === undefined ? written : publicToolName(mcpServer, written),
    written,
    server: mcpServer,
    description,
    parameters,
  }))
  return { file, text, tools }
}

/**
 * The core decides what a catalog is and words the errors; they are reported with the file's name.
 * @template T
 * @param {string} file
 * @param {() => T} read
 * @returns {T}
 */
function inCore(file, read) {
  try {
    return read()
  } catch (error) {
    throw new InputError(`${shownName(file)}: ${/** @type {Error} */ (error).message}`)
  }
}

/** @param {string} file */
function shownName(file) {
  return file === '-' ? 'standard input' : file
}

/**
 * A file's text (`-`: standard input), or an input error that says why it cannot be read.
 * @param {string} file
 * @param {string} [what] what the file is, for the message
 */
export function readText(file, what = 'catalog') {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8')
  } catch (error) {
    const { code, message } = /** @type {NodeJS.ErrnoException} */ (error)
    const why = { ENOENT: 'no such file', EISDIR: 'it is a directory', EACCES: 'permission denied' }[code ?? ''] ?? message
    throw new InputError(`cannot read ${what} ${file === '-' ? 'from standard input' : file}: ${why}`)
  }
}
