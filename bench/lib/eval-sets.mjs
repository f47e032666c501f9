// The labelled sets `pnpm eval` ranks (bench/data/README.md): each source over its own catalog,
// the union, where the requests of the four non-BFCL sources meet one catalog of every source's
// tools and real distractors, the scale a user with many servers actually searches, and the
// project's own bilingual set (bench/data/bilingual/README.md), its English and its Chinese
// requests reported apart over one catalog, its multi-step requests (bench/data/multistep/README.md)
// over the same catalog, and the requests written for the MCP servers the transformer's training
// never reads (model/build/train/written/README.md), the same way; and of the bilingual and the
// written requests, the Chinese ones whose tools are described in English only, a row of their own.
import { readdirSync, readFileSync } from 'node:fs'
import { isHeldBack, isValidationServer } from './eval-metrics.mjs'
import { repoPath } from './repo.mjs'

/**
 * @typedef {import('./catalogs.mjs').Tool} Tool
 * @typedef {'dev' | 'held'} Part the dev part may steer ranking choices; the held part never does
 * @typedef {{id: string, query: string, relevant: string[], part: Part, pair?: string, steps?: string[][]}} EvalRequest
 *   `pair`: in a set of request pairs, the pair id that fixes the request's part; `steps`: in a set
 *   scored by steps (the multi-step set), the tools that serve each step, `relevant` all of them
 * @typedef {object} EvalSet
 * @property {string} id
 * @property {string} label
 * @property {boolean} whole reported as one part: a source nothing was tuned on
 * @property {boolean} [devOnly] every request is dev: the transformer's validation, never trained on
 * @property {boolean} [neverTrains] neither part is training data: model/build/train/eval-sets.mjs leaves the set out
 * @property {boolean} [literal] a literal-phrase check (literal-sets.mjs): R@1 is its figure
 * @property {Tool[]} catalog
 * @property {EvalRequest[]} requests
 */

/**
 * The labelled sources, in the order they are reported. `split: 'hash'` splits requests into
 * dev and held by `isHeldBack` of their id; `'whole'` keeps a source in one piece (BFCL live, the
 * check set of the BFCL dev set; AgentDojo, the source held out whole). `union` marks the sources
 * whose requests the union searches, in the order their definitions enter its catalog.
 */
const SOURCES = [
  { id: 'bfcl', label: 'BFCL dev set', files: ['bfcl/bfcl-catalog.json', 'bfcl/bfcl-dev-queries.jsonl'], split: 'hash', union: false },
  { id: 'bfcl-live', label: 'BFCL live', files: ['bfcl-live/bfcl-live-catalog.json', 'bfcl-live/bfcl-live-queries.jsonl'], split: 'whole', union: false },
  { id: 'tau2-bench', label: 'tau2-bench', files: ['tau2-bench/catalog.json', 'tau2-bench/queries.jsonl'], split: 'hash', union: true },
  { id: 'tooltalk', label: 'ToolTalk', files: ['tooltalk/catalog.json', 'tooltalk/queries.jsonl'], split: 'hash', union: true },
  { id: 'tau2-banking', label: 'tau2 banking', files: ['tau2-banking/catalog.json', 'tau2-banking/queries.jsonl'], split: 'hash', union: true },
  { id: 'agentdojo', label: 'AgentDojo (held out)', files: ['agentdojo/catalog.json', 'agentdojo/queries.jsonl'], split: 'whole', union: true },
]

/** The union's labelled sources enter its catalog in this order, before any distractor. */
const UNION_ORDER = ['agentdojo', 'tau2-bench', 'tooltalk', 'tau2-banking']

export const DSH_TOOLS = 'catalogs/dsh/headless-tools.json'
const MCP_SERVERS = ['github', 'notion', 'playwright']
const mcpFile = (/** @type {string} */ server) => `catalogs/mcp/${server}.json`

/**
 * The bilingual set: pairs of requests, one in English and one in Chinese, written for this
 * project. Its catalog is DSH's tools, the MCP servers (the three above and two whose tools are
 * described in Chinese), then the labelled sources its requests also target, in the union's
 * order. Each language is reported as a set of its own; a pair's two requests share a part.
 */
