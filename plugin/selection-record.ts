/**
 * Selection records: a change of an Agent's selection that the model did not make with its own
 * `tool_search` call, written into its session so that resume and fork replay it exactly.
 *
 * The mechanism is the one issue 15's prefetch records use (/work/wt/selection-records.md): a
 * `tool/code-dispatch` event of `tool_search` whose content is a `tool_search` payload. DSH loads,
 * persists and forks that event type, keeps it out of the model's history, and the native replay
 * already reads it with the rule it applies to every search result. The ids are rooted at
 * `dsh-tool-search:<kind>:<key>`, with no `run_code` call around them.
 */

import type { Session } from '@deepseek-ai/dsh-session'
import { CallId } from '@deepseek-ai/dsh-llm'
import { TOOL_SEARCH_NAME } from './contract.ts'
import { payloadContent, type ToolSearchPayload } from './payload.ts'
import { resultSelection } from './selection.ts'

/** One record. */
export interface SelectionRecord {
  /** Where it comes from (`evict`, `recall`, ...). */
  readonly kind: string
  /** Unique in the session for its kind: the tools companion refuses a sub-call id under two roots. */
  readonly key: string
  /** What the record was made for, as the session log and its viewers show it. */
  readonly arguments: Readonly<Record<string, unknown>>
  readonly payload: ToolSearchPayload
}

/**
 * Append one record to a session; the session must have an open turn.
 * @returns the names it selects, read from the appended text with the native rule replay
 *   applies: commit exactly those.
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
