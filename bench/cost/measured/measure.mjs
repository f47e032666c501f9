// `pnpm benchmark --measured-cost`: what sessions cost, measured on the request bodies the real
// `dsh` CLI sends through its real DeepSeek adapter, for every catalog of the token table and
// every column of columns.mjs, at each session length. docs/cost.md describes the method.
//
// Per catalog: the catalog's tools as DSH sends them (the token table's own turn without the
// plugin), the tools its search turns need (targets.mjs), the transformer's vectors of every tool
// put in the vector cache the dsh runs read (so searches rank as the plugin ranks once its
// vectors are in place), then per length one plan (plan.mjs) played in every column, one dsh
// process per session (dsh-session.mjs), billed from its requests (session-bill.mjs).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mcpClientPatch } from '../../../e2e/lib/mcp-patch.mjs'
import { repoPath } from '../../lib/repo.mjs'
import { tokenCatalogs } from '../../tokens/token-catalogs.mjs'
import { breakEvenStep } from '../billing.mjs'
import { modelledSession } from './agreement.mjs'
import { BASELINE, COLUMNS, settingsYaml, unsupported } from './columns.mjs'
import { runSession } from './dsh-session.mjs'
import { RESULT_WORDS, sessionPlan } from './plan.mjs'
import { prepareProfiles } from './profiles.mjs'
import { Tokenizer } from './request-tokens.mjs'
import { billSession } from './session-bill.mjs'
import { sessionTargets } from './targets.mjs'

/**
 * @typedef {import('../parameters.mjs').CostParameters} CostParameters
 * @typedef {import('../cost.mjs').TokenTable} TokenTable
 * @typedef {import('./session-bill.mjs').SessionBill['figures']} SessionFigures
 * @typedef {SessionFigures & {saved: number, savedPercent: number, breakEvenStep: number | null}} ColumnFigures
 * @typedef {{steps: number, columns: Record<string, ColumnFigures>, modelled: import('./agreement.mjs').ModelledSession}} MeasuredSession
 * @typedef {{id: string, label: string, targets: string[], sessions: MeasuredSession[]}} MeasuredRow
 * @typedef {Awaited<ReturnType<typeof measureCost>>} MeasuredCostResults
 */

/** The session lengths measured. */
export const MEASURED_STEPS = [10, 50, 200]

/**
 * The cache unit, as DeepSeek documents it. The guide that says it in these words is the one the
 * DeepSeek API docs carried from the launch of context caching (2024-08-02, its announcement says
 * the same); the current guide describes whole "cache prefix units" without a size (docs/cost.md).
 */
export const CACHE_UNIT = {
  tokens: 64,
  quote: 'The cache system uses 64 tokens as a storage unit; content less than 64 tokens will not be cached.',
  source: 'https://api-docs.deepseek.com/guides/kv_cache',
  announcement: 'https://api-docs.deepseek.com/news/news0802',
}

/** A session's dsh run may take this long before it counts as hung. */
const SESSION_TIMEOUT_MS = 20 * 60_000

const REPLAY_SERVER = repoPath('bench/tokens/mcp-replay-server.mjs')
const DSH_FIXTURE = repoPath('catalogs/dsh/headless-tools.json')

const round = (/** @type {number} */ dollars) => Math.round(dollars * 1e8) / 1e8 + 0
const percent = (/** @type {number} */ part, /** @type {number} */ whole) => Math.round((part / whole) * 1000) / 10 + 0
const share = (/** @type {number} */ x) => Math.round(x * 1e4) / 1e4

/**
 * @param {object} options
 * @param {TokenTable} options.tokens - the recorded token table (its queries and hits).
 * @param {CostParameters} options.parameters - prices, session shape and prefetch, as the model's.
 * @param {string[]} [options.rows] - catalog ids to measure (default all).
 * @param {number[]} [options.steps] - session lengths (default {@link MEASURED_STEPS}).
 * @param {string} options.cache - a folder kept between runs: the DSH installation, the vectors.
 * @param {string} options.scratch - a folder for this run's homes and packed plugins.
 * @param {(message: string) => void} options.log
 * @param {string[]} [options.columns] - the ids of the columns to play (default all; the baseline always plays).
 * @param {(session: {row: string, steps: number, column: string, run: import('./dsh-session.mjs').SessionRun, tokenizer: Tokenizer}) => void} [options.onRun]
 *   - given each session's requests as DSH sent them (bench/cost/flash-native.mjs bills them again).
 */
