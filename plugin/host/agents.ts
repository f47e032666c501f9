/**
 * The live Agents the plugin follows, each by its {@link AgentRecord}: made when the Agent
 * attaches, with its selection rebuilt from its session log and the four Agent-scoped listeners
 * that keep it current, and disposed, all of it at once, when the Agent is forgotten.
 */

import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { UserMessage } from '@deepseek-ai/dsh-llm'
import type { PromptAssembly } from '@deepseek-ai/dsh-system-prompt'
import { TOOL_SEARCH_NAME } from '../contract.ts'
import { AgentState } from '../selection/agent-state.ts'
import { evictLeastRecentlyUsed, recallDropped } from '../selection/eviction.ts'
import { replaySelection, resultSelection } from '../selection/result.ts'
import { AgentRecord, type AgentRecords } from './agent-record.ts'
import { sessionEvents } from './dsh/session-log.ts'
import { message } from './report.ts'

/** What the listeners hand back to the runtime. */
export interface AgentHooks {
  /** The step's assembly as this Agent is to see it. */
  readonly filter: (record: AgentRecord, assembly: PromptAssembly) => Promise<PromptAssembly> | PromptAssembly
  /**
   * A user message the turn just claimed, after the turn's eviction: the prefetch it starts, done
   * once it has committed; undefined when there is nothing to prefetch.
   */
  readonly claimed: (record: AgentRecord, message: UserMessage) => Promise<void> | undefined
  /** Messages to follow the step's own (after the user's message), before the model is asked. */
  readonly stepMessages: (record: AgentRecord) => UserMessage[]
  readonly maxSelected: () => number
}

/** How a listener reports a selection change that failed: logged, never thrown into the loop. */
type Failed = (agent: Agent, what: string, error: unknown) => void

/** Add the four Agent-scoped listeners that keep `record` current; its disposal removes them. */
function listen(record: AgentRecord, hooks: AgentHooks, failed: Failed): void {
  const { agent } = record
  /** Run a selection change the Agent's loop waits on. */
  const guarded = (what: string, change: () => void): void => {
    try {
      change()
    } catch (error) {
      failed(agent, what, error)
    }
  }
  /**
   * A message the turn just took from the inbox, inside the open turn and before the step's
   * prompt is assembled (DSH logs it as a `user/message` only after that). The first of a new
   * turn is where the turn's `defer` decision is taken and `maxSelected` evicts; every user
   * message is prefetched for, after the eviction, so it cannot drop what it loads.
   */
  const onClaimed = (claimed: UserMessage, turn: number): void => {
    if (record.claim(turn)) {
      guarded('evict', () => { evictLeastRecentlyUsed(agent.session, record.state, hooks.maxSelected(), claimed.id) })
    }
    record.prefetches.add(() => {
      try {
        return hooks.claimed(record, claimed)?.catch((error: unknown) => { failed(agent, 'prefetch', error) })
      } catch (error) {
        failed(agent, 'prefetch', error)
        return undefined
      }
    })
  }
  // Prepended, so it is the outermost listener: it filters what every other listener built.
  record.onDispose(agent.ctx.on('system-prompt/assemble', async (_assembly, context, next) => {
    if (context.scope === agent) await record.prefetches.settled()
    const full = await next()
    return context.scope === agent ? await hooks.filter(record, full) : full
  }, { prepend: true }))
  // `tools/result` is the final, frozen outcome after post-execute policy and finalization, for
  // model-direct calls and for `run_code` sub-calls alike. Whether it succeeded and what it
  // selects are read from what the session log keeps, by the native rule replay applies to it,
  // so a live Agent and its resume cannot disagree.
  record.onDispose(agent.ctx.on('tools/result', (exec, result) => {
    if (exec.agent !== agent) return
    if (exec.name === TOOL_SEARCH_NAME) record.state.select(resultSelection(result))
    else if (record.state.dropped.has(exec.name)) guarded('bring back', () => { recallDropped(agent.session, record.state, exec.name) })
  }))
  record.onDispose(agent.ctx.on('agent/inbox/claimed', ({ agent: claimant, message: claimed, turn }) => {
    if (claimant === agent) onClaimed(claimed, turn)
  }))
  // The step's messages, once every other listener has had its say and the prefetches have
  // committed: what DSH appends to the conversation after the user's message without touching
  // the system prompt or the tools.
  record.onDispose(agent.ctx.on('agent/pre-step', async (payload, next) => {
    const decision = await next()
    if (payload.agent !== agent || decision.kind !== 'enter' || payload.signal.aborted) return decision
    await record.prefetches.settled()
    let extra: UserMessage[] = []
    guarded('describe the prefetched', () => { extra = hooks.stepMessages(record) })
    return extra.length === 0 ? decision : { ...decision, messages: [...decision.messages, ...extra] }
  }))
}

export class AttachedAgents implements AgentRecords {
  private readonly records = new Map<Agent, AgentRecord>()

  constructor(private readonly ctx: Context, private readonly hooks: AgentHooks) {}

  of(agent: Agent | undefined): AgentRecord | undefined {
    return agent === undefined ? undefined : this.records.get(agent)
  }

  all(): AgentRecord[] {
    return [...this.records.values()]
  }

  /**
   * Start following an Agent: rebuild its selection from its session log (empty for a new Agent,
   * the persisted searches for a resumed one, the copied prefix for a fork) and add the four
   * Agent-scoped listeners. Never throws: a throwing `agent/created` listener would veto the
   * Agent's publication.
   */
  attach(agent: Agent): void {
    if (this.records.has(agent)) return
    const record = new AgentRecord(agent, this.replay(agent))
    try {
      listen(record, this.hooks, (who, what, error) => { this.failed(who, what, error) })
      this.records.set(agent, record)
    } catch (error) {
      record.dispose()
      this.ctx.logger.warn(`dsh-tool-search: could not attach to agent ${agent.id}; it is offered every tool: ${message(error)}`)
    }
  }

  /** The Agent is no longer followed: its record, and everything kept in it, goes. */
  forget(agent: Agent): void {
    const record = this.records.get(agent)
    if (record === undefined) return
    this.records.delete(agent)
    record.dispose()
  }

  forgetAll(): void {
    for (const agent of [...this.records.keys()]) this.forget(agent)
  }

  private replay(agent: Agent): AgentState {
    try {
      return new AgentState(replaySelection(sessionEvents(agent.session)))
    } catch (error) {
      this.ctx.logger.warn(`dsh-tool-search: could not replay the selection of ${agent.id}; starting empty: ${message(error)}`)
      return new AgentState({ selected: [], prefetched: [], dropped: [] })
    }
  }

  private failed(agent: Agent, what: string, error: unknown): void {
    this.ctx.logger.warn(`dsh-tool-search: could not ${what} tools of ${agent.id}: ${message(error)}`)
  }
}
