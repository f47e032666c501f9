// Many Agents at once on the real DSH runtime: 50 Agents search and use tools, turn after turn,
// while tools register and unregister and the plugin's settings change under them. Only the
// model is scripted: a stateless policy that answers each request from its own messages.
//
// Every request is checked against a logical clock. A request's prompt was assembled somewhere
// between the Agent's last tool result, model call or turn start and this call: the window
// [lo, hi]. Then:
// - every tool the Agent had committed by `lo` is offered, unless it was unregistered or under
//   neverSearch at some point of the window (no selection lost);
// - every offered deferred tool was registered at some point of the window and was selected,
//   alwaysVisible, or core (no schema of a removed tool, nothing found by another Agent).
// After each round of 50 Agents the plugin's listeners are back at their baseline, native
// indexes do not pile up, and the heap stays flat from round to round.
//
// Every index is hybrid, and the transformer takes part in every search: the warm-up embeds every
// tool the run registers, and an index whose every tool's text the process has embedded has its
// vectors at once.

import { setImmediate as macrotask } from 'node:timers/promises'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Context } from '@deepseek-ai/cordis'
import type { AgentHandle } from '@deepseek-ai/dsh-agent'
import { LlmAdapter, createUserMessage, type GenerateOptions, type LlmResolvedModelInfo, type StreamChunk } from '@deepseek-ai/dsh-llm'
import { SessionId } from '@deepseek-ai/dsh-session'
import { selectionFromEvents } from '../../index.js'
import { DEFAULT_CORE_TOOLS } from '../../plugin/offer/core-tools.ts'
import { TOOL_SEARCH_SETTINGS_NAMESPACE } from '../../plugin/host/settings.ts'
import { DEFERRED_NAMES, fixtureTool } from '../support/fixtures.ts'
import { createHarness, type Harness, NATIVE } from '../support/harness.ts'
import { reply, toolCalls } from '../support/scripted-model.ts'

// Every native index the plugin builds, held weakly: how many are still alive says whether the
// plugin's index cache lets go of indexes no Agent uses.
const built = vi.hoisted(() => ({ indexes: [] as WeakRef<import('../../index.js').ToolIndex>[] }))
vi.mock('../../index.js', async (importOriginal) => {
  const { observeIndexBuilds } = await import('../support/observed-native.ts')
  return observeIndexBuilds(
    await importOriginal(),
    (_json, index) => { built.indexes.push(new WeakRef(index)) },
    { ranking: 'hybrid' },
  )
})

const AGENTS = 50
const TURNS = 8
const ROUNDS = 3
const TOPICS = ['invoice', 'calendar', 'translate', 'payment', 'ticket', 'map', 'backup', 'deploy', 'survey', 'podcast']
/** Tools that come and go during the run, two per topic. */
const CHURN = TOPICS.flatMap((topic, i) => [0, 1].map(k => ({
  name: `mcp__churn__${topic}_${k}`,
  description: `Manage ${topic} records (churn tool ${i * 2 + k}).`,
})))
const QUERIES = [...TOPICS.map(topic => `${topic} records`), 'weather forecast', 'github issue', 'send email', 'postgres query', 'web search']
const ALWAYS_OFFERED = new Set([...DEFAULT_CORE_TOOLS, 'tool_search'])

/** A deterministic stream of choices (SplitMix32-like): every run asks for the same work. */
function random(seed: number): (n: number) => number {
  let state = seed >>> 0
  return (n) => {
    state = (state + 0x9e3779b9) >>> 0
    let z = state
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
    return ((z ^ (z >>> 16)) >>> 0) % n
  }
}

