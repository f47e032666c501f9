/**
 * What one Agent's request offers: the assembly filtered down to the offered tools, with
 * `tool_search`'s description carrying the outline of what is deferred, and the same rule read
 * as the list of tools a search need not suggest.
 */

import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { PromptAssembly } from '@deepseek-ai/dsh-system-prompt'
import { CALL_TOOL_NAME, TOOL_SEARCH_NAME, compareNames } from '../contract.ts'
import { coreTakesName } from '../host/native.ts'
import { message, type OnceLog } from '../host/report.ts'
import type { LiveSettings } from '../host/settings.ts'
import type { Catalogs } from '../search/catalogs.ts'
import type { AgentOutline, AgentState, RegisteredTools } from '../selection/agent-state.ts'
import { offerRule } from './defer.ts'
import { describedSearch, renderOutline } from './outline.ts'
import { filterAssembly, presentationOf, toolSections } from './prompt-filter.ts'
import { codeLanguage, renderOfferedSdk } from './sdk.ts'
import type { VisibilityPolicy } from './visibility.ts'
import { weighRequest } from './weight.ts'

const NOTHING_SELECTED: ReadonlySet<string> = new Set()

export class Offering {
  /**
   * The last outline made, for whichever Agent: every Agent on the same catalog and rules shares
   * it, so after a registry change many Agents make it once between them, not once each (at
   * 10,000 tools an outline takes DSH's event loop tens of milliseconds).
   */
  private lastOutline: AgentOutline | undefined

  constructor(
    private readonly ctx: Context,
    private readonly settings: LiveSettings,
    private readonly policy: () => VisibilityPolicy,
    private readonly catalogs: Catalogs,
    private readonly log: OnceLog,
  ) {}

  /** The assembly of one step of `agent`, filtered down to what the Agent is offered. */
  filter(agent: Agent, state: AgentState, assembly: PromptAssembly): PromptAssembly {
    // With an SDK section (code/both) the registry is read directly: under `code` the assembly
    // lists only `run_code`. Otherwise the assembly's own list is the scope's registered set.
    state.presentation = presentationOf(assembly)
    // A stable result carries a found tool's guidance, which the filter takes out of the prompt.
    state.toolSections = toolSections(assembly)
    const registered = this.catalogs.registeredFor(agent, state, state.presentation === 'native' ? assembly.tools : undefined)
    const policy = this.policy()
    const rule = offerRule(policy, state.selected, state.deferral.defers(state.turn, this.settings.current, registered, policy))
    const outline = this.outline(state, registered)?.text ?? ''
    const filtered = filterAssembly(assembly, {
      registered: registered.names,
      offers: name => rule.offers(name),
      sdk: () => {
        // Code reaches every registered tool by name, so `call_tool` has no place in the SDK.
        const offered = rule.offered(registered.names).filter(name => name !== CALL_TOOL_NAME).sort(compareNames)
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
    const offered = { ...filtered, tools }
    weighRequest(state, registered, assembly, offered)
    return offered
  }

  /**
   * The outline of the Agent's deferred tools, computed once per catalog and set of rules: the
   * searchable tools (neverSearch is out) less the ones offered without a search. It depends on
   * neither the selection nor the turn's deferral, so the description stays the same from step
   * to step. Undefined when the catalog cannot be indexed; the description then goes without it.
   */
  outline(state: AgentState, registered: RegisteredTools): AgentOutline | undefined {
    try {
      const catalog = this.catalogs.catalogOf(state, registered)
      const policy = this.policy()
      const current = (outline: AgentOutline | undefined): outline is AgentOutline => outline?.key === catalog.key && outline.policy === policy
      if (current(state.outline)) return state.outline
      if (!current(this.lastOutline)) {
        const data = catalog.index.outline({ exclude: this.standing(registered) })
        this.lastOutline = { key: catalog.key, policy, data, text: renderOutline(data) }
      }
      state.outline = this.lastOutline
      return state.outline
    } catch (error) {
      this.log.warn(`the catalog outline is left out of ${TOOL_SEARCH_NAME}'s description: ${message(error)}`)
      return undefined
    }
  }

  /** The registered tools offered without any search (core, alwaysVisible, tool_search), as an exclude list. */
  standing(registered: RegisteredTools): string[] {
    return this.policy().offered(registered.names, NOTHING_SELECTED).filter(coreTakesName)
  }

  /**
   * The registered tools the Agent can call now, which a search need not suggest: those its
   * requests offer and, under stable loading, those it found, whose definitions its conversation
   * holds (a search for one by name still finds it). A name longer than the index takes in an
   * exclude list (another plugin may register one, and a search may select it) stays out of the
   * list: it may then come back although callable, which costs a result slot instead of every
   * search.
   */
  callable(state: AgentState | undefined, registered: RegisteredTools): string[] {
    const policy = this.policy()
    const selected = state?.selected ?? NOTHING_SELECTED
    const offered = offerRule(policy, selected, state?.deferral.current ?? true).offered(registered.names)
    const found = policy.stable ? [...selected].filter(name => registered.names.has(name) && !offered.includes(name)) : []
    return [...offered, ...found].filter(coreTakesName)
  }
}
