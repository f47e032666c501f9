// What searching costs the rest of DSH: how late DSH's event loop runs while 50 Agents search at
// once. A real in-process DSH 0.1.0-rc.8 (agents, tools, system prompt) with the built plugin
// and the BFCL catalog grown to `size` tools registered; each of 50 Agents calls `tool_search`
// through DSH's tool pipeline (`ctx.tools.execute`, as its loop runs a model's call) with the dev
// set's requests, one after another, all 50 at once, on a hybrid index whose transformer reads
// every query. `perf_hooks.monitorEventLoopDelay` samples the loop every millisecond meanwhile
// (each sample holds the interval, so an idle loop reads about 1.1 ms); the same is sampled for a
// second of no work first, the machine's own noise.
//
// For contrast, the same load with each answer's ranking on the JavaScript thread, as the
// plugin made it before it ranked off the thread (today it awaits `decideAsync`): `search` and
// `matchStrength`, each Agent yielding to the loop between searches; and the same calls of a tool that does nothing, which is what DSH's
// tool pipeline itself costs the loop (with every tool registered it builds each call's view of
// the registry, which at 10,000 tools takes milliseconds).
//
// Then where the JavaScript thread's time goes during the plugin's load: the same load once more
// under a CPU profile (`node:inspector`, a sample every 200 µs), each sample counted as the
// plugin's when any frame of its stack is in the built plugin (dist/), else as the rest's (DSH's
// tool pipeline, Node, the garbage collector), idle samples aside; per search.
//
// Figures to print and record, never assertions: they vary with the machine and its load.
import { Session } from 'node:inspector/promises'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { setImmediate as macrotask, setTimeout as sleep } from 'node:timers/promises'
import { Context } from '@deepseek-ai/cordis'
import { CallId } from '@deepseek-ai/dsh-llm'
import { SessionId } from '@deepseek-ai/dsh-session'
import { ToolIndex } from '../../index.js'
import { catalogOfSize, devQueries } from '../lib/catalogs.mjs'
import { catalogTool } from '../tokens/dsh-turn.mjs'
import { percentile } from './timing.mjs'
import { startDshRuntime } from '../lib/dsh-runtime.mjs'

export const AGENTS = 50
/** Searches each Agent makes in a full run. */
export const SEARCHES_PER_AGENT = 10
/** How long the idle loop is sampled. */
const IDLE_MS = 1000
/** The tool that does nothing, and answers on the loop's next turn: DSH's pipeline alone. */
const NOTHING = 'benchmark_does_nothing'
/** Milliseconds the monitor runs before and after a load. */
const SETTLE_MS = 5
/** The built plugin's folder, as the profiler writes a frame's script URL. */
export const PLUGIN_CODE = new URL('../../dist/', import.meta.url).href
/** Microseconds between two samples of the thread's profile. */
const PROFILE_INTERVAL_US = 200

/** The project's budget: the loop's p99 delay with 50 Agents searching at 1,000 tools. */
const BUDGET_P99_MS = { 1000: 5 }

/**
 * The event loop's delay while `agents` Agents search `searches` times each, at once.
 * @param {number} size - tools registered.
 * @param {{agents?: number | undefined, searches?: number | undefined}} [runs] - Agents, and searches each makes
 */
export async function eventLoopRow(size, { agents = AGENTS, searches = SEARCHES_PER_AGENT } = {}) {
  // The grown BFCL catalog has a tool of that name; the plugin would step aside for it.
  const catalog = catalogOfSize(size).filter((tool) => tool.name !== 'tool_search')
  const queries = devQueries().map((request) => request.query)
  // Every tool's transformer vector in place before anything is timed: an index of these tools
  // built afterwards (the plugin's) has them at once, since the process remembers them.
  const reference = ToolIndex.fromJson(JSON.stringify(catalog), { ranking: 'hybrid' })
  await reference.ready()
  const ctx = new Context()
  try {
    await startDshRuntime(ctx)
    for (const tool of catalog) ctx.tools.register(catalogTool(tool))
    // It answers on a later turn of the loop, as any tool that does some work elsewhere does.
    ctx.tools.register({ ...catalogTool({ name: NOTHING, description: 'Does nothing.', parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } } }), execute: () => macrotask(null) })
    await ctx.plugin(await import('../../dist/index.js'), { ranking: 'auto' })
    const handles = await Promise.all(Array.from({ length: agents }, (_, i) => ctx.agents.create({
      sessionId: SessionId(`event-loop-${size}-${i}`),
      agentOptions: { provider: 'none', model: 'none' },
    })))
    let calls = 0
    /** One `tool_search` call (or one of `tool`) of an Agent, through DSH's tool pipeline; its milliseconds. */
    const search = async (/** @type {import('@deepseek-ai/dsh-agent').Agent} */ agent, /** @type {string} */ query, tool = 'tool_search') => {
      const start = performance.now()
      const result = await ctx.tools.execute({
        callId: CallId(`event-loop-${(calls += 1)}`),
        name: tool,
        arguments: { query: [...query].slice(0, 4096).join(''), limit: 5 },
        signal: new AbortController().signal,
        agent,
      })
      if (result.isError) throw new Error(`tool_search failed: ${JSON.stringify(result.content)}`)
      return performance.now() - start
    }
    // Warm-up: each Agent's registered tools, the shared index, the code's first runs.
    await Promise.all(handles.map(({ agent }) => search(agent, 'weather forecast')))
    const idle = (await measureLoad([() => sleep(IDLE_MS, [0])])).delayMs
    const callsOf = (/** @type {string} */ tool) => handles.map(({ agent }, a) => async () => {
      const times = []
      for (let s = 0; s < searches; s++) times.push(await search(agent, /** @type {string} */ (queries[(a * searches + s) % queries.length]), tool))
      return times
    })
    const plugin = await measureLoad(callsOf('tool_search'))
    const thread = await threadShare(callsOf('tool_search'), agents * searches)
    const pipeline = await measureLoad(callsOf(NOTHING))
    const onThread = await measureLoad(handles.map((_, a) => async () => {
      const times = []
      for (let s = 0; s < searches; s++) {
        await macrotask()
        const start = performance.now()
        const query = /** @type {string} */ (queries[(a * searches + s) % queries.length])
        const [best] = reference.search(query, 5, { fill: false })
        if (best !== undefined) reference.matchStrength(query, best.name)
        times.push(performance.now() - start)
      }
      return times
    }))
    const budget = BUDGET_P99_MS[/** @type {1000} */ (size)]
    return { tools: size, agents, searches: agents * searches, idle, plugin, thread, onThread, pipeline, ...(budget === undefined ? {} : { budgetP99Ms: budget }) }
  } finally {
    await ctx.fiber.dispose()
  }
}

