/**
 * What one live Agent has selected: the tools its searches and prefetches found, which of them a
 * prefetch found first, and those an eviction took out. Nothing else: it lives in the Agent's
 * record (host/agent-record.ts), beside what each module keeps for the Agent in a slot of its own.
 */

import type { SessionSelection } from '../host/native.ts'

/** Where a selection came from: the model's own search, or a prefetch from the user's message. */
export type SelectionOrigin = 'search' | 'prefetch'

/**
 * One Agent's selection. It grows with every search; settings can hide a selected tool
 * (neverSearch) without the Agent forgetting it, and only an eviction under `maxSelected` takes
 * tools out of it (see eviction.ts).
 */
export class AgentState {
  private readonly chosen: Set<string>
  private readonly fetched: Set<string>
  private readonly evicted: Set<string>

  /**
   * @param replayed - the selection rebuilt from the Agent's session log: which of it a prefetch
   *   selected, and the tools an eviction took out of it that nothing has selected since.
   */
  constructor(replayed: Pick<SessionSelection, 'selected' | 'prefetched' | 'dropped'>) {
    this.chosen = new Set(replayed.selected)
    this.fetched = new Set(replayed.prefetched)
    this.evicted = new Set(replayed.dropped)
  }

  get selected(): ReadonlySet<string> {
    return this.chosen
  }

  /** The selected names that a prefetch selected first. */
  get prefetched(): ReadonlySet<string> {
    return this.fetched
  }

  /** Tools an eviction dropped; calling one brings it back. */
  get dropped(): ReadonlySet<string> {
    return this.evicted
  }

  /** Add the names a successful `tool_search` result, or a selection record, selected. */
  select(names: Iterable<string>, origin: SelectionOrigin = 'search'): void {
    for (const name of names) {
      this.evicted.delete(name)
      if (this.chosen.has(name)) continue
      this.chosen.add(name)
      if (origin === 'prefetch') this.fetched.add(name)
    }
  }

  /** Take the names an eviction drops out of the selection. */
  deselect(names: Iterable<string>): void {
    for (const name of names) {
      this.fetched.delete(name)
      if (this.chosen.delete(name)) this.evicted.add(name)
    }
  }
}
