// `search`: the tools a query finds, ranked as tool_search ranks them, and what tool_search does
// with them: which it loads, which it only shows, and its next move when nothing fits, decided by
// the core with the plugin's own parameters.
import { SETTINGS } from '../../dist/contract.js'
import { CATALOG_OPTIONS, COMMON_OPTIONS, RANKING_HELP, query as checkQuery, loading as loadingChoice, ranking as rankingChoice, wholeNumber } from './args.js'
import { loadCatalog } from './catalog.js'
import { decision as decide } from './decision.js'
import { count, cut, score, table, wrap, WIDTH } from './format.js'

/** tool_search's own default when the model passes no limit. */
const DEFAULT_LIMIT = SETTINGS.defaultLimit.default

export const name = 'search'
export const summary = 'rank the catalog\'s tools for a query, and say what tool_search loads'
/** @type {import('./args.js').OptionSpec} */
export const options = {
  ...CATALOG_OPTIONS,
  ...COMMON_OPTIONS,
  limit: { type: 'string', short: 'n' },
  loading: { type: 'string' },
  exclude: { type: 'string', short: 'x', multiple: true },
}
export const help = `Usage: dsh-tool-search search "<query>" [options]

Ranks the catalog's tools for a query with the same Rust core and settings as the
tool_search tool, best first, and says what tool_search does with them: the tools it
loads, those it only shows as candidates (below the leader cut, or beside a tool the query
names exactly), and, when no match is strong enough, the candidates and names it offers
instead.

Options:
  -c, --catalog FILE     tools to search (repeatable; - reads standard input): a JSON array of
                         {name, description, parameters}, of OpenAI function tools, or an MCP
                         tools/list result. Default: DSH 0.1.0-rc.8's own tools and the GitHub
                         MCP server's, as DSH names them.
      --mcp-server NAME  the catalog is an MCP server's tools/list: search them under the names
                         DSH gives them (mcp__NAME__tool)
${RANKING_HELP}
  -n, --limit N          how many tools to show (default ${DEFAULT_LIMIT}, tool_search's default)
      --loading MODE     ${SETTINGS.loading.choices.join(' or ')}, as the plugin's loading setting (default
                         ${SETTINGS.loading.default}); only stable loading cuts the hits below the leaders
  -x, --exclude NAME     a tool the Agent can already call (repeatable): tool_search leaves it
                         out, unless the query names it exactly
      --json             print {query, catalog, ranking, loading, form, matches, tools: [{name,
                         description, score}], loaded, shown, nextMove: {matched, candidates,
                         nearest} | null}
  -h, --help             show this help

A query may name tools outright (select:a,b), require a word (+word) or ask only to see
tools (discover:...), as with tool_search.`

/**
 * How an index ranks, for a heading.
 * @param {'lexical' | 'hybrid'} ranking
 */
function rankedBy(ranking) {
  return ranking === 'hybrid' ? 'ranked by words and meaning' : 'ranked by words'
}

/**
 * @param {import('./args.js').Parsed} args
 * @returns {Promise<{ stdout: string, code: number }>}
 */
export async function run({ values, positionals }) {
  const query = checkQuery(name, positionals.join(' '))
  const limit = wholeNumber(name, 'limit', /** @type {string | undefined} */ (values['limit']), DEFAULT_LIMIT)
  const loading = loadingChoice(name, /** @type {string | undefined} */ (values['loading']))
  const exclude = /** @type {string[] | undefined} */ (values['exclude']) ?? []
  const catalog = await loadCatalog({ files: /** @type {string[] | undefined} */ (values['catalog']), mcpServer: /** @type {string | undefined} */ (values['mcp-server']), ranking: rankingChoice(name, /** @type {string | undefined} */ (values['ranking'])) })
  const { index } = catalog
  const decision = await decide(name, index, query, { limit, exclude, loading })
  const all = index.search(query, index.size, { exclude, fill: false })
  const tools = all.slice(0, limit)
  if (values['json']) {
    const names = (/** @type {{name: string}[]} */ hits) => hits.map(hit => hit.name)
    const result = { query, catalog: catalog.label, ranking: index.ranking, loading, form: decision.form, matches: all.length, tools, loaded: names(decision.loaded), shown: names(decision.shown), nextMove: decision.nextMove ?? null }
    return { stdout: JSON.stringify(result, null, 2), code: 0 }
  }
  const found = `${count(all.length, 'matching tool')} for "${query}"`
  const heading = [all.length > tools.length ? `Top ${tools.length} of ${found}` : found, `in ${catalog.label} (${count(index.size, 'tool')}), ${rankedBy(index.ranking)}`]
  const said = wrap(decided(decision, loading, tools.length), WIDTH)
  if (tools.length === 0) return { stdout: [...heading, '', ...said].join('\n'), code: 0 }
  const rows = tools.map((hit, i) => [String(i + 1), score(hit.score), hit.name, hit.description])
  const lines = table([['#', 'score', 'tool', 'description'], ...rows], { right: [0, 1] })
  return { stdout: [...heading, '', ...lines.map(line => cut(line, WIDTH)), '', ...said].join('\n'), code: 0 }
}

/**
 * What tool_search does with the query, in a sentence or three.
 * @param {import('../../index.js').SearchDecision} decision
 * @param {string} loading
 * @param {number} rows the matches the table shows, which a decision that loads anything loads or shows
 */
function decided({ form, loaded, shown, nextMove }, loading, rows) {
  const listed = (/** @type {{name: string}[]} */ hits) => hits.map(hit => hit.name).join(', ')
  if (nextMove !== undefined) {
    const why = form === 'select' ? 'select: names no tool of the catalog'
      : nextMove.matched ? 'no match is as strong as its floor' : 'no tool matches'
    return [
      `tool_search loads nothing: ${why}.`,
      ...(nextMove.candidates.length > 0 ? [`Candidates it offers: ${listed(nextMove.candidates)}.`] : []),
      ...(nextMove.nearest.length > 0 ? [`Names spelled like the query: ${nextMove.nearest.join(', ')}.`] : []),
    ].join(' ')
  }
  if (form === 'discover') return 'tool_search shows them with their parameter schemas and loads nothing (discover:).'
  const loads = `tool_search (loading: ${loading}) loads`
  if (loaded.length === rows) return `${loads} ${rows === 1 ? 'it' : `all ${rows}`}.`
  return `${loads} ${listed(loaded)}; it shows the other ${count(shown.length, 'tool')} as candidates, not loaded.`
}