export async function measureCost({ tokens, parameters, rows, steps = MEASURED_STEPS, cache, scratch, log, columns: played, onRun }) {
  const started = performance.now()
  const vectors = join(cache, 'vectors')
  // The harness embeds in the same vector cache the dsh runs read (see embedAhead).
  const { setVectorCache, ToolIndex } = await import('../../../index.js')
  setVectorCache(vectors)
  const { DEFAULT_CORE_TOOLS } = await import('../../../dist/offer/core-tools.js')
  const { recordTurn } = await import('../../tokens/dsh-turn.mjs')
  log('measured cost: installing DSH and the plugins into fresh homes')
  const profiles = await prepareProfiles(scratch, cache, { ...process.env, DSH_TOOL_SEARCH_CACHE: vectors })
  const columns = COLUMNS.map((column) => ({ ...column, reason: column.settings === null ? undefined : unsupported(column, profiles.settings) }))
  const runnable = columns.filter((column) => column.reason === undefined && (played === undefined || column.id === BASELINE || played.includes(column.id)))
  // One working directory for every session: its path is in the system prompt and in every
  // file read, so a fixed one keeps the token counts the same from run to run.
  const workdir = join(tmpdir(), 'dsh-tool-search-cost')
  mkdirSync(workdir, { recursive: true })
  /** @type {{tools: {name: string}[]}} */
  const dshFixture = JSON.parse(readFileSync(DSH_FIXTURE, 'utf8'))
  const builtins = new Set(dshFixture.tools.map((tool) => tool.name))
  // As many targets as the longest default session searches for, whichever lengths this run
  // measures: the targets spread over the catalog by their number, so a run of some lengths
  // (--steps) must pick the same ones as the whole run.
  const searchTurns = Math.ceil(Math.max(...MEASURED_STEPS, ...steps) / parameters.session.stepsPerTurn / parameters.session.searchEveryTurns)

  /** @type {MeasuredRow[]} */
  const measured = []
  for (const catalog of tokenCatalogs().filter((candidate) => rows === undefined || rows.includes(candidate.id))) {
    const tokenRow = tokens.rows.find((row) => row.id === catalog.id)
    if (tokenRow === undefined) throw new Error(`the token table has no row ${catalog.id}; run \`pnpm benchmark --tokens\` first`)
    const setup = catalog.setup()
    const [baseline] = /** @type {[import('../../../e2e/lib/model-server.mjs').ChatRequest]} */ (await recordTurn({ ...setup, plugin: false }))
    await embedAhead(ToolIndex, [...baseline.tools, ...dshFixture.tools.filter((tool) => !baseline.tools.some((/** @type {{function: {name: string}}} */ sent) => sent.function.name === tool.name)).map((tool) => ({ type: 'function', function: tool }))])
    const targets = sessionTargets({
      catalog: baseline.tools,
      query: tokenRow.query,
      hits: tokenRow.withPlugin.afterSearch.hits,
      builtins,
      core: new Set(DEFAULT_CORE_TOOLS),
    }, searchTurns)
    const patch = join(scratch, `patch-${catalog.id}.yml`)
    writeFileSync(patch, readFileSync(profiles.hmrPatch, 'utf8') + (setup.mcp ?? []).map(({ server, fixture }) => mcpClientPatch({
      node: process.execPath, server: REPLAY_SERVER, fixture, serverName: server, args: [String(RESULT_WORDS)],
    })).join(''))
    // DSH registers its own tools in the CLI; the fixture registers the rest that no MCP server brings.
    const registered = (setup.tools ?? []).filter((tool) => !builtins.has(tool.name))
    /** @type {MeasuredSession[]} */
    const sessions = []
    for (const length of steps) {
      const tokenizer = new Tokenizer()
      const shape = { ...parameters.session, steps: length }
      const plan = sessionPlan({ shape, targets, workdir, tokenizer })
      /** @type {Record<string, import('./session-bill.mjs').SessionBill>} */
      const bills = {}
      for (const column of runnable) {
        if (column.settings !== null) writeFileSync(profiles.pluginSettingsFile, settingsYaml(column.settings))
        const run = await runSession({
          bin: profiles.dsh.bin,
          env: column.settings === null ? profiles.bare : profiles.plugin,
          patch,
          workdir,
          scriptFile: join(scratch, 'session-script.json'),
          plan,
          catalog: registered,
          resultWords: RESULT_WORDS,
          timeoutMs: SESSION_TIMEOUT_MS,
        })
        onRun?.({ row: catalog.id, steps: length, column: column.id, run, tokenizer })
        bills[column.id] = billSession(run, { steps: length, stepsPerTurn: shape.stepsPerTurn, prices: parameters.prices, unit: CACHE_UNIT.tokens, tokenizer })
        log(`measured cost: ${catalog.id}, ${length} steps, ${column.id}: $${bills[column.id]?.figures.cost.toFixed(4)} in ${run.ms} ms`)
      }
      sessions.push({ steps: length, columns: columnFigures(bills), modelled: modelledSession(tokenRow, parameters, length) })
    }
    measured.push({ id: catalog.id, label: catalog.label, targets: targets.map((target) => target.name), sessions })
  }
  return {
    parameters: {
      prices: parameters.prices,
      session: parameters.session,
      prefetch: parameters.prefetch,
      sessionSteps: steps,
      cacheUnit: CACHE_UNIT,
      dsh: profiles.dsh.version,
    },
    /** @type {{id: string, label: string, settings: import('./columns.mjs').PluginSettings | null, ran: boolean, reason?: string}[]} */
    columns: columns.map(({ id, label, settings, reason }) => ({ id, label, settings, ...reason === undefined ? { ran: true } : { ran: false, reason } })),
    rows: measured,
    wallSeconds: Math.round((performance.now() - started) / 1000),
  }
}

