/**
 * `loading: stable` on the host side: `call_tool`'s registration and its rules (which tool a call
 * may run), the definitions a search result carries, and the message that brings a prefetch's
 * definitions after the user's message. Under `native` none of it is in force.
 */

import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { createUserMessage, type UserMessage } from '@deepseek-ai/dsh-llm'
import type { JsonValue } from '@deepseek-ai/dsh-session'
import { RUN_CODE_NAME, type ToolDefinition } from '@deepseek-ai/dsh-tools'
import { CALL_TOOL_NAME, TOOL_SEARCH_NAME } from '../contract.ts'
import { createCallTool } from '../call/tool.ts'
import type { LastAssembly } from '../offer/offering.ts'
import type { VisibilityPolicy } from '../offer/visibility.ts'
import type { RegisteredTools } from '../search/catalogs.ts'
import { defineTools, renderDefinitions, type DefinedTool, type PayloadDefinitions } from '../search/definitions.ts'
import { RecordSlot, type AgentRecord, type AgentRecords } from './agent-record.ts'
import { ptcLanguage } from './dsh/ptc.ts'
import { message, report } from './report.ts'

/** Tools `call_tool` never runs: each is called directly, and running one inside it would nest. */
const NOT_CALLABLE = new Set([CALL_TOOL_NAME, TOOL_SEARCH_NAME, RUN_CODE_NAME])
/** Names spelled like an unknown one that its error suggests. */
const SUGGESTED = 3
/** The tools a prefetch loaded whose definitions the Agent's step messages still owe. */
const OWED = new RecordSlot<string[]>('definitions owed')

/** What stable loading reads from the runtime. */
export interface LoadingDeps {
  readonly policy: () => VisibilityPolicy
  /** The Agents followed: their selections, and their scopes, where a call card's target is looked up. */
  readonly records: AgentRecords
  /** What the Agent's last assembly carried (its presentation, its tools' guidance). */
  readonly assemblyOf: (record: AgentRecord) => LastAssembly | undefined
  /** At most `limit` registered names spelled like `name` in the Agent's catalog. */
  readonly nearest: (agent: Agent, name: string, limit: number) => Promise<string[]>
}

export class StableLoading {
  private unregister: (() => void) | undefined
  /** Why `call_tool` could not be registered, once said; stable loading is off meanwhile. */
  private failure: string | undefined

  constructor(private readonly ctx: Context, private readonly deps: LoadingDeps) {}

  /** Whether found tools load through `call_tool` now: stable is set and the tool is ours. */
  get active(): boolean {
    return this.unregister !== undefined
  }

  /**
   * Register `call_tool` when `stable` is wanted and unregister it otherwise. Never throws: when
   * another plugin owns the name, found tools load natively and the user is told why.
   * @returns whether {@link active} changed.
   */
  apply(stable: boolean): boolean {
    const was = this.active
    if (!stable) {
      this.unregister?.()
      this.unregister = undefined
      this.failure = undefined
    } else if (!was) {
      try {
        this.unregister = this.ctx.tools.register(createCallTool(this.ctx.tools, {
          target: (agent, name) => this.target(agent, name),
          presenter: name => this.presenter(name),
        }))
        this.failure = undefined
      } catch (error) {
        const reported = this.failure !== undefined
        this.failure = `cannot register ${CALL_TOOL_NAME} (${message(error)})`
        if (!reported) report(this.ctx, `${this.failure}; found tools load natively until it can`)
      }
    }
    return was !== this.active
  }

