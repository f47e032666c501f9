// `explain`: why one tool ranks where it does for a query, and what tool_search does with it.
import { SETTINGS } from '../../dist/contract.js'
import { CATALOG_OPTIONS, COMMON_OPTIONS, RANKING_HELP, query as checkQuery, loading as loadingChoice, ranking as rankingChoice, usage } from './args.js'
import { loadCatalog } from './catalog.js'
import { decision, refusal } from './decision.js'
import { count, ordinal, score, table, wrap, WIDTH } from './format.js'

/** tool_search's own default when the model passes no limit. */
const DEFAULT_LIMIT = SETTINGS.defaultLimit.default

/** Tools ranked above the explained one that the text output names. */
const SHOWN_ABOVE = 5

export const name = 'explain'
export const summary = 'show why a tool ranks where it does for a query'
/** @type {import('./args.js').OptionSpec} */
export const options = { ...CATALOG_OPTIONS, ...COMMON_OPTIONS, loading: { type: 'string' } }
export const help = `Usage: dsh-tool-search explain "<query>" <tool> [options]

Shows where <tool> ranks for the query and why: its score and each ranking stage's part of it
(words; with meaning, the word table's and the transformer's similarity and the name agreement's
rerank); each query term it matched with the term's
weight (idf), its share of the lexical score and where in the tool it was found (name,
description, parameter names, schema text); the query terms it lacks (words its definition
could add); the tools ranked above it; the text the tool is indexed under; and what
tool_search, at its default limit of ${DEFAULT_LIMIT}, does with it (loads it, shows it, offers it
when nothing fits, or leaves it out). The query is read as tool_search reads it: a discover:
query's rest is ranked, select: names its tools.

Options:
  -c, --catalog FILE     tools to rank (repeatable; - reads standard input); default: the
                         embedded DSH and GitHub MCP catalog (see: dsh-tool-search search --help)
      --mcp-server NAME  the catalog is an MCP server's tools/list, named as DSH names it
${RANKING_HELP}
      --loading MODE     ${SETTINGS.loading.choices.join(' or ')}, as the plugin's loading setting (default ${SETTINGS.loading.default})
      --json             print the core's explanation: {query, ranking, name, rank, score, form,
                         exact, fused, semantic: {similarity, contextual, part} | null,
                         stages: [{stage, part, signal, parts}],
                         terms: [{term, queryWord, kind, idf, contribution, fields}],
                         missing: [{term, queryWord, idf}], text, matches, above,
                         toolSearch: {loading, limit, role}}; role is loaded, shown,
                         candidate, nearest or absent
  -h, --help             show this help`

/**
 * @param {import('./args.js').Parsed} args
 * @returns {Promise<{ stdout: string, code: number }>}
 */
export async function run({ values, positionals }) {
  if (positionals.length !== 2) throw usage(name, `expected a query and a tool name, got ${count(positionals.length, 'argument')}`)
  const query = checkQuery(name, positionals[0] ?? '')
  const tool = positionals[1] ?? ''
  const catalog = await loadCatalog({ files: /** @type {string[] | undefined} */ (values['catalog']), mcpServer: /** @type {string | undefined} */ (values['mcp-server']), ranking: rankingChoice(name, /** @type {string | undefined} */ (values['ranking'])) })
  const { index } = catalog
  const explained = (() => {
    try {
      return index.explain(query, tool)
    } catch (error) {
      throw refusal(name, error)
    }
  })()
  if (!explained) {
    const near = index.search(tool, 3, { fill: false }).map(hit => hit.name)
    throw usage(name, `no tool named '${tool}' in ${catalog.label}${near.length ? `; did you mean ${near.join(', ')}?` : ''}`)
  }
  const ranking = index.search(query, index.size, { fill: false })
  const above = ranking.slice(0, (explained.rank ?? 1) - 1).map(({ name, score }) => ({ name, score }))
  const loading = loadingChoice(name, /** @type {string | undefined} */ (values['loading']))
  const role = roleOf(tool, await decision(name, index, query, { limit: DEFAULT_LIMIT, loading }))
  if (values['json']) {
    const toolSearch = { loading, limit: DEFAULT_LIMIT, role }
    return { stdout: JSON.stringify({ query, ranking: index.ranking, ...explained, matches: ranking.length, above, toolSearch }, null, 2), code: 0 }
  }

  const lines = wrap(headline(explained, query, ranking.length), WIDTH)
  lines.push(...wrap(`tool_search (loading: ${loading}) ${ROLES[role]}.`, WIDTH))
  if (index.ranking === 'lexical') lines.push('', ...wrap('Ranked by words alone (the semantic model is not in use).', WIDTH))
  if (explained.stages.length > 0) {
    lines.push('', 'Its score by ranking stage:', ...table(stageRows(explained.stages, explained.fused), { right: [1] }).map(line => `  ${line}`))
  }
  if (explained.fused) lines.push(...wrap('The query reads as several requests: its score fuses their rankings; the term shares below are those of the whole query.', WIDTH))
  if (explained.terms.length > 0) {
    const rows = [...explained.terms]
      .sort((a, b) => b.contribution - a.contribution)
      .map(t => [t.term, t.queryWord, t.kind, t.idf.toFixed(3), score(t.contribution), String(t.fields.name), String(t.fields.description), String(t.fields.parameter), String(t.fields.schema)])
    lines.push('', 'Matched terms (occurrences per field; share: of the lexical score):', ...table([['term', 'from', 'kind', 'idf', 'share', 'name', 'description', 'parameter', 'schema'], ...rows], { right: [3, 4, 5, 6, 7, 8] }).map(line => `  ${line}`))
  }
  if (explained.missing.length > 0) {
    const rows = explained.missing.map(m => [m.term, m.queryWord, m.idf === null ? 'in no tool' : m.idf.toFixed(3)])
    lines.push('', 'Query terms it lacks (a word its definition could add):', ...table([['term', 'from', 'idf'], ...rows], { right: [2] }).map(line => `  ${line}`))
  }
  if (above.length > 0) {
    const first = Math.max(0, above.length - SHOWN_ABOVE)
    const rows = above.slice(first).map((hit, i) => [String(first + i + 1), score(hit.score), hit.name])
    lines.push('', first > 0 ? `Ranked above it (the last ${SHOWN_ABOVE} of ${above.length}):` : 'Ranked above it:', ...table(rows, { right: [0, 1] }).map(line => `  ${line}`))
  }
  lines.push('', 'Indexed text:', ...wrap(explained.text, WIDTH, '  '))
  return { stdout: lines.join('\n'), code: 0 }
}

