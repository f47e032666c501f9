/**
 * Selection records: a change of an Agent's selection that the model did not make with its own
 * `tool_search` call, written into its session so that resume and fork replay it exactly.
 *
 * A record is a dispatch of `tool_search`, a start and its settle (host/dsh/session-log.ts writes
 * them in the spelling the running DSH reads back), whose content is a `tool_search` payload. DSH
 * refuses to load a log holding an event type it does not know (and a plugin cannot mark one
 * ignorable), so the record borrows the one known type whose meaning fits, "a tool_search ran
 * outside the model's own calls and returned this": it is log-only (never in the model's
 * history), DSH's readers ask only for non-empty ids, an open turn and a settle that matches its
 * start, its UIs show a dispatch only under the `run_code` call it names (there is none, so
 * nothing is drawn), and replay already reads it with the rule every search result goes through
 * (src/replay.rs). The ids are rooted at `dsh-tool-search:<kind>:<key>` (`RECORD_ID_PREFIX` and
 * the record kinds of contract.ts): `prefetch` (prefetch.ts), `evict` and `recall` (eviction.ts).
 */

import type { Session } from '@deepseek-ai/dsh-session'
import { RECORD_ID_PREFIX, TOOL_SEARCH_NAME } from '../contract.ts'
import { appendLoggedCall } from '../host/dsh/session-log.ts'
import { payloadContent, type ToolSearchPayload } from '../search/payload.ts'
import { resultSelection } from './result.ts'

/** One record. */
export interface SelectionRecord {
  /** Where it comes from: one of the contract's `*_RECORD` kinds. */
  readonly kind: string
  /** What the record is about (a message id, a log position); its root call id ends with it. */
  readonly key: string
  /** What the record was made for, as the session log and its viewers show it. */
  readonly arguments: Readonly<Record<string, unknown>>
  readonly payload: ToolSearchPayload
}

/**
 * Append one record to a session; the session must have an open turn.
 * @returns the names it selects, read from the appended text with the native rule replay
 *   applies: commit exactly those.
 * @throws when the running DSH's log admits no dispatch pair: nothing is written, and the
 *   caller commits nothing.
 */
export function recordSelection(session: Session, record: SelectionRecord): string[] {
  const content = payloadContent(record.payload)
  appendLoggedCall(session, {
    root: `${RECORD_ID_PREFIX}${record.kind}:${record.key}`,
    name: TOOL_SEARCH_NAME,
    arguments: record.arguments,
    isError: false,
    content,
  })
  return resultSelection({ isError: false, content })
}
