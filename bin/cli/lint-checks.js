// The lint checks: what makes a tool hard to find, or hard to tell apart, in a catalog.
// Severity: an error means the tool is lost in the catalog (search cannot surface it reliably,
// or DSH keeps only one tool of that name); a warning weakens how it ranks or reads.
import { MAX_QUERY_CHARS } from './args.js'
import { ordinal } from './format.js'
import { bridgeRewrite } from './mcp-name.js'

/** A description shorter than this many words reads as one terse line (see countWords). */
const MIN_WORDS = 12
/**
 * Two tools are near-duplicates when each one's description scores the other at least this
 * share of its own score: a query in either's words then splits between them. On BFCL's 1,437
 * tools, pairs at 80% and above are mostly the same function under two names.
 */
const NEAR_SHARE = 0.8
/** How deep into a parameter schema undescribed parameters are looked for; real ones are shallow. */
const MAX_DEPTH = 32
/** Undescribed parameters a message names (the JSON output lists all). */
const LISTED = 12
/** How many of the tools a description ranks highest are compared with its tool. */
const NEIGHBOURS = 10

/**
 * @typedef {import('./catalog.js').Tool} Tool
 * @typedef {'error' | 'warning'} Severity
 * @typedef {{ tool: string, severity: Severity, check: string, message: string, [detail: string]: unknown }} Finding
 * @typedef {{ tools: Tool[], index: import('../../index.js').ToolIndex, top: number, mcpServer: string | undefined }} Context
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
  const self = selfSearches(context)
  context.tools.forEach((tool, i) => {
    if (order.get(tool.name) !== i) return // a repeated name: the index holds only the first
    findings.push(...descriptionFindings(tool), ...parameterFindings(tool), ...nameFindings(tool, context.mcpServer))
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
  const missing = undescribed(tool.parameters)
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
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * @param {Tool} tool
 * @param {string | undefined} mcpServer
 * @returns {Finding[]}
 */
function nameFindings(tool, mcpServer) {
  const rewrite = bridgeRewrite(tool.written, mcpServer)
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

/**
 * What searching one tool's own description shows: where the tool ranks (null: not matched), the
 * tools ranked above it within the top, and how well the description matches its neighbours.
 * @typedef {{ rank: number | null, above: string[], match: Map<string, number> }} SelfSearch
 */

/**
 * Each described tool's description searched as a query.
 * @param {Context} context
 * @returns {Map<string, SelfSearch>}
 */
function selfSearches({ tools, index, top }) {
  /** @type {Map<string, SelfSearch>} */
  const searches = new Map()
  for (const tool of tools) {
    if (searches.has(tool.name) || countWords(tool.description) === 0) continue
    // A description longer than tool_search takes is searched by its start.
    const query = [...tool.description].slice(0, MAX_QUERY_CHARS).join('')
    const hits = index.search(query, Math.max(top, NEIGHBOURS))
    const rank = index.explain(query, tool.name)?.rank ?? null
    const names = [tool.name, ...hits.map(hit => hit.name).filter(name => name !== tool.name)]
    searches.set(tool.name, {
      rank,
      above: rank !== null && rank <= top ? [] : hits.slice(0, top).map(hit => hit.name),
      match: new Map(names.map(name => [name, wholeQueryScore(index, query, name)])),
    })
  }
  return searches
}

/**
 * A tool's BM25 score for the whole query. The ranking itself fuses the rankings of a
 * several-sentence query's sentences, which places tools but does not say how alike two texts
 * are; the explanation's term shares add up to the whole query's score.
 * @param {import('../../index.js').ToolIndex} index
 * @param {string} query
 * @param {string} name
 */
function wholeQueryScore(index, query, name) {
  return index.explain(query, name)?.terms.reduce((sum, term) => sum + term.contribution, 0) ?? 0
}

/**
 * @param {Tool} tool
 * @param {SelfSearch} own
 * @param {number} top
 * @returns {Finding[]}
 */
function retrievalFindings(tool, own, top) {
  if (own.rank !== null && own.rank <= top) return []
  const message = own.rank === null
    ? 'searching its own description does not find it at all: the description has no word the index keeps (stop words, single letters and numbers are left out)'
    : `searching its own description ranks it ${ordinal(own.rank)}, outside the top ${top} tool_search returns; ahead of it: ${own.above.join(', ')}`
  return [{
    tool: tool.name,
    severity: 'error',
    check: 'self-search',
    message,
    rank: own.rank,
    above: own.above,
  }]
}

/**
 * Pairs of this tool with a later tool when each one's description matches the other almost as
 * well as itself. Reported once, on the tool that comes first.
 * @param {Tool} tool
 * @param {SelfSearch} own
 * @param {Map<string, SelfSearch>} searches
 * @param {Map<string, number>} order
 * @returns {Finding[]}
 */
function nearDuplicates(tool, own, searches, order) {
  const findings = /** @type {Finding[]} */ ([])
  const position = order.get(tool.name) ?? 0
  for (const [other, score] of own.match) {
    const theirs = searches.get(other)
    if (!theirs || (order.get(other) ?? 0) <= position) continue
    const mine = share(score, own.match.get(tool.name))
    const back = share(theirs.match.get(tool.name), theirs.match.get(other))
    if (mine >= NEAR_SHARE && back >= NEAR_SHARE) {
      findings.push({
        tool: tool.name,
        severity: 'warning',
        check: 'near-duplicate',
        message: `${other}: each description scores the other at ${percent(mine)} and ${percent(back)} of itself, so queries for either split between the two; say what sets each apart`,
        other,
        shares: [mine, back],
      })
    }
  }
  return findings
}

/**
 * @param {number | undefined} score
 * @param {number | undefined} of
 */
function share(score, of) {
  return score === undefined || of === undefined || of <= 0 ? 0 : score / of
}

/** @param {number} ratio */
function percent(ratio) {
  return `${Math.round(ratio * 100)}%`
}
