/**
 * The plugin's live state: the `tool_search` registration, one {@link AgentState} per attached
 * Agent with its three Agent-scoped listeners, the catalog generation and the shared indexes.
 */

import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { ToolSchema, UserMessage } from '@deepseek-ai/dsh-llm'
import type { JsonValue } from '@deepseek-ai/dsh-session'
import type { PromptAssembly } from '@deepseek-ai/dsh-system-prompt'
import { RUN_CODE_NAME } from '@deepseek-ai/dsh-tools'
import { AgentState, type AgentCatalog, type AgentOutline, type RegisteredTools } from './agent-state.ts'
import { IndexCache, buildCorpus } from './catalog.ts'
import { TOOL_SEARCH_NAME, compareNames, sameNames } from './contract.ts'
import { DEFAULT_CORE_TOOLS } from './core-tools.ts'
import { offerRule } from './defer.ts'
import { evictLeastRecentlyUsed, recallDropped } from './eviction.ts'
import { coreTakesName, type NativeLoad } from './native.ts'
import { describedSearch, renderOutline } from './outline.ts'
import type { ToolSearchPayload } from './payload.ts'
import { prefetchFor } from './prefetch.ts'
import { filterAssembly, hasSdkSection } from './prompt-filter.ts'
import { answerSearch, type SearchScope } from './search-answer.ts'
import { replaySelection, resultSelection } from './selection.ts'
import { codeLanguage, renderOfferedSdk } from './sdk.ts'
import type { LiveSettings } from './settings.ts'
import { createToolSearchTool, type SearchRequest } from './tool.ts'
import type { ToolSearchView } from './view.ts'
import { VisibilityPolicy } from './visibility.ts'

const NOTHING_SELECTED: ReadonlySet<string> = new Set()
const MAX_REPORTED_WARNINGS = 1000

interface Attachment {
  readonly state: AgentState
  readonly detach: () => void
}

export class ToolSearchRuntime {
  /**
   * Bumped by every registry change, prompt-provider change and neverSearch change. Caches
   * derived from the registry are valid for one generation; indexes outlive it when the corpus
   * content did not change (see {@link IndexCache}).
   */
  private generation = 0
  private policy: VisibilityPolicy
  private readonly attached = new Map<Agent, Attachment>()
  private readonly indexes = new IndexCache(() => this.corpusKeysInUse())
  /** Warnings already logged (an unserializable tool, what the native index left out): once each. */
  private readonly reported = new Set<string>()
  private unregisterTool: (() => void) | undefined
  /**
   * Why our `tool_search` is not registered, or undefined while it is. Another plugin may own the
   * name, or the native core may be missing; hiding tools would then strand them behind a search
   * the model cannot make, so every tool stays offered. Starts undefined so that the first
   * failure is reported.
   */
  private unavailable: string | undefined

  /**
   * @param core - how the native core loaded. Without one the plugin steps aside for good: it
   *   says why once, registers nothing and filters nothing, and only its view stays live.
   */
  constructor(private readonly ctx: Context, private readonly settings: LiveSettings, core: NativeLoad) {
    this.policy = new VisibilityPolicy(settings.current, DEFAULT_CORE_TOOLS)
    if (core.error !== undefined) {
      this.unavailable = core.error
      report(ctx, `${TOOL_SEARCH_NAME} is off and every tool stays offered: ${core.error}`)
      settings.onChange((next) => { this.policy = new VisibilityPolicy(next, DEFAULT_CORE_TOOLS) })
      return
    }
    const invalidate = (): void => { this.generation += 1 }
    ctx.on('tools/change', () => {
      invalidate()
      // The plugin that held the name may have let it go.
      if (this.unavailable !== undefined) this.registerTool()
    })
    ctx.on('system-prompt/change', invalidate)
    settings.onChange((next, prev) => {
      this.policy = new VisibilityPolicy(next, DEFAULT_CORE_TOOLS)
      if (!sameNames(next.neverSearch, prev.neverSearch) || next.ranking !== prev.ranking) invalidate()
      if (next.defaultLimit !== prev.defaultLimit) this.registerTool()
    })
    this.registerTool()

    // Agents that exist before this plugin (a reload) are attached as well; their selection comes
    // back from their session logs exactly as it would on resume.
    for (const agent of ctx.agents.list()) this.attach(agent)
    ctx.on('agent/created', ({ agent }) => { this.attach(agent) })
    ctx.on('agent/disposed', ({ agent }) => { this.detach(agent) })
    // Listeners registered through `agent.ctx` belong to the Agent's scope, not to this plugin's
    // fiber, so unloading the plugin has to remove them explicitly.
    ctx.effect(() => () => {
      for (const agent of [...this.attached.keys()]) this.detach(agent)
    }, 'dsh-tool-search: agent listeners')
  }