/**
 * Runs every searcher at once and samples the event loop until all are done.
 * @param {(() => Promise<number[]>)[]} searchers - each resolves with its searches' milliseconds.
 */
async function measureLoad(searchers) {
  const loop = monitorEventLoopDelay({ resolution: 1 })
  // A sample is the time between two of the monitor's ticks: a few ticks before the load and
  // after it, so that the first and the last stretch the load holds the loop are sampled too.
  loop.enable()
  await sleep(SETTLE_MS)
  const times = (await Promise.all(searchers.map((searcher) => searcher()))).flat().sort((a, b) => a - b)
  await sleep(SETTLE_MS)
  loop.disable()
  const delay = (/** @type {number} */ nanoseconds) => round3(nanoseconds / 1e6)
  return {
    delayMs: { p50: delay(loop.percentile(50)), p99: delay(loop.percentile(99)), max: delay(loop.max) },
    searchMs: { p50: round3(percentile(times, 50)), p99: round3(percentile(times, 99)) },
  }
}

/**
 * The JavaScript thread's busy time while every searcher runs once more, per search: in the
 * plugin's own code, and in everything else (see the module comment).
 * @param {(() => Promise<number[]>)[]} searchers
 * @param {number} searches - how many searches they make in all.
 */
async function threadShare(searchers, searches) {
  const session = new Session()
  session.connect()
  try {
    await session.post('Profiler.enable')
    await session.post('Profiler.setSamplingInterval', { interval: PROFILE_INTERVAL_US })
    await session.post('Profiler.start')
    await Promise.all(searchers.map((searcher) => searcher()))
    const { profile } = await session.post('Profiler.stop')
    const { plugin, rest } = attribute(profile)
    return { pluginMsPerSearch: round3(plugin / 1000 / searches), restMsPerSearch: round3(rest / 1000 / searches) }
  } finally {
    session.disconnect()
  }
}

/**
 * A profile's sampled microseconds: those whose stack runs the plugin's code, and the other busy ones.
 * @param {import('node:inspector').Profiler.Profile} profile
 */
export function attribute({ nodes, samples = [], timeDeltas = [] }) {
  /** @type {Map<number, import('node:inspector').Profiler.ProfileNode>} */
  const byId = new Map(nodes.map((node) => [node.id, node]))
  /** @type {Map<number, number>} */
  const parentOf = new Map()
  for (const node of nodes) for (const child of node.children ?? []) parentOf.set(child, node.id)
  /** @type {Map<number, boolean>} */
  const inPlugin = new Map()
  /** Whether a node or any caller above it is the plugin's code (remembered for every node walked). */
  const runsPlugin = (/** @type {number} */ id) => {
    const walked = []
    /** @type {number | undefined} */
    let at = id
    let known = false
    while (at !== undefined) {
      const remembered = inPlugin.get(at)
      if (remembered !== undefined) {
        known = remembered
        break
      }
      walked.push(at)
      if (byId.get(at)?.callFrame.url.startsWith(PLUGIN_CODE) === true) {
        known = true
        break
      }
      at = parentOf.get(at)
    }
    for (const node of walked) inPlugin.set(node, known)
    return known
  }
  let plugin = 0
  let rest = 0
  samples.forEach((id, i) => {
    const micros = timeDeltas[i] ?? 0
    if (byId.get(id)?.callFrame.functionName === '(idle)') return
    if (runsPlugin(id)) plugin += micros
    else rest += micros
  })
  return { plugin, rest }
}

const round3 = (/** @type {number} */ x) => Math.round(x * 1000) / 1000