  /**
   * The definitions a result carries for the tools it loads, in the form the Agent runs them:
   * through `call_tool`, or in Code Mode inside `run_code`.
   * @param summaries - each hit's summary, which the result carries beside them.
   */
  define(agent: Agent | undefined, registered: RegisteredTools, names: readonly string[], summaries?: ReadonlyMap<string, string>): PayloadDefinitions {
    const record = this.deps.records.of(agent)
    const assembly = record === undefined ? undefined : this.deps.assemblyOf(record)
    // Only `run_code` is callable (`ptc`, rc.8's `code`): found tools are called from a program.
    const code = assembly?.presentation === 'ptc'
    const tools = names.flatMap((name): DefinedTool[] => {
      const tool = registered.tools.find(candidate => candidate.name === name)
      if (tool === undefined) return []
      const guidance = assembly?.toolSections.get(name)
      const output = code ? agent === undefined ? undefined : this.ctx.tools.get(name, agent)?.output.schema : undefined
      return [{
        name,
        description: typeof tool.description === 'string' ? tool.description : '',
        parameters: tool.parameters as JsonValue,
        ...(output === undefined ? {} : { output: output as JsonValue }),
        ...(guidance === undefined ? {} : { guidance }),
      }]
    })
    return defineTools(tools, code ? { via: 'run_code', language: ptcLanguage(this.ctx) } : { via: 'call_tool' }, summaries)
  }

  /** A prefetch loaded `names` for the Agent: its next step's messages owe their definitions. */
  owe(record: AgentRecord, names: readonly string[]): void {
    record.set(OWED, [...(record.get(OWED) ?? []), ...names])
  }

  /**
   * The message that follows the user's under stable loading when a prefetch loaded tools for it:
   * the definitions owed (see {@link owe}), where the tools' schemas would otherwise have joined
   * the request. Undefined when nothing is owed; once given, nothing is.
   * @param registered - reads the Agent's registered tools, when anything is owed.
   */
  prefetched(record: AgentRecord, registered: () => RegisteredTools): UserMessage | undefined {
    const names = record.get(OWED) ?? []
    record.delete(OWED)
    if (names.length === 0 || !this.active) return undefined
    const definitions = this.define(record.agent, registered(), names)
    if (definitions.tools.length === 0) return undefined
    const text = `Tools loaded for this message by ${TOOL_SEARCH_NAME} (prefetch): ${definitions.tools.map(tool => tool.name).join(', ')}.\n\n${renderDefinitions(definitions)}`
    return createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'plugin', plugin: 'dsh-tool-search' } })
  }

  /** The definition `agent` may run through `call_tool` as `name`, or why not. */
  private async target(agent: Agent | undefined, name: string): Promise<ToolDefinition> {
    if (NOT_CALLABLE.has(name)) throw new Error(`call_tool: ${name} cannot be run through call_tool; call ${name} directly.`)
    if (agent === undefined) throw new Error('call_tool: runs only a tool an agent found, and this call has no agent.')
    const policy = this.deps.policy()
    const standing = policy.standing(name)
    if (standing === 'never') throw new Error(`call_tool: ${name} is blocked by the user's neverSearch setting and cannot be run.`)
    const definition = this.ctx.tools.get(name, agent)
    if (definition === undefined) {
      const nearest = await this.deps.nearest(agent, name, SUGGESTED)
      throw new Error(`call_tool: no tool named "${name}" is installed for this agent${nearest.length > 0 ? ` (similar names: ${nearest.join(', ')})` : ''}. `
        + `Find the tool you need with ${TOOL_SEARCH_NAME}.`)
    }
    const state = this.deps.records.of(agent)?.state
    // An Agent the plugin could not attach to is offered every tool, so it may run any.
    const found = standing !== 'deferred' || state === undefined || state.selected.has(name) || state.dropped.has(name)
    if (!found) {
      throw new Error(`call_tool: ${name} is installed but not loaded yet. Call ${TOOL_SEARCH_NAME} with {"query": "select:${name}"}: `
        + 'its result carries the definition. Then call call_tool again.')
    }
    return definition
  }

  /**
   * The definition whose card a call of `name` is shown with. A presenter is given no Agent, so
   * the global registry answers first and then the attached Agents' scopes (the web profile
   * mounts tools per preset); a call whose tool neither knows gets the generic card.
   */
  private presenter(name: string): ToolDefinition | undefined {
    const global = this.ctx.tools.get(name)
    if (global !== undefined) return global
    for (const { agent } of this.deps.records.all()) {
      const scoped = this.ctx.tools.get(name, agent)
      if (scoped !== undefined) return scoped
    }
    return undefined
  }
}
