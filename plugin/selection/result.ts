/**
 * What a successful `tool_search` result selects, read by the native core in both places it is
 * read: from a live result's content as it is committed, and from the session log on resume.
 */

import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import { TOOL_SEARCH_NAME } from '../contract.ts'
import { selectionFromEvents, selectionFromPayload, type SessionSelection } from '../host/native.ts'

/**
 * The names one successful result selects: each text block of its content (what the log keeps,
 * see `finalizeContent` in tool.ts) read as replay reads it; anything that is not a payload,
 * such as another plugin's `tool_search` result, selects nothing.
 * @param content - the result's final content blocks.
 * @returns the selected names, in payload order.
 */
export function resultSelection(content: readonly ContentBlock[]): string[] {
  return content.flatMap(block => (block.type === 'text' ? selectionFromPayload(block.text) : []))
}

/**
 * The names a session's successful `tool_search` results and selection records (prefetches, see
 * selection-record.ts) selected, in first-seen order, and which of them a prefetch selected.
 *
 * Only the events replay reads cross to the native side: every `tool/call` cut to its call id
 * and tool name (a later call may reuse an id, and then it decides), search dispatches (from
 * `run_code`, and the plugin's own records), and results answering an id a search call used. A long session's other events,
 * file contents and command output, are megabytes that never select anything; serializing them
 * all could exceed what one JavaScript string holds and lose the whole selection.
 * @param events - the session's events as DSH loaded them, possibly hand-edited.
 * @returns the selection.
 */
export function replaySelection(events: readonly unknown[]): SessionSelection {
  const searchCalls = new Set<unknown>()
  const relevant: unknown[] = []
  for (const event of events) {
    const type = field(event, 'type')
    const data = field(event, 'data')
    if (type === 'tool/call') {
      const callId = field(data, 'callId')
      const name = field(data, 'name')
      if (name === TOOL_SEARCH_NAME) searchCalls.add(callId)
      relevant.push({ type, data: { callId, name } })
    } else if (type === 'tool/code-dispatch') {
      if (field(data, 'name') === TOOL_SEARCH_NAME) relevant.push(event)
    } else if (type === 'tool/result') {
      const blocks = field(field(data, 'message'), 'content')
      if (Array.isArray(blocks) && blocks.some(block => searchCalls.has(field(block, 'toolCallId')))) relevant.push(event)
    }
  }
  return selectionFromEvents(JSON.stringify(relevant))
}

/** `value[key]` when `value` is an object, for events whose shape a hand edit may have broken. */
export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined
}
