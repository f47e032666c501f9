// The literal-phrase check of `pnpm eval`: for every tool whose description holds a run of four
// or more Chinese characters, a query of four of them that no other tool of its catalog holds,
// which the tool should rank first. Each catalog with such a tool is a set of its own (the
// server's own catalog), and all of them together, among DSH's tools and every other recorded
// server's, are one more: the same phrases in a catalog of mostly English tools.
//
// The query of a tool, decided without the index: every text is folded by NFKC (as the analyzer
// folds a CJK run); the tool's description's runs of Han characters of length four or more are
// read in order, and in each its four-character windows from the left; the query is the first
// window that no other tool of the catalog holds anywhere in its definition (its name, its
// description, every key and string of its schema: more than the index reads of it, so a window
// no other definition holds is one no other tool is indexed under). A tool with no such window is
// left out. A tool's part is `isHeldBack` of `<server>:<tool name>`, the same in every set.
import { readdirSync, readFileSync } from 'node:fs'
import { isHeldBack } from './eval-metrics.mjs'
import { DSH_TOOLS, mcpTool, plainTool } from './eval-sets.mjs'
import { repoPath } from './repo.mjs'

/**
 * @typedef {import('./eval-sets.mjs').EvalSet} EvalSet
 * @typedef {import('./eval-sets.mjs').Part} Part
 * @typedef {import('./eval-sets.mjs').McpTool} McpTool
 * @typedef {import('./catalogs.mjs').Tool} Tool
 * @typedef {{server: string, tool: McpTool}} Served
 */

const RECORDED = 'model/build/train/mcp'
const CATALOGS = 'catalogs/mcp'
const RUN = /\p{Script=Han}{4,}/gu
const WINDOW = 4
/** The set of every literal phrase among every recorded server's tools. */
export const LITERAL_MIXED = 'literal-mixed'

const readJson = (/** @type {string} */ path) => JSON.parse(readFileSync(repoPath(path), 'utf8'))
const jsonFiles = (/** @type {string} */ dir) => readdirSync(repoPath(dir)).filter((file) => file.endsWith('.json') && file !== 'servers.json').sort()

/** Every MCP server this repository records, by name: the training's and the eval catalogs'. */
function servers() {
  /** @type {Map<string, McpTool[]>} */
  const found = new Map()
  for (const dir of [RECORDED, CATALOGS]) {
    for (const file of jsonFiles(dir)) found.set(file.slice(0, -'.json'.length), readJson(`${dir}/${file}`).tools)
  }
  return found
}

/** @param {string} text */
const fold = (text) => text.normalize('NFKC')

/** @param {unknown} tool @returns {string} every key and string of its definition, joined */
function definitionText(tool) {
  /** @type {string[]} */
  const strings = []
  const stack = [tool]
  while (stack.length > 0) {
    const node = stack.pop()
    if (typeof node === 'string') strings.push(node)
    else if (Array.isArray(node)) stack.push(...node)
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) stack.push(key, value)
    }
  }
  return fold(strings.join('\n'))
}

/** @param {string} description @returns {string[]} its four-character windows, in order */
function windows(description) {
  return [...fold(description).matchAll(RUN)].flatMap(([run]) => {
    const chars = [...run]
    return chars.slice(0, chars.length - WINDOW + 1).map((_, at) => chars.slice(at, at + WINDOW).join(''))
  })
}

/**
 * One set of literal-phrase requests for the MCP tools `tools`, over a catalog of `others` (tools
 * no request is for) and them (see the module's comment).
 * @param {string} id @param {string} label @param {Served[]} tools @param {Tool[]} [others]
 * @returns {EvalSet}
 */
function literalSet(id, label, tools, others = []) {
  const texts = tools.map(({ tool }) => definitionText(tool))
  const otherTexts = others.map(definitionText)
  const heldElsewhere = (/** @type {string} */ window, /** @type {number} */ self) =>
    texts.some((text, other) => other !== self && text.includes(window)) || otherTexts.some((text) => text.includes(window))
  const requests = tools.flatMap(({ server, tool }, self) => {
    const query = windows(tool.description ?? '').find((window) => !heldElsewhere(window, self))
    if (query === undefined) return []
    const key = `${server}:${tool.name}`
    const { name } = mcpTool(server, tool)
    return [{ id: key, query, relevant: [name], part: /** @type {Part} */ (isHeldBack(key) ? 'held' : 'dev') }]
  })
  const catalog = [...others, ...tools.map(({ server, tool }) => mcpTool(server, tool))]
  return { id, label, whole: false, literal: true, catalog, requests }
}

/**
 * The literal-phrase sets: each server with a Chinese run of four characters in a description,
 * over its own tools, then all of them over one catalog of DSH's tools and every recorded
 * server's (in name order).
 * @returns {EvalSet[]}
 */
export function literalSets() {
  const all = servers()
  const chinese = [...all].filter(([, tools]) => tools.some((tool) => windows(tool.description ?? '').length > 0))
  const own = chinese.map(([server, tools]) => literalSet(`literal-${server}`, `Literal phrases, ${server}`, tools.map((tool) => ({ server, tool }))))
  const every = [...all].flatMap(([server, tools]) => tools.map((tool) => ({ server, tool })))
  const dsh = readJson(DSH_TOOLS).tools.map(plainTool)
  return [...own, literalSet(LITERAL_MIXED, 'Literal phrases, among every server', every, dsh)]
}
