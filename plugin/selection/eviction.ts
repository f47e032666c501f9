/**
 * `maxSelected`: an Agent's selection kept to a number of tools.
 *
 * When the selection has grown past the limit, the least recently used tools (called or
 * selected longest ago) leave it as the next user message starts a turn, never within a turn:
 * each eviction changes the offered tools, which bills the cached conversation again, so it
 * happens at most once per turn. Every eviction is written into the session as a selection
 * record (selection-record.ts) whose payload deselects the names, so resume and fork rebuild the
 * same set. A search that returns a dropped tool selects it again like any other; a call of one
 * brings it back too, through a record of its own.
 *
 * How recently a tool was used is read from the session log at the moment of an eviction, not
 * kept beside it: a live Agent and its resumed or forked copy therefore evict alike.
 */

import type { Session } from '@deepseek-ai/dsh-session'
import type { AgentState } from './agent-state.ts'
import { TOOL_SEARCH_NAME, compareNames } from '../contract.ts'
import { selectionFromPayload } from '../host/native.ts'
import { PAYLOAD_SCHEMA_VERSION } from '../search/payload.ts'
import { recordSelection } from './record.ts'
import { field } from './result.ts'

/**
 * When each tool was last used in a session's events, as a rank (the higher, the more recent):
 * every `tool/call` and `run_code` sub-call, and every name a `tool_search` result or selection
 * record selects (by the native rule).
 * @param events - the session's events as DSH loaded them, possibly hand-edited.
 */
function lastUses(events: readonly unknown[]): ReadonlyMap<string, number> {
  const last = new Map<string, number>()
  const searchCalls = new Set<unknown>()
  let clock = 0
  const use = (names: readonly string[]): void => {
    // Within one result the better match counts as used more recently.
    for (let i = names.length - 1; i >= 0; i--) last.set(names[i] as string, (clock += 1))
  }
  for (const event of events) {
    const data = field(event, 'data')
    const name = field(data, 'name')
    const type = field(event, 'type')
    if (type === 'tool/call' || type === 'tool/code-dispatch') {
      if (name === TOOL_SEARCH_NAME) {
        if (type === 'tool/call') searchCalls.add(field(data, 'callId'))
        else if (field(data, 'isError') === false) use(selected(field(data, 'content')))
      } else if (typeof name === 'string') {
        use([name])
      }
    } else if (type === 'tool/result') {
      const blocks = field(field(data, 'message'), 'content')
      for (const block of Array.isArray(blocks) ? blocks : []) {
        if (searchCalls.has(field(block, 'toolCallId')) && field(block, 'isError') !== true) use(selected(field(block, 'content')))
      }
    }
  }
  return last
}

/** The names the text parts of a result's content select. */
function selected(content: unknown): string[] {
  return (Array.isArray(content) ? content : []).flatMap((part) => {
    const text = field(part, 'text')
    return field(part, 'type') === 'text' && typeof text === 'string' ? selectionFromPayload(text) : []
  })
}

/**
 * @param selected - an Agent's selection.
 * @param last - when each tool was last used (`lastUses`).
 * @param max - the most tools the selection may keep; 0 for no limit.
 * @returns the tools to drop, least recently used first (ties by name).
 */
function overflow(selected: ReadonlySet<string>, last: ReadonlyMap<string, number>, max: number): string[] {
  if (max === 0 || selected.size <= max) return []
  const rank = (name: string): number => last.get(name) ?? 0
  return [...selected].sort((a, b) => rank(a) - rank(b) || compareNames(a, b)).slice(0, selected.size - max)
}

/**
 * Drop the least recently used tools beyond `max` from an Agent's selection, and record it.
 * Called as a turn starts, so the session has an open turn.
 * @param key - unique in the session: the id of the message that starts the turn.
 * @returns the dropped names (none when `max` is 0 or the selection fits).
 */
export function evictLeastRecentlyUsed(session: Session, state: AgentState, max: number, key: string): string[] {
  if (max === 0 || state.selected.size <= max) return []
  const dropped = overflow(state.selected, lastUses(session.events), max)
  recordSelection(session, {
    kind: 'evict',
    key,
    arguments: { maxSelected: max },
    payload: { schemaVersion: PAYLOAD_SCHEMA_VERSION, query: '', tools: [], deselect: dropped },
  })
  state.deselect(dropped)
  return dropped
}

/** The model called a tool an eviction dropped: select it again, and record it. */
export function recallDropped(session: Session, state: AgentState, name: string): void {
  const names = recordSelection(session, {
    kind: 'recall',
    // The position the record takes in the log: unique, in the log it is written to and in every fork of it.
    key: String(session.seq),
    arguments: { called: name },
    payload: { schemaVersion: PAYLOAD_SCHEMA_VERSION, query: name, tools: [{ name, description: '', score: 0 }] },
  })
  state.select(names)
}
