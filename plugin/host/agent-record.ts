/**
 * Everything the plugin keeps for one live Agent, in one place: its selection, the turn it is in,
 * its queued prefetches, the disposers of its listeners, and one slot for each module's per-Agent
 * cache. Forgetting the Agent is one call, {@link AgentRecord.dispose}.
 *
 * A module that keeps something per Agent declares its own {@link RecordSlot}, typed with what it
 * keeps, and alone reads and writes it; this file knows none of those types, so every module can
 * import it without an import circle. A method called for an Agent the plugin follows takes its
 * record; one called with whatever Agent DSH hands over (a tool call, a search) looks the record
 * up through {@link AgentRecords}, and keeps nothing for an Agent without one.
 */

import type { Agent } from '@deepseek-ai/dsh-agent'
import type { AgentState } from '../selection/agent-state.ts'

/** A module's typed place in every {@link AgentRecord}, compared by identity. */
export class RecordSlot<T> {
  /** Only ties the slot to its type: a `RecordSlot<A>` is not a `RecordSlot<B>`. */
  declare private readonly holds: T

  /** @param name - what the slot holds, for a reader of the record. */
  constructor(readonly name: string) {}
}

/**
 * Work that runs one task after another, and a wait for all of it. DSH does not wait for an
 * `agent/inbox/claimed` listener, so the prefetches of the messages claimed since the last
 * assembly queue here, and the step's assembly and messages, which follow the claim at once, wait
 * for them before anything reads the selection.
 */
export class Sequence {
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

/** What the plugin keeps for one Agent it follows, from its attach until it is forgotten. */
export class AgentRecord {
  readonly prefetches = new Sequence()
  private claimedTurn: number | undefined
  private readonly slots = new Map<RecordSlot<unknown>, unknown>()
  private readonly disposers: (() => void)[] = []
  private disposed = false

  /** @param state - its selection, as its session log rebuilt it. */
  constructor(readonly agent: Agent, readonly state: AgentState) {}

  /** The turn its last claimed message belongs to (`agent/inbox/claimed`); undefined before its first. */
  get turn(): number | undefined {
    return this.claimedTurn
  }

  /**
   * A message of `turn` was claimed.
   * @returns whether it starts a new turn.
   */
  claim(turn: number): boolean {
    if (turn === this.claimedTurn) return false
    this.claimedTurn = turn
    return true
  }

  get<T>(slot: RecordSlot<T>): T | undefined {
    return this.slots.get(slot) as T | undefined
  }

  /** Keep `value` in `slot`; once the record is disposed, nothing is kept (a late async write goes nowhere). */
  set<T>(slot: RecordSlot<T>, value: T): void {
    if (!this.disposed) this.slots.set(slot, value)
  }

  delete(slot: RecordSlot<unknown>): void {
    this.slots.delete(slot)
  }

  /** Run `dispose` when the record is. */
  onDispose(dispose: () => void): void {
    this.disposers.push(dispose)
  }

  /**
   * Forget the Agent: its listeners are removed and every slot is emptied (an SDK text can be
   * megabytes, and a native index stays alive while anything holds it), even where something
   * still holds the Agent or this record. Disposing twice does nothing more.
   */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.slots.clear()
    for (const dispose of this.disposers.splice(0)) dispose()
  }
}

/** The records of the Agents the plugin follows, as the modules that keep something per Agent read them. */
export interface AgentRecords {
  /** The Agent's record; undefined without an Agent, or for one the plugin does not follow. */
  of(agent: Agent | undefined): AgentRecord | undefined
  /** Every record, in attach order. */
  all(): readonly AgentRecord[]
}