const BILINGUAL_QUERIES = 'bench/data/bilingual/queries.jsonl'
const BILINGUAL_MCP_SERVERS = [...MCP_SERVERS, 'howtocook', 'antd']
const BILINGUAL_LANGUAGES = [
  { lang: 'en', id: 'bilingual-en', label: 'Bilingual, English' },
  { lang: 'zh', id: 'bilingual-zh', label: 'Bilingual, Chinese' },
]

/**
 * The multi-step set: pairs of requests that each ask for two to four steps, written for this
 * project as the bilingual set was and ranked over its catalog, each language a set of its own.
 * Its lines label steps, each with the tools that serve it, and `pnpm eval` scores it by steps (a
 * step is found when any of its tools is); it judges rankings that cover each step of a request,
 * so no part of it ever trains.
 */
const MULTISTEP_QUERIES = 'bench/data/multistep/queries.jsonl'
const MULTISTEP_LANGUAGES = [
  { lang: 'en', id: 'multistep-en', label: 'Multi-step, English (R@k over steps)' },
  { lang: 'zh', id: 'multistep-zh', label: 'Multi-step, Chinese (R@k over steps)' },
]

/**
 * The MCP servers recorded for the transformer's training, and the requests written for their
 * tools; those of the validation servers (`isValidationServer`) never train, and are ranked here
 * over every recorded server's tools, each language a set of its own.
 */
const RECORDED = 'model/build/train/mcp'
const WRITTEN = 'model/build/train/written'
const WRITTEN_LANGUAGES = [
  { lang: 'en', id: 'written-en', label: 'MCP servers, English' },
  { lang: 'zh', id: 'written-zh', label: 'MCP servers, Chinese' },
]
const recordedServers = () => readdirSync(repoPath(RECORDED)).filter((file) => file.endsWith('.json') && file !== 'servers.json')
  .map((file) => file.slice(0, -'.json'.length)).sort()

/** Every file an eval figure depends on, from the repository root. */
export const EVAL_INPUT_FILES = [
  ...SOURCES.flatMap(({ files }) => files.map((file) => `bench/data/${file}`)),
  DSH_TOOLS,
  ...BILINGUAL_MCP_SERVERS.map(mcpFile),
  BILINGUAL_QUERIES,
  MULTISTEP_QUERIES,
  ...recordedServers().map((server) => `${RECORDED}/${server}.json`),
  ...recordedServers().filter(isValidationServer).map((server) => `${WRITTEN}/${server}.jsonl`),
]

const readJson = (/** @type {string} */ path) => JSON.parse(readFileSync(repoPath(path), 'utf8'))

/**
 * The objects of a JSON Lines file, of the shape the caller names.
 * @template T
 * @param {string} path
 * @returns {T[]}
 */
const readJsonLines = (path) => readFileSync(repoPath(path), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))

/**
 * Every source alone, then the union, then the bilingual set's English and Chinese halves and its
 * Chinese requests over English descriptions, the multi-step set's two halves (the same catalog),
 * then the same three of the written MCP requests.
 * @returns {EvalSet[]}
 */
export function evalSets() {
  const sources = SOURCES.map(({ id, label, files: [catalog = '', queries = ''], split }) => ({
    id,
    label,
    whole: split === 'whole',
    /** @type {Tool[]} */
    catalog: readJson(`bench/data/${catalog}`),
    requests: readJsonLines(`bench/data/${queries}`).map((/** @type {{id: string, query: string, relevant: string[]}} */ { id: requestId, query, relevant }) => ({
      id: requestId,
      query,
      relevant,
      part: /** @type {Part} */ (split === 'whole' || isHeldBack(requestId) ? 'held' : 'dev'),
    })),
  }))
  const ours = bilingualCatalog(sources)
  return [...sources, unionSet(sources), ...withCrossLingual(pairedSets(BILINGUAL_QUERIES, BILINGUAL_LANGUAGES, ours)),
    ...pairedSets(MULTISTEP_QUERIES, MULTISTEP_LANGUAGES, ours).map((set) => ({ ...set, neverTrains: true })), ...withCrossLingual(writtenSets())]
}

