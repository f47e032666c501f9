/**
 * What one Agent's request offers: the assembly filtered down to the offered tools, with
 * `tool_search`'s description carrying the outline of what is deferred, and the same rule read
 * as the list of tools a search need not suggest.
 */

import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { PromptAssembly } from '@deepseek-ai/dsh-system-prompt'
import { CALL_TOOL_NAME, TOOL_SEARCH_NAME, compareNames } from '../contract.ts'
import { RecordSlot, type AgentRecord, type AgentRecords } from '../host/agent-record.ts'
import { admitOffered } from '../host/dsh/defer-loading.ts'
import { coreTakesName, type CatalogOutline } from '../host/native.ts'
import { message, type OnceLog } from '../host/report.ts'
import type { LiveSettings } from '../host/settings.ts'
import type { Catalogs, RegisteredTools } from '../search/catalogs.ts'
import { deferralInForce, defersThisStep, offerRule } from './defer.ts'
import { describedSearch, renderOutline } from './outline.ts'
import type { Presentation } from '../host/dsh/ptc.ts'
import { ptcLanguage } from '../host/dsh/ptc.ts'
import { filterAssembly, presentationOf, toolSections } from './prompt-filter.ts'
import { renderOfferedSdk } from './sdk.ts'
import type { VisibilityPolicy } from './visibility.ts'
import { weighOffered } from './weight.ts'

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
  /** The Agents followed, whose records keep what the offering works out for each. */
  readonly records: AgentRecords
}

/** The outline the Agent's description carried last. */
const OUTLINE = new RecordSlot<AgentOutline>('outline')
/** Its last rendered Code Mode SDK and the inputs it was rendered from. */
const SDK = new RecordSlot<{ readonly key: string; readonly text: string }>('Code Mode SDK')
/** What its last assembly carried, for the stable results of its searches. */
const ASSEMBLY = new RecordSlot<LastAssembly>('last assembly')

export class Offering {
  /**
   * The last outline made, for whichever Agent: every Agent on the same catalog and rules shares
   * it, so after a registry change many Agents make it once between them, not once each (at
   * 10,000 tools an outline takes DSH's event loop tens of milliseconds).
   */
  private lastOutline: AgentOutline | undefined

  constructor(private readonly ctx: Context, private readonly deps: OfferingDeps) {}

  /** The assembly of one step of the Agent, filtered down to what it is offered. */
  async filter(record: AgentRecord, assembly: PromptAssembly): Promise<PromptAssembly> {
    const { agent } = record
    // With an SDK section (ptc/both) the registry is read directly: under `ptc` the assembly
    // lists only `run_code`. Otherwise the assembly's own list is the scope's registered set.
    // A stable result carries a found tool's guidance, which the filter takes out of the prompt.
    const last = { presentation: presentationOf(assembly), toolSections: toolSections(assembly) }
    record.set(ASSEMBLY, last)
    const registered = this.deps.catalogs.registeredFor(agent, last.presentation === 'native' ? assembly.tools : undefined)
    const rule = offerRule(this.deps.policy(), record.state.selected, this.defers(record, registered))
    const outline = (await this.outline(agent, registered))?.text ?? ''
    const filtered = filterAssembly(assembly, {
      registered: registered.names,
      offers: name => rule.offers(name),
      sdk: () => {
        // Code reaches every registered tool by name, so `call_tool` has no place in the SDK.
        const offered = rule.offered(registered.names).filter(name => name !== CALL_TOOL_NAME).sort(compareNames)
        const language = ptcLanguage(this.ctx)
        const key = [registered.generation, language, outline, ...offered].join('\n')
        const kept = record.get(SDK)
        if (kept?.key === key) return kept.text
        const describe = (name: string, description: string): string => (name === TOOL_SEARCH_NAME ? describedSearch(description, outline) : description)
        const text = renderOfferedSdk(this.ctx, agent, offered, language, describe)
        record.set(SDK, { key, text })
        return text
      },
    })
    const described = filtered.tools.map(tool => (tool.name === TOOL_SEARCH_NAME ? { ...tool, description: describedSearch(tool.description, outline) } : tool))
    const offered = { ...filtered, tools: [...admitOffered(record, described)] }
    weighOffered(record, registered, assembly, offered)
    return offered
  }

  /** Whether this step of the Agent defers tools (the `defer` setting, decided once a turn). */
  defers(record: AgentRecord, registered: RegisteredTools): boolean {
    return defersThisStep(record, this.deps.settings.current, registered, this.deps.policy())
  }

  /** What the Agent's last assembly carried; undefined before its first. */
  assemblyOf(record: AgentRecord): LastAssembly | undefined {
    return record.get(ASSEMBLY)
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
      const record = this.deps.records.of(agent)
      const kept = record?.get(OUTLINE)
      if (kept?.key === key) return kept
      if (this.lastOutline?.key !== key) {
        const data = catalog.index.outline({ exclude: this.standing(registered) })
        this.lastOutline = { key, data, text: renderOutline(data) }
      }
      record?.set(OUTLINE, this.lastOutline)
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
   * @param record - the Agent's record; undefined for a caller the plugin follows no selection of.
   */
  callable(record: AgentRecord | undefined, registered: RegisteredTools): string[] {
    const policy = this.deps.policy()
    const selected = record?.state.selected ?? NOTHING_SELECTED
    const defers = record === undefined ? true : deferralInForce(record) ?? true
    const offered = offerRule(policy, selected, defers).offered(registered.names)
    const found = policy.stable ? [...selected].filter(name => registered.names.has(name) && !offered.includes(name)) : []
    return [...offered, ...found].filter(coreTakesName)
  }
}
