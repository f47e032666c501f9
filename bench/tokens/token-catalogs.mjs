// The catalogs the token benchmark measures, each with the query a model would send tool_search
// for a typical request against it, and the input files the figures depend on (hashed into the
// results, so a changed fixture shows).
import { readFileSync } from 'node:fs'
import { devCatalog, devQueries } from '../lib/catalogs.mjs'
import { repoPath } from '../lib/repo.mjs'
import { syntheticCatalog } from './synthetic.mjs'

const SYNTHETIC_GENERATOR = 'bench/tokens/synthetic.mjs'
const DSH_FIXTURE = 'catalogs/dsh/headless-tools.json'
const BFCL_CATALOG = 'bench/data/bfcl/bfcl-catalog.json'
const BFCL_QUERIES = 'bench/data/bfcl/bfcl-dev-queries.jsonl'
const BFCL_LIVE = ['bench/data/bfcl-live/bfcl-live-catalog.json', 'bench/data/bfcl-live/bfcl-live-queries.jsonl']

/**
 * The MCP servers recorded by capture-mcp.mjs, by the server name DSH's bridge prefixes, each
 * with the query its row searches.
 */
const MCP_QUERIES = { github: 'open a pull request', playwright: 'take a screenshot of the page', notion: 'add a comment to a page' }
const MCP_SERVERS = /** @type {(keyof typeof MCP_QUERIES)[]} */ (Object.keys(MCP_QUERIES))
const mcpFixture = (/** @type {string} */ server) => `catalogs/mcp/${server}.json`

/** The seed's table sizes. */
const SYNTHETIC_SIZES = [10, 30, 50, 100]

/** The BFCL row searches with a real request of the dev set: its first one. */
const BFCL_REQUEST_ID = 'simple_python_0'

/** @returns {import('../lib/catalogs.mjs').Tool[]} */
const dshTools = () => JSON.parse(readFileSync(repoPath(DSH_FIXTURE), 'utf8')).tools
const mcp = (/** @type {string[]} */ servers) => servers.map((server) => ({ server, fixture: repoPath(mcpFixture(server)) }))

/**
 * @param {string} server
 * @returns {{package: string, version: string, license: string}} the package, version and license an MCP fixture was recorded from.
 */
function mcpSource(server) {
  return JSON.parse(readFileSync(repoPath(mcpFixture(server)), 'utf8')).source
}

/**
 * @typedef {Omit<Parameters<typeof import('./dsh-turn.mjs').recordTurn>[0], 'plugin' | 'query'>} TurnCatalog
 * @returns {{id: string, label: string, query: string, verbatim?: boolean, setup: () => TurnCatalog}[]}
 *   `setup()` gives the catalog part of a {@link import('./dsh-turn.mjs').recordTurn} call.
 */
export function tokenCatalogs() {
  const bfclQuery = devQueries().find((request) => request.id === BFCL_REQUEST_ID)?.query
  if (bfclQuery === undefined) throw new Error(`the BFCL dev set has no request ${BFCL_REQUEST_ID}`)
  return [
    ...SYNTHETIC_SIZES.map((size) => ({
      id: `synthetic-${size}`,
      label: `Synthetic (ours), ${size} tools`,
      query: 'create a support ticket',
      setup: () => ({ tools: syntheticCatalog(size) }),
    })),
    {
      id: 'dsh-headless',
      label: 'DSH 0.1.0-rc.8 built-ins (headless)',
      query: 'search the web',
      // Recorded from DSH's own request: re-registered, it must go back on the wire byte for byte.
      verbatim: true,
      setup: () => ({ tools: dshTools() }),
    },
    ...MCP_SERVERS.map((server) => ({
      id: `mcp-${server}`,
      label: `MCP ${mcpSource(server).package}`,
      query: MCP_QUERIES[server],
      setup: () => ({ mcp: mcp([server]) }),
    })),
    {
      id: 'dsh-plus-mcp',
      label: `DSH built-ins + ${MCP_SERVERS.length} MCP servers`,
      query: 'open a pull request on github',
      setup: () => ({ tools: dshTools(), mcp: mcp(MCP_SERVERS) }),
    },
    {
      id: 'bfcl',
      label: 'BFCL dev catalog',
      query: bfclQuery,
      // BFCL has a function of its own named `tool_search`; DSH allows one tool per name and this
      // plugin registers that one, so the row leaves BFCL's out, with and without the plugin.
      setup: () => ({ tools: devCatalog().filter((tool) => tool.name !== 'tool_search') }),
    },
  ]
}

/** Every input file any benchmark figure depends on. */
export const INPUT_FILES = [SYNTHETIC_GENERATOR, DSH_FIXTURE, ...MCP_SERVERS.map(mcpFixture), BFCL_CATALOG, BFCL_QUERIES, ...BFCL_LIVE]