const HAN = /\p{Script=Han}/u

/**
 * A language pair of sets (English, then Chinese, over one catalog), then the Chinese requests
 * whose every relevant tool is described without a Chinese character: a request in one language
 * for tools described in the other, which a model that reads only English cannot bridge.
 * @param {EvalSet[]} pair
 * @returns {EvalSet[]}
 */
function withCrossLingual([english, chinese]) {
  if (english === undefined || chinese === undefined) throw new Error('a language pair of sets has two sets')
  const englishOnly = new Set(chinese.catalog.filter(({ description }) => !HAN.test(description)).map(({ name }) => name))
  const crossing = {
    ...chinese,
    id: `${chinese.id}-over-en`,
    label: `${chinese.label}, tools described in English`,
    requests: chinese.requests.filter(({ relevant }) => relevant.every((name) => englishOnly.has(name))),
  }
  return [english, chinese, crossing]
}

/**
 * The same sets with each catalog as the JSON text `ToolIndex.fromJson` takes, for the scripts
 * that index every set once (the weak-match floor, prefetch Hit@N). The bilingual set and the
 * written MCP requests are left out: the plugin's floor was chosen, and the README's Hit@N
 * measured, on the sources and the union alone, and whether this project's own requests should
 * move them is a choice of its own. The multi-step set is left out with them.
 * @typedef {{id: string, catalogJson: string, requests: EvalRequest[]}} EvalSource
 * @returns {EvalSource[]}
 */
export function evalSources() {
  const ours = new Set([...BILINGUAL_LANGUAGES, ...MULTISTEP_LANGUAGES, ...WRITTEN_LANGUAGES].map(({ id }) => id))
  return evalSets().filter(({ id }) => !ours.has(id) && !id.endsWith('-over-en')).map(({ id, catalog, requests }) => ({ id, catalogJson: JSON.stringify(catalog), requests }))
}

/**
 * The union: the labelled sources' definitions first (a name already taken keeps its first
 * definition), then the distractors in a fixed order: the BFCL dev and live catalogs, DSH's own
 * tools and three MCP servers under the names DSH's bridge gives them. Each request keeps the
 * part it has in its own source.
 * @param {EvalSet[]} sources
 * @returns {EvalSet}
 */
function unionSet(sources) {
  const byId = new Map(sources.map((source) => [source.id, source]))
  const labelled = UNION_ORDER.map((id) => {
    const source = byId.get(id)
    if (source === undefined) throw new Error(`the union names an unknown source ${id}`)
    return source
  })
  const distractors = [
    ...(byId.get('bfcl')?.catalog ?? []),
    ...(byId.get('bfcl-live')?.catalog ?? []),
    ...readJson(DSH_TOOLS).tools.map(plainTool),
    ...MCP_SERVERS.flatMap((server) => readJson(mcpFile(server)).tools.map((/** @type {McpTool} */ tool) => mcpTool(server, tool))),
  ]
  /** @type {Map<string, Tool>} */
  const catalog = new Map()
  for (const tool of [...labelled.flatMap((source) => source.catalog), ...distractors]) {
    if (!catalog.has(tool.name)) catalog.set(tool.name, tool)
  }
  return {
    id: 'union',
    label: 'Union of the four',
    whole: false,
    catalog: [...catalog.values()],
    requests: labelled.flatMap((source) => source.requests),
  }
}

/**
 * The catalog of the bilingual and multi-step sets: DSH's own tools, the MCP servers under the
 * names DSH's bridge gives them, then the labelled sources its requests also target, in the
 * union's order (a name already taken keeps its first definition, so DSH's `web_search` and
 * `send_message` are DSH's here). No BFCL catalog: its general-purpose functions would serve many
 * of these requests without being labelled.
 * @param {EvalSet[]} sources
 * @returns {Tool[]}
 */
