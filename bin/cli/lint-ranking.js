// The lint checks that search: a tool's own description should find it, and should not find
// another tool about as well.
import { MAX_QUERY_CHARS } from '../../dist/contract.js'
import { ordinal } from './format.js'

/**
 * Two tools are near-duplicates when each one's description scores the other at least this
 * share of its own score: a query in either's words then splits between them. On BFCL's 1,437
 * tools, pairs at 80% and above are mostly the same function under two names.
 */
const NEAR_SHARE = 0.8
/** How many of the tools a description ranks highest are compared with its tool. */
const NEIGHBOURS = 10

/**
 * @typedef {import('./catalog.js').Tool} Tool
 * @typedef {import('./lint-checks.js').Finding} Finding
 * @typedef {import('../../index.js').ToolIndex} ToolIndex
 */

/**
 * What searching one tool's own description shows: where the tool ranks (null: not matched), the
 * tools ranked above it within the top, and how well the description matches its neighbours.
 * @typedef {{ rank: number | null, above: string[], match: Map<string, number> }} SelfSearch
 */

/**
 * Each tool's description searched as a query.
 * @param {Tool[]} tools with descriptions, one per name
 * @param {ToolIndex} index
 * @param {number} top
 * @returns {Map<string, SelfSearch>}
 */
export function searchOwnDescriptions(tools, index, top) {
  /** @type {Map<string, SelfSearch>} */
  const searches = new Map()
  for (const tool of tools) {
    // A description longer than tool_search takes is searched by its start.
    const query = [...tool.description].slice(0, MAX_QUERY_CHARS).join('')
    const hits = index.search(query, Math.max(top, NEIGHBOURS), { fill: false })
    const own = index.explain(query, tool.name)
    const rank = own?.rank ?? null
    const others = hits.filter(hit => hit.name !== tool.name)
    // A query of one request is ranked by BM25 scores, which say how alike two texts are; a
    // fused query is ranked by the places its requests give each tool, which do not.
    const alike = own?.fused
      ? (/** @type {string} */ name) => wholeQueryScore(index, query, name)
      : (/** @type {string} */ _name, /** @type {number} */ ranked) => ranked
    /** @type {[string, number][]} */
    const scores = [[tool.name, own?.score ?? 0], ...others.map(hit => /** @type {[string, number]} */ ([hit.name, hit.score]))]
    searches.set(tool.name, {
      rank,
      above: rank !== null && rank <= top ? [] : hits.slice(0, top).map(hit => hit.name),
      match: new Map(scores.map(([name, ranked]) => [name, alike(name, ranked)])),
    })
  }
  return searches
}

/**
 * A tool's BM25 score for the whole of a fused query: its explanation's term shares add up to it.
 * @param {ToolIndex} index
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
export function retrievalFindings(tool, own, top) {
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
export function nearDuplicates(tool, own, searches, order) {
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
        shares: [mine, back].map(ratio => Math.round(ratio * 1000) / 1000),
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