  /** The read-only seam for the web settings page and catalog route. */
  readonly view: ToolSearchView = {
    settings: () => this.settings.current,
    catalog: (scope) => {
      const selectedBy = new Map<string, number>()
      for (const { state } of this.attached.values()) {
        for (const name of state.selected) selectedBy.set(name, (selectedBy.get(name) ?? 0) + 1)
      }
      return this.ctx.tools.schemas(scope)
        .filter(tool => tool.name !== RUN_CODE_NAME)
        .map(tool => ({
          name: tool.name,
          description: tool.description,
          policy: this.policy.standing(tool.name),
          selectedBy: selectedBy.get(tool.name) ?? 0,
        }))
        .sort((a, b) => compareNames(a.name, b.name))
    },
    agents: () => [...this.attached].map(([agent, { state }]) => ({ id: agent.id, selected: state.selected.size, prefetched: state.prefetched.size })),
    unavailable: () => this.unavailable,
  }

  /**
   * (Re-)register `tool_search`; its `limit` description carries the current default. Never
   * throws: a plugin whose `apply` throws stops `dsh` from starting, which is worse for the user
   * than a plugin that steps aside and says why.
   */
  private registerTool(): void {
    this.unregisterTool?.()
    this.unregisterTool = undefined
    const tool = createToolSearchTool(this.settings.current.defaultLimit, request => this.search(request))
    try {
      this.unregisterTool = this.ctx.tools.register(tool)
      this.unavailable = undefined
    } catch (error) {
      // Said once per outage, not on every settings change that retries.
      const reported = this.unavailable !== undefined
      this.unavailable = `cannot register ${TOOL_SEARCH_NAME} (${message(error)})`
      if (!reported) report(this.ctx, `${this.unavailable}; every tool stays offered until it can`)
    }
  }

  /**
   * Start tracking an Agent: rebuild its selection from its session log (empty for a new Agent,
   * the persisted searches for a resumed one, the copied prefix for a fork) and add the three
   * Agent-scoped listeners. Never throws: a throwing `agent/created` listener would veto the
   * Agent's publication.
   */
  private attach(agent: Agent): void {
    if (this.attached.has(agent)) return
    try {
      const state = this.replay(agent)
      const disposers = [
        // Prepended, so it is the outermost listener: it filters what every other listener built.
        agent.ctx.on('system-prompt/assemble', async (_assembly, context, next) => {
          const full = await next()
          return context.scope === agent ? this.filter(agent, state, full) : full
        }, { prepend: true }),
        // `tools/result` is the final, frozen outcome after post-execute policy and finalization,
        // for model-direct calls and for `run_code` sub-calls alike; failures commit nothing.
        // The selection is read from the content the session log keeps, by the native rule
        // replay applies to it, so a live Agent and its resume cannot disagree.
        agent.ctx.on('tools/result', (exec, result) => {
          if (exec.agent !== agent) return
          if (exec.name === TOOL_SEARCH_NAME && !result.isError) state.select(resultSelection(result.content))
          else if (state.dropped.has(exec.name)) this.guarded(agent, 'bring back', () => { recallDropped(agent.session, state, exec.name) })
        }),
        // A message the turn just took from the inbox, inside the open turn and before the step's
        // prompt is assembled (DSH logs it as a `user/message` only after that). The first of a
        // new turn is where the turn's `defer` decision is taken and `maxSelected` evicts; every
        // user message is prefetched for, after the eviction, so it cannot drop what it loads.
        agent.ctx.on('agent/inbox/claimed', ({ agent: claimant, message: claimed, turn }) => {
          if (claimant !== agent) return
          if (turn !== state.turn) {
            state.turn = turn
            this.guarded(agent, 'evict', () => { evictLeastRecentlyUsed(agent.session, state, this.settings.current.maxSelected, claimed.id) })
          }
          this.prefetch(agent, state, claimed)
        }),
      ]
      this.attached.set(agent, { state, detach: () => { for (const dispose of disposers) dispose() } })
    } catch (error) {
      this.ctx.logger.warn(`dsh-tool-search: could not attach to agent ${agent.id}; it is offered every tool: ${message(error)}`)
    }
  }

