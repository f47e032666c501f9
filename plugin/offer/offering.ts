/**
 * What one Agent's request offers: the assembly filtered down to the offered tools, with
 * `tool_search`'s description carrying the outline of what is deferred, and the same rule read
 * as the list of tools a search need not suggest.
 */

import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { PromptAssembly } from '@deepseek-ai/dsh-system-prompt'
import { CALL_TOOL_NAME, TOOL_SEARCH_NAME, compareNames } from '../contract.ts'
import { LoadingSeries } from '../host/dsh/defer-loading.ts'
import { coreTakesName, type CatalogOutline } from '../host/native.ts'
import { message, type OnceLog } from '../host/report.ts'
import type { LiveSettings } from '../host/settings.ts'
import type { Catalogs, RegisteredTools } from '../search/catalogs.ts'
import type { AgentState } from '../selection/agent-state.ts'
import { Deferrals, offerRule } from './defer.ts'
import { describedSearch, renderOutline } from './outline.ts'
import type { Presentation } from '../host/dsh/ptc.ts'
import { ptcLanguage } from '../host/dsh/ptc.ts'
import { filterAssembly, presentationOf, toolSections } from './prompt-filter.ts'
import { renderOfferedSdk } from './sdk.ts'
import type { VisibilityPolicy } from './visibility.ts'
import { OfferedWeights, type OfferedWeight } from './weight.ts'

const NOTHING_SELECTED: ReadonlySet<string> = new Set()

/** The outline of the deferred tools of one catalog under one set of rules. */
export interface AgentOutline {
  /** The catalog's index key and the policy's key it was made for. */
  readonly key: string
  readonly data: CatalogOutline
  /** The text appended to `tool_search`'s description ('' when nothing is deferred). */
  readonly text: string
}

/** What an Agent's last assembly carried, before filtering, that a stable result passes on. */
export interface LastAssembly {
  /** How its requests present tools. */
  readonly presentation: Presentation
  /** Its `tool:<name>` guidance sections, by tool name. */
  readonly toolSections: ReadonlyMap<string, string>
}

/** What the offering reads from the rest of the runtime. */
export interface OfferingDeps {
  readonly settings: LiveSettings
  readonly policy: () => VisibilityPolicy
  readonly catalogs: Catalogs
  readonly log: OnceLog
  /** The turn an Agent's last claimed message belongs to (`AttachedAgents.turnOf`). */
  readonly turnOf: (agent: Agent) => number | undefined
}

export class Offering {
  /**
   * The last outline made, for whichever Agent: every Agent on the same catalog and rules shares
   * it, so after a registry change many Agents make it once between them, not once each (at
   * 10,000 tools an outline takes DSH's event loop tens of milliseconds).
   */
  private lastOutline: AgentOutline | undefined
  private readonly outlines = new WeakMap<Agent, AgentOutline>()
  /** Each Agent's last rendered Code Mode SDK and the inputs it was rendered from. */
  private readonly sdks = new WeakMap<Agent, { readonly key: string; readonly text: string }>()
  private readonly assemblies = new WeakMap<Agent, LastAssembly>()
  private readonly deferrals = new Deferrals()
  private readonly weights = new OfferedWeights()
  private readonly series = new LoadingSeries()

  constructor(private readonly ctx: Context, private readonly deps: OfferingDeps) {}

  /** The assembly of one step of `agent`, filtered down to what the Agent is offered. */
  async filter(agent: Agent, state: AgentState, assembly: PromptAssembly): Promise<PromptAssembly> {
    // With an SDK section (ptc/both) the registry is read directly: under `ptc` the assembly
    // lists only `run_code`. Otherwise the assembly's own list is the scope's registered set.
    // A stable result carries a found tool's guidance, which the filter takes out of the prompt.
    const last = { presentation: presentationOf(assembly), toolSections: toolSections(assembly) }
    this.assemblies.set(agent, last)
    const registered = this.deps.catalogs.registeredFor(agent, last.presentation === 'native' ? assembly.tools : undefined)
    const rule = offerRule(this.deps.policy(), state.selected, this.defers(agent, registered))
    const outline = (await this.outline(agent, registered))?.text ?? ''
    const filtered = filterAssembly(assembly, {
      registered: registered.names,
      offers: name => rule.offers(name),
      sdk: () => {
        // Code reaches every registered tool by name, so `call_tool` has no place in the SDK.
        const offered = rule.offered(registered.names).filter(name => name !== CALL_TOOL_NAME).sort(compareNames)
        const language = ptcLanguage(this.ctx)
        const key = [registered.generation, language, outline, ...offered].join('\n')
        const kept = this.sdks.get(agent)
        if (kept?.key === key) return kept.text
        const describe = (name: string, description: string): string => (name === TOOL_SEARCH_NAME ? describedSearch(description, outline) : description)
        const text = renderOfferedSdk(this.ctx, agent, offered, language, describe)
        this.sdks.set(agent, { key, text })
        return text
      },
    })
    const described = filtered.tools.map(tool => (tool.name === TOOL_SEARCH_NAME ? { ...tool, description: describedSearch(tool.description, outline) } : tool))
    const offered = { ...filtered, tools: [...this.series.admit(agent, described)] }
    this.weights.weigh(agent, registered, assembly, offered)
    return offered
  }

