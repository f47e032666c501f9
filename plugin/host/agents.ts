/**
 * The live Agents the plugin follows: each one's {@link AgentState}, rebuilt from its session log
 * when it attaches, the turn its last claimed message belongs to, and the four Agent-scoped
 * listeners that keep them current.
 */

import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { UserMessage } from '@deepseek-ai/dsh-llm'
import type { PromptAssembly } from '@deepseek-ai/dsh-system-prompt'
import { TOOL_SEARCH_NAME } from '../contract.ts'
import { AgentState } from '../selection/agent-state.ts'
import { evictLeastRecentlyUsed, recallDropped } from '../selection/eviction.ts'
import { replaySelection, resultSelection } from '../selection/result.ts'
import { sessionEvents } from './dsh/session-log.ts'
import { message } from './report.ts'

/** What the listeners hand back to the runtime. */
export interface AgentHooks {
  /** The step's assembly as this Agent is to see it. */
  readonly filter: (agent: Agent, state: AgentState, assembly: PromptAssembly) => Promise<PromptAssembly> | PromptAssembly
  /**
   * A user message the turn just claimed, after the turn's eviction: the prefetch it starts, done
   * once it has committed; undefined when there is nothing to prefetch.
   */
  readonly claimed: (agent: Agent, state: AgentState, message: UserMessage) => Promise<void> | undefined
  /** Messages to follow the step's own (after the user's message), before the model is asked. */
  readonly stepMessages: (agent: Agent) => UserMessage[]
  readonly maxSelected: () => number
  /** The Agent is no longer followed: what was kept for it can go. */
  readonly detached: (agent: Agent) => void
}

/** How an attachment reports a selection change that failed: logged, never thrown into the loop. */
type Failed = (agent: Agent, what: string, error: unknown) => void

/**
 * Work that runs one task after another, and a wait for all of it. DSH does not wait for an
 * `agent/inbox/claimed` listener, so the prefetches of the messages claimed since the last
 * assembly queue here, and the step's assembly and messages, which follow the claim at once, wait
 * for them before anything reads the selection.
 */
class Sequence {
  private tail: Promise<void> | undefined

  add(task: () => Promise<void> | undefined): void {
    this.tail = this.tail === undefined ? task() : this.tail.then(task)
  }

  async settled(): Promise<void> {
    const waited = this.tail
    if (waited === undefined) return
    await waited
    if (this.tail === waited) this.tail = undefined
  }
}

/** One attached Agent: its selection, its turn, its queued prefetches and its listeners. */
class Attachment {
  readonly state: AgentState
  private claimedTurn: number | undefined
  private readonly prefetches = new Sequence()
  private readonly disposers: (() => void)[]

  constructor(private readonly agent: Agent, state: AgentState, private readonly hooks: AgentHooks, private readonly failed: Failed) {
    this.state = state
    this.disposers = [
      // Prepended, so it is the outermost listener: it filters what every other listener built.
      agent.ctx.on('system-prompt/assemble', async (_assembly, context, next) => {
        if (context.scope === agent) await this.prefetches.settled()
        const full = await next()
        return context.scope === agent ? await hooks.filter(agent, this.state, full) : full
      }, { prepend: true }),
      // `tools/result` is the final, frozen outcome after post-execute policy and finalization,
      // for model-direct calls and for `run_code` sub-calls alike. Whether it succeeded and
      // what it selects are read from what the session log keeps, by the native rule replay
      // applies to it, so a live Agent and its resume cannot disagree.
      agent.ctx.on('tools/result', (exec, result) => {
        if (exec.agent !== agent) return
        if (exec.name === TOOL_SEARCH_NAME) this.state.select(resultSelection(result))
        else if (this.state.dropped.has(exec.name)) this.guarded('bring back', () => { recallDropped(agent.session, this.state, exec.name) })
      }),
      agent.ctx.on('agent/inbox/claimed', ({ agent: claimant, message: claimed, turn }) => {
        if (claimant === agent) this.claimed(claimed, turn)
      }),
      // The step's messages, once every other listener has had its say and the prefetches have
      // committed: what DSH appends to the conversation after the user's message without
      // touching the system prompt or the tools.
      agent.ctx.on('agent/pre-step', async (payload, next) => {
        const decision = await next()
        if (payload.agent !== agent || decision.kind !== 'enter' || payload.signal.aborted) return decision
        await this.prefetches.settled()
        let extra: UserMessage[] = []
        this.guarded('describe the prefetched', () => { extra = hooks.stepMessages(agent) })
        return extra.length === 0 ? decision : { ...decision, messages: [...decision.messages, ...extra] }
      }),
    ]
  }

