/**
 * The plugin's live state and its wiring into DSH: the `tool_search` registration, the live
 * settings and visibility policy, and the parts that act on them: the attached Agents and their
 * records (agents.ts, agent-record.ts), their catalogs and indexes (search/catalogs.ts), what each
 * request offers (offer/offering.ts) and stable loading's `call_tool` and definitions (loading.ts).
 */

import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { UserMessage } from '@deepseek-ai/dsh-llm'
import type { JsonValue } from '@deepseek-ai/dsh-session'
import { RUN_CODE_NAME } from '@deepseek-ai/dsh-tools'
import { TOOL_SEARCH_NAME, compareNames, sameNames } from '../contract.ts'
import { Offering } from '../offer/offering.ts'
import { PolicyInForce, type VisibilityPolicy } from '../offer/visibility.ts'
import { weightOf } from '../offer/weight.ts'
import { answerSearch, type SearchScope } from '../search/answer.ts'
import { Catalogs } from '../search/catalogs.ts'
import { createToolSearchTool, type SearchRequest } from '../search/tool.ts'
import { prefetchFor } from '../selection/prefetch.ts'
import type { AgentRecord } from './agent-record.ts'
import { AttachedAgents } from './agents.ts'
import { StableLoading } from './loading.ts'
import { coreTakesName, type NativeLoad } from './native.ts'
import { OnceLog, message, report } from './report.ts'
import type { LiveSettings } from './settings.ts'
import type { ToolSearchView } from './view.ts'

export class ToolSearchRuntime {
  private readonly policies = new PolicyInForce()
  /** Warnings (an unserializable tool, what the native index left out) are logged once each. */
  private readonly log: OnceLog
  private readonly agents: AttachedAgents
  private readonly catalogs: Catalogs
  private readonly offering: Offering
  private readonly loading: StableLoading
  private unregisterTool: (() => void) | undefined
  /**
   * Why our `tool_search` is not registered, or undefined while it is. Another plugin may own the
   * name, or the native core may be missing; hiding tools would then strand them behind a search
   * the model cannot make, so every tool stays offered. Starts undefined so that the first
   * failure is reported.
   */
  private unavailable: string | undefined
  /** While the plugin registers its own tools: the `tools/change` that causes is no cue to retry. */
  private registering = false

  /**
   * @param core - how the native core loaded. Without one the plugin steps aside for good: it
   *   says why once, registers nothing and filters nothing, and only its view stays live.
   */
  constructor(private readonly ctx: Context, private readonly settings: LiveSettings, core: NativeLoad) {
    this.log = new OnceLog(ctx)
    this.agents = new AttachedAgents(ctx, {
      filter: (record, assembly) => (this.unavailable === undefined ? this.offering.filter(record, assembly) : assembly),
      claimed: (record, claimed) => this.prefetch(record, claimed),
      stepMessages: record => this.prefetchedDefinitions(record),
      // Under stable loading a selection costs no request anything, so nothing is evicted.
      maxSelected: () => (this.loading.active ? 0 : this.settings.current.maxSelected),
    })
    const policy = (): VisibilityPolicy => this.policy()
    const records = this.agents
    this.catalogs = new Catalogs(ctx, { policy, ranking: () => this.settings.current.ranking }, this.log, records)
    this.offering = new Offering(ctx, { settings, policy, catalogs: this.catalogs, log: this.log, records })
    this.loading = new StableLoading(ctx, {
      policy,
      records,
      assemblyOf: record => this.offering.assemblyOf(record),
      nearest: async (agent, name, limit) => (await this.scopeFor(agent)).index.nearest(name, limit, { exclude: [] }),
    })
    if (core.error !== undefined) {
      this.unavailable = core.error
      report(ctx, `${TOOL_SEARCH_NAME} is off and every tool stays offered: ${core.error}`)
      return
    }
    const invalidate = (): void => { this.catalogs.invalidate() }
    ctx.on('tools/change', () => {
      invalidate()
      if (this.registering) return
      // The plugin that held a name may have let it go.
      if (this.unavailable !== undefined) this.registerTool()
      if (this.wantsStable() !== this.loading.active) this.applyLoading()
    })
    ctx.on('system-prompt/change', invalidate)
    settings.onChange((next, prev) => {
      const loaded = next.loading !== prev.loading && this.own(() => this.loading.apply(this.wantsStable()))
      // The corpus leaves out `call_tool` under stable loading, and the search description says how found tools are used.
      if (loaded || !sameNames(next.neverSearch, prev.neverSearch) || next.ranking !== prev.ranking) invalidate()
      if (loaded || next.defaultLimit !== prev.defaultLimit) this.registerTool()
    })
    this.registerTool()
    this.applyLoading()

    // Agents that exist before this plugin (a reload) are attached as well; their selection comes
    // back from their session logs exactly as it would on resume.
    for (const agent of ctx.agents.list()) this.agents.attach(agent)
    ctx.on('agent/created', ({ agent }) => { this.agents.attach(agent) })
    ctx.on('agent/disposed', ({ agent }) => { this.agents.forget(agent) })
    // Listeners registered through `agent.ctx` belong to the Agent's scope, not to this plugin's
    // fiber, so unloading the plugin has to remove them explicitly (with everything kept per Agent).
    ctx.effect(() => () => { this.agents.forgetAll() }, 'dsh-tool-search: agent records')
  }

  /** The visibility rules in force: the settings', under the loading in force. */
  private policy(): VisibilityPolicy {
    return this.policies.of(this.settings.current, this.loading.active)
  }