  /** The Agent is gone: what was kept for it goes too (an SDK text can be megabytes). */
  forget(agent: Agent): void {
    this.outlines.delete(agent)
    this.sdks.delete(agent)
    this.assemblies.delete(agent)
    this.deferrals.forget(agent)
    this.weights.forget(agent)
    this.series.forget(agent)
  }

  /** Whether this step of `agent` defers tools (the `defer` setting, decided once a turn). */
  defers(agent: Agent, registered: RegisteredTools): boolean {
    return this.deferrals.defers(agent, this.deps.turnOf(agent), this.deps.settings.current, registered, this.deps.policy())
  }

  /** What the Agent's last request offered; undefined before its first. */
  weightOf(agent: Agent): OfferedWeight | undefined {
    return this.weights.of(agent)
  }

  /** What the Agent's last assembly carried; undefined before its first. */
  assemblyOf(agent: Agent): LastAssembly | undefined {
    return this.assemblies.get(agent)
  }

  /**
   * The outline of the Agent's deferred tools, computed once per catalog and set of rules: the
   * searchable tools (neverSearch is out) less the ones offered without a search. It depends on
   * neither the selection nor the turn's deferral, so the description stays the same from step
   * to step. Undefined when the catalog cannot be indexed; the description then goes without it.
   */
  async outline(agent: Agent | undefined, registered: RegisteredTools): Promise<AgentOutline | undefined> {
    try {
      const catalog = await this.deps.catalogs.catalogOf(agent, registered)
      const key = `${catalog.key}\n${this.deps.policy().key}`
      const kept = agent === undefined ? undefined : this.outlines.get(agent)
      if (kept?.key === key) return kept
      if (this.lastOutline?.key !== key) {
        const data = catalog.index.outline({ exclude: this.standing(registered) })
        this.lastOutline = { key, data, text: renderOutline(data) }
      }
      if (agent !== undefined) this.outlines.set(agent, this.lastOutline)
      return this.lastOutline
    } catch (error) {
      this.deps.log.warn(`the catalog outline is left out of ${TOOL_SEARCH_NAME}'s description: ${message(error)}`)
      return undefined
    }
  }

  /** The registered tools offered without any search (core, alwaysVisible, tool_search), as an exclude list. */
  standing(registered: RegisteredTools): string[] {
    return this.deps.policy().offered(registered.names, NOTHING_SELECTED).filter(coreTakesName)
  }

  /**
   * The registered tools the Agent can call now, which a search need not suggest: those its
   * requests offer and, under stable loading, those it found, whose definitions its conversation
   * holds (a search for one by name still finds it). A name longer than the index takes in an
   * exclude list (another plugin may register one, and a search may select it) stays out of the
   * list: it may then come back although callable, which costs a result slot instead of every
   * search.
   * @param state - the Agent's selection; undefined for a caller the plugin follows no selection of.
   */
  callable(agent: Agent | undefined, state: AgentState | undefined, registered: RegisteredTools): string[] {
    const policy = this.deps.policy()
    const selected = state?.selected ?? NOTHING_SELECTED
    const defers = agent === undefined ? true : this.deferrals.current(agent) ?? true
    const offered = offerRule(policy, selected, defers).offered(registered.names)
    const found = policy.stable ? [...selected].filter(name => registered.names.has(name) && !offered.includes(name)) : []
    return [...offered, ...found].filter(coreTakesName)
  }
}
