// The lint checks: what makes a tool hard to find, or hard to tell apart, in a catalog. This file
// runs them all and holds those that read the definitions; lint-ranking.js has those that search.
// Severity: an error means the tool is lost in the catalog (search cannot surface it reliably,
// or DSH keeps only one tool of that name); a warning weakens how it ranks or reads.
import { nearDuplicates, retrievalFindings, searchOwnDescriptions } from './lint-ranking.js'
import { bridgeRewrite } from './mcp-name.js'

/** A description shorter than this many words reads as one terse line (see countWords). */
const MIN_WORDS = 12
/** How deep into a parameter schema undescribed parameters are looked for; real ones are shallow. */
const MAX_DEPTH = 32
/** Undescribed parameters a message names (the JSON output lists all). */
const LISTED = 12

/**
 * @typedef {import('./catalog.js').Tool} Tool
 * @typedef {'error' | 'warning'} Severity
 * @typedef {{ tool: string, severity: Severity, check: string, message: string, [detail: string]: unknown }} Finding
 * @typedef {{ tools: Tool[], index: import('../../index.js').ToolIndex, top: number }} Context
 */

/**
 * Every finding for the catalog, in catalog order of the tools they concern.
 * @param {Context} context
 * @returns {Finding[]}
 */
export function lintCatalog(context) {
  /** @type {Map<string, number>} first position of each name */
  const order = new Map()
  context.tools.forEach((tool, i) => { if (!order.has(tool.name)) order.set(tool.name, i) })
  const findings = duplicateNames(context.tools)
  const first = context.tools.filter((tool, i) => order.get(tool.name) === i)
  const self = searchOwnDescriptions(first.filter(tool => countWords(tool.description) > 0), context.index, context.top)
  context.tools.forEach((tool, i) => {
    if (order.get(tool.name) !== i) return // a repeated name: the index holds only the first
    findings.push(...descriptionFindings(tool), ...parameterFindings(tool), ...nameFindings(tool))
    const own = self.get(tool.name)
    if (own) findings.push(...retrievalFindings(tool, own, context.top), ...nearDuplicates(tool, own, self, order))
  })
  // Stable: within one tool and severity, checks keep the order they ran in.
  return findings.sort((a, b) => (order.get(a.tool) ?? 0) - (order.get(b.tool) ?? 0) || severityRank(a) - severityRank(b))
}

/** @param {Finding} finding */
function severityRank(finding) {
  return finding.severity === 'error' ? 0 : 1
}

/**
 * @param {Tool[]} tools
 * @returns {Finding[]}
 */
function duplicateNames(tools) {
  /** @type {Map<string, number[]>} */
  const places = new Map()
  tools.forEach((tool, i) => places.set(tool.name, [...places.get(tool.name) ?? [], i + 1]))
  return [...places]
    .filter(([, at]) => at.length > 1)
    .map(([name, at]) => ({
      tool: name,
      severity: 'error',
      check: 'duplicate-name',
      message: `${at.length} tools have this name (catalog positions ${at.join(', ')}); only the first is searchable, and DSH registers one tool per name`,
      positions: at,
    }))
}

/**
 * @param {Tool} tool
 * @returns {Finding[]}
 */
function descriptionFindings(tool) {
  const words = countWords(tool.description)
  if (words === 0) {
    return [{ tool: tool.name, severity: 'error', check: 'no-description', message: 'no description: the tool can be found only by the words of its name, and the model cannot tell when to call it' }]
  }
  if (words < MIN_WORDS) {
    return [{ tool: tool.name, severity: 'warning', check: 'short-description', message: `a one-line description (${words} words): say what the tool does and when to use it, in the words users ask with`, words }]
  }
  return []
}

/** Scripts written without spaces between words. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu

/**
 * Words of a description: runs of letters and digits; in Chinese, Japanese and Korean, which do
 * not space their words, every two characters count as one.
 * @param {string} text
 */
function countWords(text) {
  const wide = text.match(CJK)?.length ?? 0
  const words = text.replace(CJK, ' ').match(/[\p{L}\p{N}]+/gu)?.length ?? 0
  return words + Math.ceil(wide / 2)
}

/**
 * @param {Tool} tool
 * @returns {Finding[]}
 */
function parameterFindings(tool) {
  const missing = tool.parameters === null ? [] : undescribed(JSON.parse(tool.parameters))
  if (missing.length === 0) return []
  return [{
    tool: tool.name,
    severity: 'warning',
    check: 'undescribed-parameter',
    message: `parameters without a description: ${missing.slice(0, LISTED).join(', ')}${missing.length > LISTED ? ` and ${missing.length - LISTED} more` : ''}`,
    parameters: missing,
  }]
}

/**
 * Paths of the properties in a schema that have no description (`a.b` nested, `a[]` items), down
 * to MAX_DEPTH levels. The walk keeps its own stack: schemas may nest deeper than the call stack
 * goes.
 * @param {unknown} schema
 * @returns {string[]}
 */
function undescribed(schema) {
  const found = new Set()
  /** @type {[unknown, string, number][]} */
  const stack = [[schema, '', 0]]
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, path, depth] = next
    if (!isObject(node) || depth > MAX_DEPTH) continue
    const properties = node['properties']
    const children = /** @type {[unknown, string, number][]} */ ([])
    if (isObject(properties)) {
      for (const [key, child] of Object.entries(properties)) {
        const at = path ? `${path}.${key}` : key
        const text = isObject(child) ? child['description'] : undefined
        if (typeof text !== 'string' || !text.trim()) found.add(at)
        children.push([child, at, depth + 1])
      }
    }
    const items = node['items']
    for (const item of Array.isArray(items) ? items : [items]) children.push([item, `${path}[]`, depth + 1])
    for (const key of ['anyOf', 'oneOf', 'allOf']) {
      const branches = node[key]
      if (Array.isArray(branches)) for (const branch of branches) children.push([branch, path, depth + 1])
    }
    // Reversed, so the stack hands them back in document order.
    stack.push(...children.reverse())
  }
  return [...found]
}

/**
 * A JSON object (not an array, not null).
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * @param {Tool} tool
 * @returns {Finding[]}
 */
function nameFindings(tool) {
  const rewrite = bridgeRewrite(tool.written, tool.server)
  if (!rewrite) return []
  const message = rewrite.registered === undefined
    ? `${rewrite.written} ${rewrite.reason}: DSH's MCP bridge will rewrite it, adding a hash (pass --mcp-server to see the name)`
    : `${rewrite.written} ${rewrite.reason}: DSH's MCP bridge registers it as ${rewrite.registered}, the name the model and tool_search see`
  return [{
    tool: tool.name,
    severity: 'warning',
    check: 'mcp-name',
    message,
    written: rewrite.written,
    registered: rewrite.registered ?? null,
  }]
}