/**
 * Has the vector cache the dsh runs read hold the transformer's vector of every tool a session
 * offers. The plugin's index then loads them at once instead of embedding for seconds to minutes
 * while the session runs, and its searches rank with them (see FIRST_REPLY_DELAY_MS).
 * @param {typeof import('../../../index.js').ToolIndex} ToolIndex
 * @param {unknown[]} tools - OpenAI-shaped, as DSH sends them; the core reads that shape.
 */
async function embedAhead(ToolIndex, tools) {
  await ToolIndex.fromJson(JSON.stringify(tools)).ready()
}

/**
 * Each column's figures, rounded, with what it saves against every tool offered and from which
 * step it stays cheaper.
 * @param {Record<string, import('./session-bill.mjs').SessionBill>} bills
 * @returns {Record<string, ColumnFigures>}
 */
function columnFigures(bills) {
  const baseline = bills[BASELINE]
  if (baseline === undefined) throw new Error(`the ${BASELINE} column did not run`)
  const all = baseline.figures.cost
  return Object.fromEntries(Object.entries(bills).map(([id, { figures, cumulative }]) => [id, {
    ...figures,
    cost: round(figures.cost),
    cachedShare: { mean: share(figures.cachedShare.mean), minAfterFirst: figures.cachedShare.minAfterFirst === null ? null : share(figures.cachedShare.minAfterFirst) },
    saved: round(all - figures.cost),
    savedPercent: percent(all - figures.cost, all),
    breakEvenStep: id === BASELINE ? null : breakEvenStep(cumulative, baseline.cumulative),
  }]))
}

/**
 * The recorded section with the freshly measured sessions in place of the recorded ones of the
 * same catalog and length (a run limited by --rows or --steps). The columns and parameters are
 * the fresh run's; the recorded wall time stays, as it was the whole run's.
 * @param {MeasuredCostResults | undefined} recorded
 * @param {MeasuredCostResults} fresh
 * @returns {MeasuredCostResults}
 */
export function mergeMeasured(recorded, fresh) {
  if (recorded === undefined) return fresh
  const rows = [...recorded.rows]
  for (const row of fresh.rows) {
    const at = rows.findIndex((candidate) => candidate.id === row.id)
    const sessions = [...at === -1 ? [] : /** @type {MeasuredRow} */ (rows[at]).sessions.filter((session) => !row.sessions.some((again) => again.steps === session.steps)), ...row.sessions]
      .sort((a, b) => a.steps - b.steps)
    const merged = { ...row, sessions }
    if (at === -1) rows.push(merged)
    else rows[at] = merged
  }
  const order = tokenCatalogs().map((catalog) => catalog.id)
  rows.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id))
  const sessionSteps = [...new Set(rows.flatMap((row) => row.sessions.map((session) => session.steps)))].sort((a, b) => a - b)
  return { ...fresh, parameters: { ...fresh.parameters, sessionSteps }, rows, wallSeconds: recorded.wallSeconds }
}
