/**
 * `maxSelected`: an Agent's selection kept to a number of tools.
 *
 * When the selection has grown past the limit, the least recently used tools (called or
 * selected longest ago) leave it as the next user message starts a turn, never within a turn:
 * each eviction changes the offered tools, which bills the cached conversation again, so it
 * happens at most once per turn. Every eviction is written into the session as a selection
 * record (record.ts) whose payload deselects the names, so resume and fork rebuild the
 * same set. A search that returns a dropped tool selects it again like any other; a call of one
 * brings it back too, through a record of its own.
 *
 * How recently a tool was used is read from the session log at the moment of an eviction, not
 * kept beside it, by the native replay that rebuilds a resumed or forked Agent's selection
 * (`lastUsed`, with its one rule for which calls succeeded): a live Agent and its resumed or
 * forked copy therefore evict alike.
 */

import type { Session } from '@deepseek-ai/dsh-session'
import type { AgentState } from './agent-state.ts'
import { DESELECT_FIELD, EVICT_RECORD, PAYLOAD_SCHEMA_VERSION, RECALL_RECORD, compareNames } from '../contract.ts'
import { sessionEvents } from '../host/dsh/session-log.ts'
import { recordSelection } from './record.ts'
import { replaySelection } from './result.ts'

/**
 * @param selected - an Agent's selection.
 * @param lastUsed - every used name, the one used longest ago first (the native replay's).
 * @param count - how many to drop.
 * @returns the `count` selected tools used longest ago (a tool never used first), ties by name.
 */
function leastRecentlyUsed(selected: ReadonlySet<string>, lastUsed: readonly string[], count: number): string[] {
  const rank = new Map(lastUsed.map((name, at) => [name, at + 1]))
  const order = (name: string): number => rank.get(name) ?? 0
  return [...selected].sort((a, b) => order(a) - order(b) || compareNames(a, b)).slice(0, count)
}

/**
 * Drop the least recently used tools beyond `max` from an Agent's selection, and record it.
 * Called as a turn starts, so the session has an open turn.
 * @param key - the id of the message that starts the turn.
 * @returns the dropped names (none when `max` is 0 or the selection fits).
 */
export function evictLeastRecentlyUsed(session: Session, state: AgentState, max: number, key: string): string[] {
  if (max === 0 || state.selected.size <= max) return []
  const dropped = leastRecentlyUsed(state.selected, replaySelection(sessionEvents(session)).lastUsed, state.selected.size - max)
  recordSelection(session, {
    kind: EVICT_RECORD,
    key,
    arguments: { maxSelected: max },
    payload: { schemaVersion: PAYLOAD_SCHEMA_VERSION, query: '', tools: [], [DESELECT_FIELD]: dropped },
  })
  state.deselect(dropped)
  return dropped
}

/** The model called a tool an eviction dropped: select it again, and record it. */
export function recallDropped(session: Session, state: AgentState, name: string): void {
  const names = recordSelection(session, {
    kind: RECALL_RECORD,
    // The position the record takes in the log.
    key: String(session.seq),
    arguments: { called: name },
    payload: { schemaVersion: PAYLOAD_SCHEMA_VERSION, query: name, tools: [{ name, description: '', score: 0 }] },
  })
  state.select(names)
}
