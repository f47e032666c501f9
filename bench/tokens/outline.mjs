// The catalog outline the plugin appends to tool_search's description, as DSH sends it: read
// from the first request of a real DSH turn, counted in o200k_base tokens and by the plugin's own
// estimate (the one its 400-token budget is kept with), for every token catalog and for two
// catalogs of 10,000 tools: BFCL grown with renamed copies (no MCP server: names only), and the
// same tools under 40 MCP servers (mcp__server<k>__<name>: groups with words).
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { catalogOfSize } from '../lib/catalogs.mjs'
import { recordTurn } from './dsh-turn.mjs'

/** @typedef {import('../../e2e/lib/model-server.mjs').ChatRequest} ChatRequest */

const LARGE = 10_000
const SERVERS = 40

/** The built plugin's modules the outline is measured with. */
async function plugin() {
  const [{ searchDescription }, { OUTLINE_BUDGET_TOKENS }, { estimateTokens }] = await Promise.all([
    import('../../dist/search/tool.js'), import('../../dist/offer/outline.js'), import('../../dist/offer/token-estimate.js'),
  ])
  // The turns run under `loading: native` (dsh-turn.mjs).
  return { DESCRIPTION: searchDescription('native'), OUTLINE_BUDGET_TOKENS, estimateTokens }
}

/**
 * The outline in one recorded request, with its figures.
 * @param {ChatRequest} request - a request DSH sent with the plugin loaded.
 */
export async function outlineIn(request) {
  const { DESCRIPTION, OUTLINE_BUDGET_TOKENS, estimateTokens } = await plugin()
  const search = (request.tools ?? []).find((/** @type {{function: {name: string}}} */ tool) => tool.function.name === 'tool_search')
  /** @type {string} */
  const description = search?.function.description ?? ''
  if (!description.startsWith(DESCRIPTION)) throw new Error('tool_search went out without its registered description')
  const text = description.slice(DESCRIPTION.length).trim()
  const tokens = countTokens(text)
  if (tokens > OUTLINE_BUDGET_TOKENS) throw new Error(`the outline took ${tokens} o200k tokens, over its budget of ${OUTLINE_BUDGET_TOKENS}: ${text.slice(0, 200)}...`)
  return { text, tokens, estimate: estimateTokens(text), definitionTokens: countTokens(JSON.stringify([{ ...search, function: { ...search.function, description: DESCRIPTION } }])) }
}

/** The outline rows of the two catalogs of 10,000 tools, each from a real DSH turn. */
export async function largeOutlineRows() {
  const bfcl = catalogOfSize(LARGE).filter((tool) => tool.name !== 'tool_search')
  const catalogs = [
    { id: 'bfcl-10000', label: `BFCL grown to ${LARGE.toLocaleString('en-US')} tools`, tools: bfcl },
    { id: 'mcp-10000', label: `${LARGE.toLocaleString('en-US')} tools under ${SERVERS} MCP servers`, tools: bfcl.map((tool, i) => ({ ...tool, name: `mcp__server${i % SERVERS}__${tool.name}` })) },
  ]
  const rows = []
  for (const catalog of catalogs) {
    const [request] = /** @type {[ChatRequest]} */ (await recordTurn({ tools: catalog.tools, plugin: true }))
    const { text, tokens, estimate } = await outlineIn(request)
    rows.push({ id: catalog.id, label: catalog.label, tools: catalog.tools.length, tokens, estimate, text })
  }
  return rows
}