  private detach(agent: Agent): void {
    const attachment = this.attached.get(agent)
    if (attachment === undefined) return
    this.attached.delete(agent)
    attachment.detach()
  }

  private replay(agent: Agent): AgentState {
    try {
      return new AgentState(replaySelection(agent.session.events))
    } catch (error) {
      this.ctx.logger.warn(`dsh-tool-search: could not replay the selection of ${agent.id}; starting empty: ${message(error)}`)
      return new AgentState({ selected: [], prefetched: [], dropped: [] })
    }
  }

  /**
   * Load the best deferred tools for a claimed user message (the `prefetch` setting). The turn's
   * `defer` decision is taken first, as its first prompt will take it: a turn that offers every
   * tool has nothing to load, and one that starts deferring excludes only what it still offers.
   */
  private prefetch(agent: Agent, state: AgentState, claimed: UserMessage): void {
    const count = this.settings.current.prefetch
    if (count === 0 || this.unavailable !== undefined) return
    this.guarded(agent, 'prefetch', () => {
      if (!state.deferral.defers(state.turn, this.settings.current, this.registeredFor(agent, state), this.policy)) return
      state.select(prefetchFor(claimed, count, agent.session, this.scopeFor(agent, state)), 'prefetch')
    })
  }

  /** Run a selection change the Agent's loop waits on; a failure is logged, never thrown into the loop. */
  private guarded(agent: Agent, what: string, change: () => void): void {
    try {
      change()
    } catch (error) {
      this.ctx.logger.warn(`dsh-tool-search: could not ${what} tools of ${agent.id}: ${message(error)}`)
    }
  }

  private filter(agent: Agent, state: AgentState, assembly: PromptAssembly): PromptAssembly {
    if (this.unavailable !== undefined) return assembly
    // With an SDK section (code/both) the registry is read directly: under `code` the assembly
    // lists only `run_code`. Otherwise the assembly's own list is the scope's registered set.
    const sdk = hasSdkSection(assembly)
    const registered = this.registeredFor(agent, state, sdk ? undefined : assembly.tools)
    const rule = offerRule(this.policy, state.selected, state.deferral.defers(state.turn, this.settings.current, registered, this.policy))
    const outline = this.outlineFor(state, registered)?.text ?? ''
    const filtered = filterAssembly(assembly, {
      registered: registered.names,
      offers: name => rule.offers(name),
      sdk: () => {
        const offered = rule.offered(registered.names).sort(compareNames)
        const language = codeLanguage(this.ctx)
        const key = [registered.generation, language, outline, ...offered].join('\n')
        if (state.sdk?.key !== key) {
          const describe = (name: string, description: string): string => (name === TOOL_SEARCH_NAME ? describedSearch(description, outline) : description)
          state.sdk = { key, text: renderOfferedSdk(this.ctx, agent, offered, language, describe) }
        }
        return state.sdk.text
      },
    })
    const tools = filtered.tools.map(tool => (tool.name === TOOL_SEARCH_NAME ? { ...tool, description: describedSearch(tool.description, outline) } : tool))
    return { ...filtered, tools }
  }

  /**
   * The outline of the Agent's deferred tools, computed once per catalog and set of rules: the
   * searchable tools (neverSearch is out) less the ones offered without a search. It depends on
   * neither the selection nor the turn's deferral, so the description stays the same from step
   * to step. Undefined when the catalog cannot be indexed; the description then goes without it.
   */
  private outlineFor(state: AgentState, registered: RegisteredTools): AgentOutline | undefined {
    try {
      const catalog = this.catalogOf(state, registered)
      const policy = this.policy
      if (state.outline?.key === catalog.key && state.outline.policy === policy) return state.outline
      const data = catalog.index.outline({ exclude: this.standingOffered(registered) })
      state.outline = { key: catalog.key, policy, data, text: renderOutline(data) }
      return state.outline
    } catch (error) {
      this.warnOnce(`the catalog outline is left out of ${TOOL_SEARCH_NAME}'s description: ${message(error)}`)
      return undefined
    }
  }

  /** The registered tools offered without any search (core, alwaysVisible, tool_search), as an exclude list. */
  private standingOffered(registered: RegisteredTools): string[] {
    return this.policy.offered(registered.names, NOTHING_SELECTED).filter(coreTakesName)
  }

