// The catalogs the token benchmark measures, each with the query a model would send tool_search
// for a typical request against it, and the input files the figures depend on (hashed into the
// results, so a changed fixture shows).
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { devCatalog, devQueries } from '../lib/catalogs.mjs'
import { syntheticCatalog } from './synthetic.mjs'

/** Absolute path of a file given relative to the repository root. */
export const repoPath = (path) => fileURLToPath(new URL(`../../${path}`, import.meta.url))

const SYNTHETIC_GENERATOR = 'scripts/benchmark/synthetic.mjs'
const DSH_FIXTURE = 'catalogs/dsh/headless-tools.json'
const BFCL_CATALOG = 'bench/data/bfcl/bfcl-catalog.json'
const BFCL_QUERIES = 'bench/data/bfcl/bfcl-dev-queries.jsonl'
const BFCL_LIVE = ['bench/data/bfcl-live/bfcl-live-catalog.json', 'bench/data/bfcl-live/bfcl-live-queries.jsonl']

/** The MCP servers recorded by capture-mcp.mjs, by the server name DSH's bridge prefixes. */
const MCP_SERVERS = ['github', 'playwright', 'notion']
const mcpFixture = (server) => `catalogs/mcp/${server}.json`

/** The seed's table sizes. */
const SYNTHETIC_SIZES = [10, 30, 50, 100]

/** The BFCL row searches with a real request of the dev set: its first one. */
const BFCL_REQUEST_ID = 'simple_python_0'

const dshTools = () => JSON.parse(readFileSync(repoPath(DSH_FIXTURE), 'utf8')).tools
const mcp = (servers) => servers.map((server) => ({ server, fixture: repoPath(mcpFixture(server)) }))

/** @returns {object} the package, version and license an MCP fixture was recorded from. */
function mcpSource(server) {
  return JSON.parse(readFileSync(repoPath(mcpFixture(server)), 'utf8')).source
}

/**
 * @returns {{id: string, label: string, query: string, verbatim?: boolean, setup: () => object}[]}
 *   `setup()` gives the catalog part of a {@link import('./dsh-turn.mjs').recordTurn} call.
 */
export function tokenCatalogs() {
  const bfclQuery = devQueries().find((request) => request.id === BFCL_REQUEST_ID).query
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
      query: { github: 'open a pull request', playwright: 'take a screenshot of the page', notion: 'add a comment to a page' }[server],
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