  /** The read-only seam for the web settings page and catalog route. */
  readonly view: ToolSearchView = {
    settings: () => this.settings.current,
    catalog: (scope) => {
      const selectedBy = new Map<string, number>()
      for (const { state } of this.agents.all()) {
        for (const name of state.selected) selectedBy.set(name, (selectedBy.get(name) ?? 0) + 1)
      }
      return this.ctx.tools.schemas(scope)
        .filter(tool => tool.name !== RUN_CODE_NAME)
        .map(tool => ({
          name: tool.name,
          description: tool.description,
          policy: this.policy().standing(tool.name),
          selectedBy: selectedBy.get(tool.name) ?? 0,
        }))
        .sort((a, b) => compareNames(a.name, b.name))
    },
    agents: () => this.agents.all().map((record) => {
      const { agent, state } = record
      const weight = weightOf(record)
      return {
        id: agent.id,
        selected: state.selected.size,
        prefetched: state.prefetched.size,
        loading: this.loading.active ? 'stable' : 'native',
        found: [...state.selected],
        ...(weight === undefined ? {} : { offeredTokens: weight.offeredTokens, allTokens: weight.allTokens, cacheBreaks: weight.changes }),
      }
    }),
    unavailable: () => this.unavailable,
  }

  /**
   * (Re-)register `tool_search`; its `limit` description carries the current default. Never
   * throws: a plugin whose `apply` throws stops `dsh` from starting, which is worse for the user
   * than a plugin that steps aside and says why.
   */
  private registerTool(): void {
    this.own(() => { this.unregisterTool?.() })
    this.unregisterTool = undefined
    const tool = createToolSearchTool(this.settings.current.defaultLimit, this.loading.active ? 'stable' : 'native', request => this.search(request))
    try {
      this.unregisterTool = this.own(() => this.ctx.tools.register(tool))
      this.unavailable = undefined
    } catch (error) {
      // Said once per outage, not on every settings change that retries.
      const reported = this.unavailable !== undefined
      this.unavailable = `cannot register ${TOOL_SEARCH_NAME} (${message(error)})`
      if (!reported) report(this.ctx, `${this.unavailable}; every tool stays offered until it can`)
    }
  }

  /**
   * Put `loading` in force: `call_tool` comes or goes, and with it the policy, the corpus (neither
   * plugin tool is searchable) and `tool_search`'s description.
   */
  private applyLoading(): void {
    if (!this.own(() => this.loading.apply(this.wantsStable()))) return
    this.catalogs.invalidate()
    this.registerTool()
  }

  /** Whether found tools should load through `call_tool`: `stable` is set and `tool_search` is ours. */
  private wantsStable(): boolean {
    return this.settings.current.loading === 'stable' && this.unavailable === undefined
  }

  /** Run a registration of the plugin's own, whose `tools/change` is not a cue to retry one. */
  private own<T>(work: () => T): T {
    const was = this.registering
    this.registering = true
    try {
      return work()
    } finally {
      this.registering = was
    }
  }

  /**
   * Load the best deferred tools for a claimed user message (the `prefetch` setting). The turn's
   * `defer` decision is taken first, as its first prompt will take it: a turn that offers every
   * tool has nothing to load, and one that starts deferring excludes only what it still offers.
   */
  private prefetch(record: AgentRecord, claimed: UserMessage): Promise<void> | undefined {
    const count = this.settings.current.prefetch
    if (count === 0 || this.unavailable !== undefined) return undefined
    const { agent, state } = record
    if (!this.offering.defers(record, this.catalogs.registeredFor(agent))) return undefined
    return this.scopeFor(agent).then(async (scope) => {
      // Under stable loading found tools stay searchable (their definitions may have been
      // compacted away), but a prefetch nobody asked for does not send a definition the Agent
      // already has.
      const found = this.loading.active ? [...state.selected].filter(coreTakesName) : []
      const names = await prefetchFor(claimed, count, agent.session, found.length === 0 ? scope : { ...scope, exclude: [...scope.exclude, ...found] })
      state.select(names, 'prefetch')
      if (this.loading.active) this.loading.owe(record, names)
    })
  }

  /** Under stable loading, the definitions of what this step's prefetch loaded, after the user's message. */
  private prefetchedDefinitions(record: AgentRecord): UserMessage[] {
    const message = this.loading.prefetched(record, () => this.catalogs.registeredFor(record.agent))
    return message === undefined ? [] : [message]
  }

  private async search({ agent, query, limit }: SearchRequest): ReturnType<typeof answerSearch> {
    return answerSearch(query, limit, await this.scopeFor(agent))
  }

  /** What a search from `agent` ranks, and what it knows about the catalog. */
  private async scopeFor(agent: Agent | undefined): Promise<SearchScope> {
    const record = this.agents.of(agent)
    const registered = this.catalogs.registeredFor(agent)
    const catalog = await this.catalogs.catalogOf(agent, registered)
    return {
      index: catalog.index,
      // Result slots go to tools the Agent cannot call yet; the native index still puts an exact
      // name match first even when it is excluded, so asking for an available tool by name
      // confirms it instead of suggesting it is missing.
      exclude: this.offering.callable(record, registered),
      parametersOf: name => registered.tools.find(tool => tool.name === name)?.parameters as JsonValue | undefined,
      ...(this.loading.active
        ? { define: hits => this.loading.define(agent, registered, hits.map(hit => hit.name), new Map(hits.map(hit => [hit.name, hit.description]))) }
        : {}),
      outline: async () => (await this.offering.outline(agent, registered))?.data ?? catalog.index.outline({ exclude: this.offering.standing(registered) }),
    }
  }
}