  /**
   * The registered tools of an Agent's scope at the current generation.
   * @param assemblyTools - the tools of the assembly being filtered, when it lists them all.
   */
  private registeredFor(agent: Agent | undefined, state: AgentState | undefined, assemblyTools?: readonly ToolSchema[]): RegisteredTools {
    const generation = this.generation
    if (state?.registered?.generation === generation) return state.registered
    let tools: readonly ToolSchema[]
    try {
      tools = assemblyTools ?? this.ctx.tools.schemas(agent)
    } catch (error) {
      // `schemas()` projects every tool and fails as a whole on one non-JSON schema. The list the
      // last assembly carried is still a faithful catalog; without one there is nothing to search.
      if (state?.registered === undefined) throw new Error(`tool_search: the tool catalog cannot be read: ${message(error)}`)
      this.ctx.logger.warn(`dsh-tool-search: keeping the previous catalog: ${message(error)}`)
      return state.registered
    }
    const registered = { generation, tools, names: new Set(tools.map(tool => tool.name)) }
    if (state !== undefined) state.registered = registered
    return registered
  }

  private search({ agent, query, limit }: SearchRequest): ToolSearchPayload {
    const state = agent === undefined ? undefined : this.attached.get(agent)?.state
    return answerSearch(query, limit, this.scopeFor(agent, state))
  }

  /** What a search from `agent` ranks, and what it knows about the catalog. */
  private scopeFor(agent: Agent | undefined, state: AgentState | undefined): SearchScope {
    const registered = this.registeredFor(agent, state)
    const catalog = this.catalogOf(state, registered)
    return {
      index: catalog.index,
      // Result slots go to tools the Agent cannot call yet; the native index still puts an exact
      // name match first even when it is excluded, so asking for an available tool by name
      // confirms it instead of suggesting it is missing. A name longer than the index takes in an
      // exclude list (another plugin may register one, and a search may select it) stays out of
      // the list: it may then come back although offered, which costs a result slot instead of
      // every search.
      exclude: offerRule(this.policy, state?.selected ?? NOTHING_SELECTED, state?.deferral.current ?? true).offered(registered.names)
        .filter(coreTakesName),
      parametersOf: name => registered.tools.find(tool => tool.name === name)?.parameters as JsonValue | undefined,
      outline: () => (state === undefined ? undefined : this.outlineFor(state, registered)?.data)
        ?? catalog.index.outline({ exclude: this.standingOffered(registered) }),
    }
  }

  /** The Agent's index for the current catalog generation, kept on its state. */
  private catalogOf(state: AgentState | undefined, registered: RegisteredTools): AgentCatalog {
    const catalog = state?.catalog?.generation === registered.generation ? state.catalog : this.catalogFor(registered)
    if (state !== undefined) state.catalog = catalog
    return catalog
  }

  private catalogFor(registered: RegisteredTools): AgentCatalog {
    const policy = this.policy
    const corpus = buildCorpus(registered.tools, name => policy.searchable(name))
    for (const name of corpus.skipped) {
      this.warnOnce(`tool ${name} is left out of the search catalog: its schema is not JSON-serializable`)
    }
    const ranking = this.settings.current.ranking
    const index = this.indexes.index(corpus, ranking)
    // An oversized catalog is still searched; the index says what it left out (see README
    // "Limits"), or that the model package could not be read and searches are lexical.
    for (const warning of index.warnings) this.warnOnce(warning)
    return { generation: registered.generation, key: IndexCache.key(corpus, ranking), index }
  }

  private warnOnce(warning: string): void {
    if (this.reported.has(warning)) return
    // A registry that keeps adding new odd tools keeps producing new sentences; forgetting them
    // all now and then costs a repeated log line, not memory that grows for the process's life.
    if (this.reported.size >= MAX_REPORTED_WARNINGS) this.reported.clear()
    this.reported.add(warning)
    this.ctx.logger.warn(`dsh-tool-search: ${warning}`)
  }

  private *corpusKeysInUse(): Iterable<string> {
    for (const { state } of this.attached.values()) if (state.catalog !== undefined) yield state.catalog.key
  }
}

/**
 * Say why the plugin stepped aside where the user sees it: DSH's log, which rc.8 keeps in memory
 * in every profile, and standard error, which headless and web print to the terminal (standard
 * output carries headless answers and the ACP protocol, so it stays clean).
 */
function report(ctx: Context, problem: string): void {
  const line = `dsh-tool-search: ${problem}`
  ctx.logger.error(line)
  process.stderr.write(`${line}\n`)
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
