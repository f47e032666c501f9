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
// Figures to print and record, never assertions: they vary with the machine and its load.
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
    return { tools: size, agents, searches: agents * searches, idle, plugin, onThread, pipeline, ...(budget === undefined ? {} : { budgetP99Ms: budget }) }
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

const round3 = (/** @type {number} */ x) => Math.round(x * 1000) / 1000
