// `search`: the tools a query finds, ranked as tool_search ranks them.
import { SETTINGS } from '../../dist/contract.js'
import { CATALOG_OPTIONS, COMMON_OPTIONS, RANKING_HELP, query as checkQuery, ranking as rankingChoice, wholeNumber } from './args.js'
import { loadCatalog } from './catalog.js'
import { count, cut, score, table, WIDTH } from './format.js'

/** tool_search's own default when the model passes no limit. */
const DEFAULT_LIMIT = SETTINGS.defaultLimit.default

export const name = 'search'
export const summary = 'rank the catalog\'s tools for a query'
/** @type {import('./args.js').OptionSpec} */
export const options = { ...CATALOG_OPTIONS, ...COMMON_OPTIONS, limit: { type: 'string', short: 'n' } }
export const help = `Usage: dsh-tool-search search "<query>" [options]

Ranks the catalog's tools for a query with the same Rust core and settings as the
tool_search tool, best first.

Options:
  -c, --catalog FILE     tools to search (repeatable; - reads standard input): a JSON array of
                         {name, description, parameters}, of OpenAI function tools, or an MCP
                         tools/list result. Default: DSH 0.1.0-rc.8's own tools and the GitHub
                         MCP server's, as DSH names them.
      --mcp-server NAME  the catalog is an MCP server's tools/list: search them under the names
                         DSH gives them (mcp__NAME__tool)
${RANKING_HELP}
  -n, --limit N          how many tools to show (default ${DEFAULT_LIMIT}, tool_search's default)
      --json             print {query, catalog, ranking, matches, tools: [{name, description, score}]}
  -h, --help             show this help

A query may name tools outright (select:a,b) or require a word (+word), as with tool_search.`

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
  const catalog = await loadCatalog({ files: /** @type {string[] | undefined} */ (values['catalog']), mcpServer: /** @type {string | undefined} */ (values['mcp-server']), ranking: rankingChoice(name, /** @type {string | undefined} */ (values['ranking'])) })
  const all = catalog.index.search(query, catalog.index.size, { fill: false })
  const tools = all.slice(0, limit)
  if (values['json']) {
    return { stdout: JSON.stringify({ query, catalog: catalog.label, ranking: catalog.index.ranking, matches: all.length, tools }, null, 2), code: 0 }
  }
  const found = `${count(all.length, 'matching tool')} for "${query}"`
  const heading = [all.length > tools.length ? `Top ${tools.length} of ${found}` : found, `in ${catalog.label} (${count(catalog.index.size, 'tool')}), ${rankedBy(catalog.index.ranking)}`]
  if (tools.length === 0) return { stdout: heading.join('\n'), code: 0 }
  const rows = tools.map((hit, i) => [String(i + 1), score(hit.score), hit.name, hit.description])
  const lines = table([['#', 'score', 'tool', 'description'], ...rows], { right: [0, 1] })
  return { stdout: [...heading, '', ...lines.map(line => cut(line, WIDTH))].join('\n'), code: 0 }
}
