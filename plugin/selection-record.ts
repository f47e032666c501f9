/**
 * Selection changes the model did not make with a search of its own (a prefetch from the user's
 * message), written into the Agent's session so resume and fork rebuild them exactly.
 *
 * A record is a `tool/code-dispatch` event of `tool_search` whose content is a `tool_search`
 * payload. DSH refuses to load a log holding an event type it does not know (and a plugin cannot
 * mark one ignorable), so the record borrows the one known type whose meaning fits, "a tool_search
 * ran outside the model's own calls and returned this": it is log-only (never in the model's
 * history), DSH's tools invariant asks only for non-empty ids and an open turn, its UIs show a
 * dispatch only under the `run_code` call it names (there is none, so nothing is drawn), and replay
 * already reads it with the rule every search result goes through (src/replay.rs).
 */

import { CallId } from '@deepseek-ai/dsh-llm'
import type { JsonValue, Session } from '@deepseek-ai/dsh-session'
import type {} from '@deepseek-ai/dsh-tools'
import { TOOL_SEARCH_NAME } from './contract.ts'
import { payloadContent, type ToolSearchPayload } from './payload.ts'
import { resultSelection } from './selection.ts'

/** One selection change to record. */
export interface SelectionRecord {
  /** The origin; a record is rooted at `dsh-tool-search:<kind>:<key>` (the core reads the kind). */
  readonly kind: 'prefetch'
  /** Unique in the session: a reused key fails DSH's tools invariant. */
  readonly key: string
  /** What the dispatch was asked, as a `tool_search` call's arguments. */
  readonly arguments: JsonValue
  readonly payload: ToolSearchPayload
}

/**
 * Append a record. Call it only while the Agent's turn is open (an `agent/inbox/claimed`
 * listener, a tool execution), never from a `session/event` listener (appends do not nest).
 * @param session - the Agent's session.
 * @param record - the change.
 * @returns the names it selects, read from the appended text by the rule replay applies.
 */
export function recordSelection(session: Session, record: SelectionRecord): string[] {
  const root = CallId(`dsh-tool-search:${record.kind}:${record.key}`)
  const content = payloadContent(record.payload)
  session.append('tool/code-dispatch', {
    rootCallId: root,
    parentCallId: root,
    subCallId: CallId(`${root}:1`),
    name: TOOL_SEARCH_NAME,
    arguments: record.arguments,
    isError: false,
    content,
  })
  return resultSelection(content)
}