/** @typedef {'loaded' | 'shown' | 'candidate' | 'nearest' | 'absent'} Role */

/**
 * What tool_search does with the explained tool, by its role.
 * @type {Record<Role, string>}
 */
const ROLES = {
  loaded: `loads it, at its default limit of ${DEFAULT_LIMIT}`,
  shown: `shows it and does not load it, at its default limit of ${DEFAULT_LIMIT}`,
  candidate: 'loads nothing for this query, and offers it as a candidate',
  nearest: 'loads nothing for this query, and offers its name as spelled like the query',
  absent: `does not return it, at its default limit of ${DEFAULT_LIMIT}`,
}

/**
 * The explained tool's part in tool_search's decision.
 * @param {string} tool
 * @param {import('../../index.js').SearchDecision} decision
 * @returns {Role}
 */
function roleOf(tool, { loaded, shown, nextMove }) {
  const holds = (/** @type {{name: string}[]} */ hits) => hits.some(hit => hit.name === tool)
  if (holds(loaded)) return 'loaded'
  if (holds(shown)) return 'shown'
  if (nextMove !== undefined && holds(nextMove.candidates)) return 'candidate'
  if (nextMove?.nearest.includes(tool)) return 'nearest'
  return 'absent'
}

/** What each stage's signal is, as the table names it. */
const SIGNALS = { lexical: 'BM25F', table: 'similarity', transformer: 'cosine' }

/**
 * One row per stage, its parts indented under it: name, part of the score, and its own signal.
 * @param {import('../../index.js').StageExplanation[]} stages
 * @param {boolean} fused the lexical signal is a fusion of rankings, not a BM25F score
 * @param {string} indent
 * @returns {string[][]}
 */
function stageRows(stages, fused, indent = '') {
  return stages.flatMap(({ stage, part, signal, parts }) => {
    const label = stage === 'lexical' && fused ? 'fused ranks' : SIGNALS[/** @type {keyof typeof SIGNALS} */ (stage)]
    const own = signal === null || label === undefined ? '' : `(${label} ${signal.toFixed(3)})`
    return [[`${indent}${stage}`, score(part), own], ...stageRows(parts, fused, `${indent}  `)]
  })
}

/**
 * @param {import('../../index.js').Explanation} explained
 * @param {string} query
 * @param {number} matches
 */
function headline({ name, rank, score: total, exact, terms, form }, query, matches) {
  if (form === 'select') {
    return rank === null ? `${name} is not among the tools "${query}" names.` : `${name} is named ${ordinal(rank)} of ${count(matches, 'tool')} "${query}" names.`
  }
  if (rank === null) {
    const why = terms.length > 0 ? 'it lacks a word the query requires (+word)' : 'none of its indexed terms is a term of the query'
    return `${name} does not match "${query}": ${why}.`
  }
  const where = `${name} ranks ${ordinal(rank)} of ${count(matches, 'matching tool')} for "${query}", score ${score(total)}`
  return exact ? `${where} (the query is its exact name, which always ranks first)` : where
}