function bilingualCatalog(sources) {
  const byId = new Map(sources.map((source) => [source.id, source]))
  /** @type {Map<string, Tool>} */
  const catalog = new Map()
  const tools = [
    ...readJson(DSH_TOOLS).tools.map(plainTool),
    ...BILINGUAL_MCP_SERVERS.flatMap((server) => readJson(mcpFile(server)).tools.map((/** @type {McpTool} */ tool) => mcpTool(server, tool))),
    ...UNION_ORDER.flatMap((id) => byId.get(id)?.catalog ?? []),
  ]
  for (const tool of tools) {
    if (!catalog.has(tool.name)) catalog.set(tool.name, tool)
  }
  return [...catalog.values()]
}

/**
 * A file of request pairs, each request written once in English and once in Chinese, as one set
 * per language over one shared catalog. A request's part is that of its pair (`isHeldBack` of the
 * pair id), so the two languages of one pair always fall in the same part. A line names its tools
 * in `relevant`, or, in the multi-step set, in `steps`, whose tools together are its relevant ones.
 * @param {string} file
 * @param {{lang: string, id: string, label: string}[]} languages
 * @param {Tool[]} catalog
 * @returns {EvalSet[]}
 */
function pairedSets(file, languages, catalog) {
  /** @type {({id: string, pair: string, lang: string, query: string} & ({relevant: string[], steps?: undefined} | {steps: string[][]}))[]} */
  const lines = readJsonLines(file)
  return languages.map(({ lang, id, label }) => ({
    id,
    label,
    whole: false,
    catalog,
    requests: lines.filter((line) => line.lang === lang).map((line) => ({
      id: line.id,
      query: line.query,
      ...(line.steps === undefined ? { relevant: line.relevant } : { relevant: line.steps.flat(), steps: line.steps }),
      part: /** @type {Part} */ (isHeldBack(line.pair) ? 'held' : 'dev'),
      pair: line.pair,
    })),
  }))
}

/**
 * The requests written for the validation servers' tools, one set per language, over one catalog
 * of every recorded server's tools (in the servers' name order) under the names DSH's bridge gives
 * them. A request names its tool and the tools it also takes (`also`, `needs`); all are dev.
 * @returns {EvalSet[]}
 */
function writtenSets() {
  const servers = recordedServers()
  const catalog = servers.flatMap((server) => readJson(`${RECORDED}/${server}.json`).tools.map((/** @type {McpTool} */ tool) => mcpTool(server, tool)))
  const lines = servers.filter(isValidationServer).flatMap(writtenRequests)
  return WRITTEN_LANGUAGES.map(({ lang, id, label }) => ({
    id,
    label,
    whole: false,
    devOnly: true,
    catalog,
    requests: lines.filter((line) => line.lang === lang).map(({ id: requestId, query, relevant }) => ({ id: requestId, query, relevant, part: /** @type {Part} */ ('dev') })),
  }))
}

/**
 * One validation server's written requests, each with the names of the tools that serve it.
 * @param {string} server
 * @returns {{id: string, lang: string, query: string, relevant: string[]}[]}
 */
function writtenRequests(server) {
  /** @type {{tool: string, lang: string, query: string, also?: string[], needs?: string[]}[]} */
  const rows = readJsonLines(`${WRITTEN}/${server}.jsonl`)
  return rows.map(({ tool, lang, query, also = [], needs = [] }, number) => (
    { id: `${server}:${number}`, lang, query, relevant: [tool, ...also, ...needs].map((name) => `mcp__${server}__${name}`) }))
}

/**
 * @param {{name: string, description?: string, parameters?: Record<string, unknown>}} tool
 * @returns {Tool}
 */
export const plainTool = ({ name, description = '', parameters = {} }) => ({ name, description, parameters })

/**
 * An MCP server's tool as DSH's MCP bridge registers it: `mcp__<server>__<name>`.
 * @typedef {{name: string, description?: string, inputSchema?: Record<string, unknown>}} McpTool
 * @param {string} server @param {McpTool} tool
 * @returns {Tool}
 */
export const mcpTool = (server, { name, description = '', inputSchema = {} }) => ({ name: `mcp__${server}__${name}`, description, parameters: inputSchema })