  /** The turn its last claimed message belongs to (`agent/inbox/claimed`); a new one starts a turn. */
  get turn(): number | undefined {
    return this.claimedTurn
  }

  /**
   * A message the turn just took from the inbox, inside the open turn and before the step's
   * prompt is assembled (DSH logs it as a `user/message` only after that). The first of a new
   * turn is where the turn's `defer` decision is taken and `maxSelected` evicts; every user
   * message is prefetched for, after the eviction, so it cannot drop what it loads.
   */
  private claimed(claimed: UserMessage, turn: number): void {
    if (turn !== this.claimedTurn) {
      this.claimedTurn = turn
      this.guarded('evict', () => { evictLeastRecentlyUsed(this.agent.session, this.state, this.hooks.maxSelected(), claimed.id) })
    }
    this.prefetches.add(() => {
      try {
        return this.hooks.claimed(this.agent, this.state, claimed)?.catch((error: unknown) => { this.failed(this.agent, 'prefetch', error) })
      } catch (error) {
        this.failed(this.agent, 'prefetch', error)
        return undefined
      }
    })
  }

  /** Run a selection change the Agent's loop waits on. */
  private guarded(what: string, change: () => void): void {
    try {
      change()
    } catch (error) {
      this.failed(this.agent, what, error)
    }
  }

  detach(): void {
    for (const dispose of this.disposers) dispose()
  }
}

export class AttachedAgents {
  private readonly attached = new Map<Agent, Attachment>()

  constructor(private readonly ctx: Context, private readonly hooks: AgentHooks) {}

  stateOf(agent: Agent): AgentState | undefined {
    return this.attached.get(agent)?.state
  }

  /** The turn the Agent's last claimed message belongs to; undefined before its first. */
  turnOf(agent: Agent): number | undefined {
    return this.attached.get(agent)?.turn
  }

  /** The attached Agents, in attach order. */
  agents(): Agent[] {
    return [...this.attached.keys()]
  }

  entries(): Array<[Agent, AgentState]> {
    return [...this.attached].map(([agent, { state }]) => [agent, state])
  }

  states(): AgentState[] {
    return [...this.attached.values()].map(({ state }) => state)
  }

  /**
   * Start tracking an Agent: rebuild its selection from its session log (empty for a new Agent,
   * the persisted searches for a resumed one, the copied prefix for a fork) and add the four
   * Agent-scoped listeners. Never throws: a throwing `agent/created` listener would veto the
   * Agent's publication.
   */
  attach(agent: Agent): void {
    if (this.attached.has(agent)) return
    try {
      this.attached.set(agent, new Attachment(agent, this.replay(agent), this.hooks, (who, what, error) => { this.failed(who, what, error) }))
    } catch (error) {
      this.ctx.logger.warn(`dsh-tool-search: could not attach to agent ${agent.id}; it is offered every tool: ${message(error)}`)
    }
  }

  detach(agent: Agent): void {
    const attachment = this.attached.get(agent)
    if (attachment === undefined) return
    this.attached.delete(agent)
    attachment.detach()
    this.hooks.detached(agent)
  }

  detachAll(): void {
    for (const agent of [...this.attached.keys()]) this.detach(agent)
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
