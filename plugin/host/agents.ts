/**
 * The live Agents the plugin follows: each one's {@link AgentState}, rebuilt from its session log
 * when it attaches, and the three Agent-scoped listeners that keep it current.
 */

import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { UserMessage } from '@deepseek-ai/dsh-llm'
import type { PromptAssembly } from '@deepseek-ai/dsh-system-prompt'
import { TOOL_SEARCH_NAME } from '../contract.ts'
import { AgentState } from '../selection/agent-state.ts'
import { evictLeastRecentlyUsed, recallDropped } from '../selection/eviction.ts'
import { replaySelection, resultSelection } from '../selection/result.ts'
import { message } from './report.ts'

/** What the listeners hand back to the runtime. */
export interface AgentHooks {
  /** The step's assembly as this Agent is to see it. */
  readonly filter: (agent: Agent, state: AgentState, assembly: PromptAssembly) => PromptAssembly
  /**
   * A user message the turn just claimed, after the turn's eviction: the prefetch it starts, done
   * once it has committed; undefined when there is nothing to prefetch.
   */
  readonly claimed: (agent: Agent, state: AgentState, message: UserMessage) => Promise<void> | undefined
  /** Messages to follow the step's own (after the user's message), before the model is asked. */
  readonly stepMessages: (agent: Agent, state: AgentState) => UserMessage[]
  readonly maxSelected: () => number
}

interface Attachment {
  readonly state: AgentState
  readonly detach: () => void
}

export class AttachedAgents {
  private readonly attached = new Map<Agent, Attachment>()

  constructor(private readonly ctx: Context, private readonly hooks: AgentHooks) {}

  stateOf(agent: Agent): AgentState | undefined {
    return this.attached.get(agent)?.state
  }

  entries(): Array<[Agent, AgentState]> {
    return [...this.attached].map(([agent, { state }]) => [agent, state])
  }

  states(): AgentState[] {
    return [...this.attached.values()].map(({ state }) => state)
  }

  /**
   * Start tracking an Agent: rebuild its selection from its session log (empty for a new Agent,
   * the persisted searches for a resumed one, the copied prefix for a fork) and add the three
   * Agent-scoped listeners. Never throws: a throwing `agent/created` listener would veto the
   * Agent's publication.
   */
  attach(agent: Agent): void {
    if (this.attached.has(agent)) return
    try {
      const state = this.replay(agent)
      // The prefetches of the messages claimed since the last assembly, one after another: each
      // ranks off the JavaScript thread and commits when it is done, and DSH does not wait for an
      // `agent/inbox/claimed` listener. The step's assembly and its messages, which follow the
      // claim at once, wait for them before anything reads the selection.
      let prefetching: Promise<void> | undefined
      const settled = async (): Promise<void> => {
        if (prefetching === undefined) return
        const waited = prefetching
        await waited
        if (prefetching === waited) prefetching = undefined
      }
      const disposers: (() => void)[] = [
        // Prepended, so it is the outermost listener: it filters what every other listener built.
        agent.ctx.on('system-prompt/assemble', async (_assembly, context, next) => {
          if (context.scope === agent) await settled()
          const full = await next()
          return context.scope === agent ? this.hooks.filter(agent, state, full) : full
        }, { prepend: true }),
        // `tools/result` is the final, frozen outcome after post-execute policy and finalization,
        // for model-direct calls and for `run_code` sub-calls alike. Whether it succeeded and
        // what it selects are read from what the session log keeps, by the native rule replay
        // applies to it, so a live Agent and its resume cannot disagree.
        agent.ctx.on('tools/result', (exec, result) => {
          if (exec.agent !== agent) return
          if (exec.name === TOOL_SEARCH_NAME) state.select(resultSelection(result))
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
            this.guarded(agent, 'evict', () => { evictLeastRecentlyUsed(agent.session, state, this.hooks.maxSelected(), claimed.id) })
          }
          const prefetch = (): Promise<void> | undefined => {
            try {
              return this.hooks.claimed(agent, state, claimed)?.catch((error: unknown) => { this.failed(agent, 'prefetch', error) })
            } catch (error) {
              this.failed(agent, 'prefetch', error)
              return undefined
            }
          }
          prefetching = prefetching === undefined ? prefetch() : prefetching.then(prefetch)
        }),
        // The step's messages, once every other listener has had its say and the prefetches have
        // committed: what DSH appends to the conversation after the user's message without
        // touching the system prompt or the tools.
        agent.ctx.on('agent/pre-step', async (payload, next) => {
          const decision = await next()
          if (payload.agent !== agent || decision.kind !== 'enter' || payload.signal.aborted) return decision
          await settled()
          let extra: UserMessage[] = []
          this.guarded(agent, 'describe the prefetched', () => { extra = this.hooks.stepMessages(agent, state) })
          return extra.length === 0 ? decision : { ...decision, messages: [...decision.messages, ...extra] }
        }),
      ]
      this.attached.set(agent, { state, detach: () => { for (const dispose of disposers) dispose() } })
    } catch (error) {
      this.ctx.logger.warn(`dsh-tool-search: could not attach to agent ${agent.id}; it is offered every tool: ${message(error)}`)
    }
  }

  detach(agent: Agent): void {
    const attachment = this.attached.get(agent)
    if (attachment === undefined) return
    this.attached.delete(agent)
    attachment.detach()
  }

  detachAll(): void {
    for (const agent of [...this.attached.keys()]) this.detach(agent)
  }

  private replay(agent: Agent): AgentState {
    try {
      return new AgentState(replaySelection(agent.session.events))
    } catch (error) {
      this.ctx.logger.warn(`dsh-tool-search: could not replay the selection of ${agent.id}; starting empty: ${message(error)}`)
      return new AgentState({ selected: [], prefetched: [], dropped: [], lastUsed: [] })
    }
  }

  /** Run a selection change the Agent's loop waits on; a failure is logged, never thrown into the loop. */
  private guarded(agent: Agent, what: string, change: () => void): void {
    try {
      change()
    } catch (error) {
      this.failed(agent, what, error)
    }
  }

  private failed(agent: Agent, what: string, error: unknown): void {
    this.ctx.logger.warn(`dsh-tool-search: could not ${what} tools of ${agent.id}: ${message(error)}`)
  }
}
