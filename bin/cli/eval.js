// `eval`: how well requests whose right tools are known find them in a catalog, in the figures the
// repository's own evaluation reports (`pnpm eval`), so a catalog's owner can measure the ranking
// on their own requests and compare it with the published figures.
import { MAX_QUERY_CHARS } from '../../dist/contract.js'
import { CATALOG_OPTIONS, COMMON_OPTIONS, RANKING_HELP, ranking as rankingChoice, usage } from './args.js'
import { loadCatalog, readText } from './catalog.js'
import { count, cut, WIDTH } from './format.js'
import { requestMetrics, summarize } from './metrics.js'

/** The page each request is ranked to, as `pnpm eval` ranks it: enough for R@10 and NDCG@10. */
const PAGE = 10

export const name = 'eval'
export const summary = 'measure how well labelled requests find their tools'
/** @type {import('./args.js').OptionSpec} */
export const options = { ...CATALOG_OPTIONS, ...COMMON_OPTIONS, requests: { type: 'string', short: 'r' } }
export const help = `Usage: dsh-tool-search eval --requests FILE [options]

Ranks each request of FILE as tool_search ranks it and reports how many of its right tools
come first: R@1, R@5 and R@10 (the share of a request's tools among the first 1, 5 and 10,
averaged over requests) and NDCG@10, the figures of the plugin's published evaluation.

Options:
  -r, --requests FILE    one JSON object per line: {"query": "...", "relevant": ["tool", ...]}
                         (other fields are ignored; - reads standard input)
  -c, --catalog FILE     the tools, as for search (repeatable). Default: DSH 0.1.0-rc.8's own
                         tools and the GitHub MCP server's, as DSH names them.
      --mcp-server NAME  the catalog is an MCP server's tools/list (names mcp__NAME__tool)
${RANKING_HELP}
      --json             print {catalog, ranking, requests, r1, r5, r10, ndcg10, missed, unknown}
  -h, --help             show this help

A request whose right tools are not all in the first 5 is listed, with the tools that were.
Relevant names the catalog does not have count as not found, and are listed too.`

/**
 * @typedef {{ query: string, relevant: string[] }} Request
 */

/**
 * The requests of a JSON-lines file, checked line by line.
 * @param {string} file
 * @returns {Request[]}
 */
function readRequests(file) {
  const shown = file === '-' ? 'standard input' : file
  const requests = []
  for (const [i, line] of readText(file, 'requests').split('\n').entries()) {
    if (line.trim() === '') continue
    const at = `${shown}, line ${i + 1}`
    let value
    try {
      value = JSON.parse(line)
    } catch (error) {
      throw usage(name, `${at}: not JSON (${/** @type {Error} */ (error).message})`)
    }
    const { query, relevant } = value ?? {}
    if (typeof query !== 'string' || query.trim() === '' || [...query.trim()].length > MAX_QUERY_CHARS) {
      throw usage(name, `${at}: "query" must be a string of 1 to ${MAX_QUERY_CHARS} characters`)
    }
    if (!Array.isArray(relevant) || relevant.length === 0 || !relevant.every(tool => typeof tool === 'string')) {
      throw usage(name, `${at}: "relevant" must be a non-empty list of tool names`)
    }
    requests.push({ query: query.trim(), relevant: [...new Set(relevant)] })
  }
  if (requests.length === 0) throw usage(name, `${shown} holds no requests`)
  return requests
}

/**
 * @param {import('./args.js').Parsed} args
 * @returns {Promise<{ stdout: string, code: number }>}
 */
export async function run({ values, positionals }) {
  if (positionals.length > 0) throw usage(name, `eval takes no query, got '${positionals.join(' ')}'`)
  const file = /** @type {string | undefined} */ (values['requests'])
  if (file === undefined) throw usage(name, '--requests FILE is required')
  const files = /** @type {string[] | undefined} */ (values['catalog'])
  if (file === '-' && files?.includes('-')) throw usage(name, 'standard input can hold the requests or a catalog, not both')
  const requests = readRequests(file)
  const catalog = await loadCatalog({ files, mcpServer: /** @type {string | undefined} */ (values['mcp-server']), ranking: rankingChoice(name, /** @type {string | undefined} */ (values['ranking'])) })
  const known = new Set(catalog.tools.map(tool => tool.name))
  const rows = requests.map(({ query, relevant }) => {
    const ranked = catalog.index.search(query, PAGE).map(hit => hit.name)
    return { query, relevant, top5: ranked.slice(0, 5), ...requestMetrics(ranked, relevant) }
  })
  const figures = summarize(rows)
  const missed = rows.filter(row => row.r5 < 1).map(({ query, relevant, top5 }) => ({ query, relevant, found: top5.filter(tool => relevant.includes(tool)) }))
  const unknown = [...new Set(requests.flatMap(request => request.relevant))].filter(tool => !known.has(tool)).sort()
  if (values['json']) {
    return { stdout: JSON.stringify({ catalog: catalog.label, ranking: catalog.index.ranking, ...figures, missed, unknown }, null, 2), code: 0 }
  }
  const by = catalog.index.ranking === 'hybrid' ? 'ranked by words and meaning' : 'ranked by words'
  const lines = [
    `${count(rows.length, 'request')} over ${catalog.label} (${count(catalog.index.size, 'tool')}), ${by}`,
    '',
    'R@1    R@5    R@10   NDCG@10',
    [figures.r1, figures.r5, figures.r10, figures.ndcg10].map(x => x.toFixed(3).padEnd(6)).join(' ').trimEnd(),
  ]
  if (missed.length > 0) {
    lines.push('', `Not all of their tools in the top 5 (${missed.length}):`)
    for (const { query, relevant, found } of missed) {
      const wanted = relevant.filter(tool => !found.includes(tool)).join(', ')
      lines.push(cut(`  "${query}": wants ${wanted}${found.length > 0 ? `; found ${found.join(', ')}` : ''}`, WIDTH))
    }
  }
  if (unknown.length > 0) lines.push('', `Not in the catalog, so never found (${unknown.length}): ${unknown.join(', ')}`)
  return { stdout: lines.join('\n'), code: 0 }
}
