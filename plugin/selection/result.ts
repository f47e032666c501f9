/**
 * What a `tool_search` result selects, read by the native core in every place it is read: a live
 * result as it is committed, a selection record as it is written, and the session log on resume,
 * fork and eviction (src/replay.rs, which also decides, once, which calls succeeded and the order
 * tools were last used in). Nothing here reads a result's fields: the core does.
 */

import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import { REPLAYED_EVENTS } from '../contract.ts'
import { selectionFromEvents, selectionFromResult, type SessionSelection } from '../host/native.ts'
import { PAYLOAD_TEXT_START } from '../search/payload.ts'

/** A tool's outcome as DSH's `tools/result` hands it over (its value aside, which the log never keeps). */
export interface ToolOutcome {
  readonly isError: boolean
  readonly error?: unknown
  readonly content: readonly ContentBlock[]
}

/**
 * The names one `tool_search` result selects: none when it failed, else what its text blocks (the
 * content the log keeps, see `finalizeContent` in search/tool.ts) select, read as replay reads
 * the logged result; anything that is not a payload, such as another plugin's result, selects
 * nothing.
 * @returns the selected names, in payload order.
 */
export function resultSelection({ isError, error, content }: ToolOutcome): string[] {
  return selectionFromResult(JSON.stringify({ isError, ...(error === undefined ? {} : { error }), content }))
}

/** The session event types replay reads; the others stay on this side. */
const REPLAYED_TYPES: ReadonlySet<unknown> = new Set(REPLAYED_EVENTS)

/**
 * Texts longer than this (in UTF-16 code units) cross to the core as '' unless they are a payload:
 * ids and tool names are far shorter, and a payload keeps its length.
 */
const LONGEST_TEXT = 4096

/**
 * What a session's successful `tool_search` results and selection records select, in first-seen
 * order, which of them a prefetch selected, what an eviction dropped, and the order every tool was
 * last used in (`lastUsed`).
 *
 * Only the event types replay reads cross to the native side, and in them every long text that
 * is not a payload is cut to '': a long session's file contents and command output are megabytes
 * that never select anything, and serializing them all could exceed what one JavaScript string
 * holds and lose the whole selection. A payload's canonical JSON always begins with its version
 * (search/payload.ts), which is how it is told from the rest without reading any event's shape.
 * @param events - the session's events as DSH loaded them, possibly hand-edited.
 * @returns the selection.
 */
export function replaySelection(events: readonly unknown[]): SessionSelection {
  const replayed = events.filter(event => REPLAYED_TYPES.has((event as { type?: unknown } | null)?.type))
  const text = JSON.stringify(replayed, (_key, value: unknown) =>
    (typeof value === 'string' && value.length > LONGEST_TEXT && !value.startsWith(PAYLOAD_TEXT_START) ? '' : value))
  return selectionFromEvents(text)
}