/** V8's gc() without --expose-gc on vitest's command line: the flag set now, the function taken from a fresh context. */
function forceGc(): () => void {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

interface Settings { readonly defaultLimit: number; readonly alwaysVisible: readonly string[]; readonly neverSearch: readonly string[] }

/** A settings value and the clock interval during which it may have been in force. */
interface SettingsSpan { readonly settings: Settings; readonly from: number; to: number }

interface RequestRecord { readonly agent: string; readonly lo: number; readonly hi: number; readonly offered: readonly string[] }

/** Everything the run observed, on one logical clock. */
class Observations {
  clock = 0
  /** Per churn tool, the clock intervals it was registered. */
  readonly registered = new Map<string, { from: number; to: number }[]>()
  readonly settings: SettingsSpan[] = [{ settings: { defaultLimit: 5, alwaysVisible: [], neverSearch: [] }, from: 0, to: Infinity }]
  /** Per Agent, each committed name with the clock of its first commit. */
  readonly committed = new Map<string, Map<string, number>>()
  readonly requests: RequestRecord[] = []
  /** Per Agent, the earliest clock its next prompt may have been assembled at. */
  readonly since = new Map<string, number>()
  readonly counts = { searches: 0, failedSearches: 0, uses: 0, registrations: 0, unregistrations: 0, settingsChanges: 0 }

  tick(): number {
    this.clock += 1
    return this.clock
  }

  /** Whether `name` was registered through all of [lo, hi] (base tools always are). */
  registeredThroughout(name: string, lo: number, hi: number): boolean {
    const spans = this.registered.get(name)
    return spans === undefined || spans.some(span => span.from <= lo && span.to >= hi)
  }

  /** Whether `name` was registered at some point of [lo, hi]. */
  registeredDuring(name: string, lo: number, hi: number): boolean {
    const spans = this.registered.get(name)
    return spans === undefined || spans.some(span => span.from <= hi && span.to >= lo)
  }

  /** Settings values that may have been in force at some point of [lo, hi]. */
  settingsDuring(lo: number, hi: number): Settings[] {
    return this.settings.filter(span => span.from <= hi && span.to >= lo).map(span => span.settings)
  }
}

/** The model: a stateless policy that reads what to do from the request it answers. */
class PolicyModel extends LlmAdapter {
  private calls = 0

  constructor(private readonly seen: Observations, private readonly observe: () => void) {
    super()
  }

  override resolveModel(provider: string, model: string): Promise<LlmResolvedModelInfo> {
    return Promise.resolve({ provider, id: model, name: model })
  }

  async * stream(options: GenerateOptions): AsyncIterable<StreamChunk> {
    const agent = String(options.sessionId)
    this.observe()
    const hi = this.seen.tick()
    this.seen.requests.push({ agent, lo: this.seen.since.get(agent) ?? 0, hi, offered: (options.tools ?? []).map(tool => tool.name) })
    this.seen.since.set(agent, hi)
    // "Think" for a few turns of the event loop, so that churn and settings changes land while
    // requests are in flight, not only between them.
    for (let i = 0; i < 3; i += 1) await macrotask()
    for (const chunk of this.respond(options)) yield chunk
  }

  private respond(options: GenerateOptions): StreamChunk[] {
    const last = options.messages.at(-1)
    const blocks = (Array.isArray(last?.content) ? last.content : []) as { type: string; text?: string; toolCallId?: string; isError?: boolean; content?: { type: string; text?: string }[] }[]
    const results = blocks.filter(block => block.type === 'tool-result')
    if (results.length === 0) {
      // A new turn: "search: <query>[ | <query>]" asks for one search per query, in one step.
      const text = blocks.find(block => block.type === 'text')?.text ?? ''
      const queries = text.replace(/^search: /, '').split(' | ')
      this.seen.counts.searches += queries.length
      return this.toolCalls(queries.map(query => ({ name: 'tool_search', args: { query } })))
    }
    // After searches: use the first tool the first successful search found; after that, stop.
    const found = results.flatMap(result => (result.isError === true ? [] : foundNames(result.content ?? [])))
    const searched = results.some(result => String(result.toolCallId).startsWith('search-'))
    if (searched && found.length > 0) {
      this.seen.counts.uses += 1
      return this.toolCalls([{ name: found[0]!, args: {} }])
    }
    return reply('done')
  }

  private toolCalls(calls: { name: string; args: unknown }[]): StreamChunk[] {
    return toolCalls(...calls.map(({ name, args }) => ({ id: `${name === 'tool_search' ? 'search' : 'use'}-${(this.calls += 1)}`, name, args })))
  }
}

function foundNames(content: readonly { type: string; text?: string }[]): string[] {
  const text = content.find(block => block.type === 'text')?.text ?? ''
  try {
    return (JSON.parse(text) as { tools: { name: string }[] }).tools.map(tool => tool.name)
  } catch {
    return []
  }
}

function listenerCount(ctx: Context): number {
  return Object.values(ctx.events._hooks).reduce((sum, hooks) => sum + (hooks?.length ?? 0), 0)
}

/** Every live index has the transformer's vectors in place: it reads a query with it. */
function expectTransformerEverywhere(): void {
  for (const ref of built.indexes) {
    const index = ref.deref()
    const name = index?.names()[0]
    if (name !== undefined) expect(index?.explain('weather forecast', name)?.semantic?.contextual, `the transformer in an index of ${index?.size} tools`).toBeTypeOf('number')
  }
}

function liveIndexes(gc: () => void): number {
  gc()
  return built.indexes.filter(ref => ref.deref() !== undefined).length
}

/**
 * Tools registered and unregistered, four operations per turn of the event loop, until `done`.
 * @param unregister - disposers of the churn tools registered now, kept from round to round.
 */
async function registryChurn(harness: Harness, seen: Observations, unregister: Map<string, () => void>, done: () => boolean): Promise<void> {
  const pick = random(7 + seen.clock)
  while (!done()) {
    await macrotask()
    confirmSettings(harness, seen)
    for (let i = 0; i < 4; i += 1) {
      const tool = CHURN[pick(CHURN.length)]!
      const dispose = unregister.get(tool.name)
      if (dispose === undefined) {
        unregister.set(tool.name, harness.ctx.tools.register(fixtureTool(tool)))
        const spans = seen.registered.get(tool.name) ?? []
        spans.push({ from: seen.tick(), to: Infinity })
        seen.registered.set(tool.name, spans)
        seen.counts.registrations += 1
      } else {
        // Closed before the call: a request stamped after this tick must not offer the tool.
        seen.registered.get(tool.name)!.at(-1)!.to = seen.tick()
        dispose()
        unregister.delete(tool.name)
        seen.counts.unregistrations += 1
      }
    }
  }
}

/**
 * neverSearch, alwaysVisible and defaultLimit changed through DSH's settings service, one write
 * after another, until `done`. Each value carries a unique marker name in alwaysVisible (never a
 * registered tool), so {@link confirmSettings} can tell which value the plugin is using.
 */
async function settingsChurn(harness: Harness, seen: Observations, done: () => boolean): Promise<void> {
  const pick = random(13 + seen.clock)
  const candidates = [...DEFERRED_NAMES, ...CHURN.map(t => t.name)]
  while (!done()) {
    const current = seen.settings.at(-1)!.settings
    const name = candidates[pick(candidates.length)]!
    const toggle = (list: readonly string[]) => (list.includes(name) ? list.filter(n => n !== name) : [...list, name])
    const changed = pick(2) === 0
      ? { ...current, neverSearch: toggle(current.neverSearch) }
      : { ...current, alwaysVisible: toggle(current.alwaysVisible), defaultLimit: 1 + pick(8) }
    const marker = `stress-marker-${seen.settings.length}`
    const next: Settings = { ...changed, alwaysVisible: [...changed.alwaysVisible.filter(n => !n.startsWith('stress-marker-')), marker] }
    seen.settings.push({ settings: next, from: seen.tick(), to: Infinity })
    seen.counts.settingsChanges += 1
    await harness.ctx.settings.mutate(TOOL_SEARCH_SETTINGS_NAMESPACE, [
      { op: 'set', path: ['defaultLimit'], value: next.defaultLimit },
      { op: 'set', path: ['alwaysVisible'], value: [...next.alwaysVisible] },
      { op: 'set', path: ['neverSearch'], value: [...next.neverSearch] },
    ])
    await macrotask()
  }
}

/** End the spans of every settings value older than the one the plugin now reports. */
function confirmSettings(harness: Harness, seen: Observations): void {
  const marker = harness.ctx.toolSearch.settings().alwaysVisible.find(name => name.startsWith('stress-marker-'))
  const current = marker === undefined ? 0 : Number(marker.slice('stress-marker-'.length))
  const now = seen.tick()
  for (const span of seen.settings.slice(0, current)) if (span.to === Infinity) span.to = now
}

/** The request-by-request checks described at the top of this file. */
function checkRequest(seen: Observations, request: RequestRecord): void {
  const { agent, lo, hi } = request
  const offered = new Set(request.offered)
  const possible = seen.settingsDuring(lo, hi)
  const committed = seen.committed.get(agent) ?? new Map<string, number>()
  for (const [name, at] of committed) {
    if (at > lo) continue
    const hidden = possible.some(s => s.neverSearch.includes(name))
    if (!hidden && seen.registeredThroughout(name, lo, hi)) {
      expect(offered.has(name), `${agent} lost ${name} (committed at ${at}) in request [${lo}, ${hi}]`).toBe(true)
    }
  }
  for (const name of offered) {
    if (ALWAYS_OFFERED.has(name)) continue
    expect(seen.registeredDuring(name, lo, hi), `${agent} was offered ${name}, unregistered all of [${lo}, ${hi}]`).toBe(true)
    const visible = (committed.get(name) ?? Infinity) <= hi || possible.some(s => s.alwaysVisible.includes(name))
    expect(visible, `${agent} was offered ${name}, neither selected nor always visible`).toBe(true)
    expect(possible.every(s => s.neverSearch.includes(name)), `${agent} was offered ${name} under neverSearch`).toBe(false)
  }
}

let harness: Harness | undefined
afterEach(async () => { await harness?.close() })

describe('50 Agents under registry and settings churn', () => {
  it('lose no selection, offer no removed tool, and leave no listener, index or heap behind', async () => {
    const started = performance.now()
    const gc = forceGc()
    const seen = new Observations()
    harness = await createHarness({ plugin: NATIVE, settings: true })
    const h = harness
    h.ctx.llm.registerAdapter(['policy'], new PolicyModel(seen, () => { confirmSettings(h, seen) }))
    h.ctx.on('tools/result', (exec, result) => {
      if (exec.agent === undefined) return
      if (exec.name === 'tool_search' && result.isError) seen.counts.failedSearches += 1
      if (exec.name === 'tool_search' && !result.isError) {
        const names = (result.value as { tools: { name: string }[] }).tools.map(tool => tool.name)
        const mine = seen.committed.get(exec.agent.id) ?? new Map<string, number>()
        const at = seen.tick()
        for (const name of names) if (!mine.has(name)) mine.set(name, at)
        seen.committed.set(exec.agent.id, mine)
      }
      // The next prompt is assembled once the step's tools are done: after every result.
      seen.since.set(exec.agent.id, seen.tick())
    })
    const create = (id: string): Promise<AgentHandle> =>
      h.ctx.agents.create({ sessionId: SessionId(id), agentOptions: { provider: 'policy', model: 'policy' } })
    const turn = async (handle: AgentHandle, text: string): Promise<void> => {
      seen.since.set(handle.agent.id, seen.tick())
      handle.agent.followup(createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }))
      await handle.agent.whenIdle()
    }

    // Warm up (JIT, module state, the native word memo, the transformer's vectors of every tool
    // the run registers), then take the baselines.
    const warm = await create('warm-up')
    const everyChurnTool = CHURN.map(tool => h.ctx.tools.register(fixtureTool(tool)))
    await turn(warm, 'search: weather forecast')
    await Promise.all(built.indexes.flatMap(ref => ref.deref() ?? []).map(index => index.ready()))
    for (const dispose of everyChurnTool) dispose()
    await warm.dispose()
    const listenersBefore = listenerCount(h.ctx)
    gc()
    const heapMiB = [process.memoryUsage().heapUsed / 2 ** 20]
    const listeners = [listenersBefore]
    const indexesWithAgents: number[] = []
    const pick = random(11)
    const churned = new Map<string, () => void>()
    let requests = 0

    // The same workload in rounds: a leak grows round after round, warm-up costs do not.
    for (let round = 0; round < ROUNDS; round += 1) {
      let running = true
      const churning = Promise.all([registryChurn(h, seen, churned, () => !running), settingsChurn(h, seen, () => !running)])
      const handles = await Promise.all(Array.from({ length: AGENTS }, (_, i) => create(`r${round}-agent-${i}`)))
      await Promise.all(handles.map(async (handle) => {
        for (let t = 0; t < TURNS; t += 1) {
          const queries = [QUERIES[pick(QUERIES.length)]!, ...(pick(3) === 0 ? [QUERIES[pick(QUERIES.length)]!] : [])]
          await turn(handle, `search: ${queries.join(' | ')}`)
        }
      }))
      running = false
      await churning
      // The last settings value reaches the plugin.
      for (let i = 0; i < 1000 && seen.settings.some(span => span !== seen.settings.at(-1) && span.to === Infinity); i += 1) {
        await macrotask()
        confirmSettings(h, seen)
      }
      expect(h.ctx.toolSearch.settings().alwaysVisible).toContain(`stress-marker-${seen.settings.length - 1}`)

      for (const request of seen.requests) checkRequest(seen, request)
      for (const { agent } of handles) {
        // Live and replayed selections agree, under churn as in a quiet session.
        expect(selectionFromEvents(JSON.stringify(agent.session.events)).selected).toEqual([...(seen.committed.get(agent.id)?.keys() ?? [])])
      }
      expect(h.ctx.toolSearch.agents().map(row => row.selected)).toEqual(handles.map(({ agent }) => seen.committed.get(agent.id)?.size ?? 0))
      indexesWithAgents.push(liveIndexes(gc))
      expectTransformerEverywhere()

      await Promise.all(handles.map(handle => handle.dispose()))
      expect(h.ctx.toolSearch.agents()).toEqual([])
      requests += seen.requests.length
      seen.requests.length = 0
      seen.committed.clear()
      listeners.push(listenerCount(h.ctx))
      gc()
      heapMiB.push(process.memoryUsage().heapUsed / 2 ** 20)
    }

    // One more Agent searches after a registry change, so the cache rebuilds and drops what no
    // live Agent holds.
    h.ctx.tools.register(fixtureTool({ name: 'mcp__late__tool', description: 'Late arrival.' }))
    const late = await create('late')
    await turn(late, 'search: late arrival')
    await late.dispose()
    const indexesAfter = liveIndexes(gc)

    const figures = {
      agents: `${AGENTS} at once, ${ROUNDS} rounds`,
      turns: AGENTS * TURNS * ROUNDS,
      modelRequests: requests,
      ...seen.counts,
      listeners,
      nativeIndexes: { built: built.indexes.length, aliveWithAgents: indexesWithAgents, aliveAfter: indexesAfter },
      heapMiB: heapMiB.map(mib => +mib.toFixed(1)),
      seconds: +((performance.now() - started) / 1000).toFixed(1),
    }
    console.log(`stress figures: ${JSON.stringify(figures)}`)

    expect(requests).toBeGreaterThanOrEqual(AGENTS * TURNS * ROUNDS * 2)
    // Re-registering tool_search for a new defaultLimit never fails a search in flight.
    expect(seen.counts.failedSearches).toBe(0)
    expect(seen.counts.registrations + seen.counts.unregistrations).toBeGreaterThan(AGENTS * ROUNDS)
    expect(seen.counts.settingsChanges).toBeGreaterThan(ROUNDS * 3)
    expect(listeners).toEqual(listeners.map(() => listenersBefore))
    expect(Math.max(...indexesWithAgents)).toBeLessThanOrEqual(AGENTS + 1)
    expect(indexesAfter).toBeLessThanOrEqual(1)
    // Round over round the heap stays flat: sessions leave DSH's store with their Agents, and the
    // plugin keeps nothing per Agent or per registry change.
    expect(heapMiB.at(-1)! - heapMiB[1]!).toBeLessThan(4)
  }, 120_000)
})
