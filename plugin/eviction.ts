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
import { TOOL_SEARCH_NAME, compareNames } from './contract.ts'
import { selectionFromPayload } from './native.ts'
import { PAYLOAD_SCHEMA_VERSION } from './payload.ts'
import { recordSelection } from './selection-record.ts'
import { field } from './selection.ts'

/** What a session's log says about its tools: when each was last used, and which were ever selected. */
export interface ToolUse {
  /** A tool's last use, as a rank: the higher, the more recent. */
  readonly last: ReadonlyMap<string, number>
  /** Every tool a successful search or a selection record selected, evicted ones included. */
  readonly everSelected: ReadonlySet<string>
}

/**
 * Read the uses of tools in a session's events: every `tool/call` and `run_code` sub-call, and
 * every name a `tool_search` result or selection record selects (by the native rule).
 * @param events - the session's events as DSH loaded them, possibly hand-edited.
 */
export function toolUse(events: readonly unknown[]): ToolUse {
  const last = new Map<string, number>()
  const everSelected = new Set<string>()
  const searchCalls = new Set<unknown>()
  let clock = 0
  const use = (names: readonly string[], selected: boolean): void => {
    // Within one result the better match counts as used more recently.
    for (let i = names.length - 1; i >= 0; i--) {
      const name = names[i] as string
      last.set(name, (clock += 1))
      if (selected) everSelected.add(name)
    }
  }
  for (const event of events) {
    const data = field(event, 'data')
    const name = field(data, 'name')
    const type = field(event, 'type')
    if (type === 'tool/call' || type === 'tool/code-dispatch') {
      if (name === TOOL_SEARCH_NAME) {
        if (type === 'tool/call') searchCalls.add(field(data, 'callId'))
        else if (field(data, 'isError') === false) use(selected(field(data, 'content')), true)
      } else if (typeof name === 'string') {
        use([name], false)
      }
    } else if (type === 'tool/result') {
      const blocks = field(field(data, 'message'), 'content')
      for (const block of Array.isArray(blocks) ? blocks : []) {
        if (searchCalls.has(field(block, 'toolCallId')) && field(block, 'isError') !== true) use(selected(field(block, 'content')), true)
      }
    }
  }
  return { last, everSelected }
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
 * @param use - its session's tool use.
 * @param max - the most tools the selection may keep; 0 for no limit.
 * @returns the tools to drop, least recently used first (ties by name).
 */
export function overflow(selected: ReadonlySet<string>, use: ToolUse, max: number): string[] {
  if (max === 0 || selected.size <= max) return []
  const rank = (name: string): number => use.last.get(name) ?? 0
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
  const dropped = overflow(state.selected, toolUse(session.events), max)
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

/**
 * @param events - a session's events.
 * @param selected - the selection replayed from them.
 * @returns the tools an eviction dropped and nothing selected again since.
 */
export function replayDropped(events: readonly unknown[], selected: readonly string[]): string[] {
  const kept = new Set(selected)
  return [...toolUse(events).everSelected].filter(name => !kept.has(name))
}
