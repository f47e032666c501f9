/**
 * Emulated: the session-format readers of DSH 0.1.5-0.1.6 (format v3) and 0.1.7-0.2.1 (format
 * v4), as far as they decide whether a log this plugin wrote can be opened. Written from their
 * public source, which cannot be installed here:
 * - the v3 vocabulary: zsagi1368/deepseek-harness-zDSH
 *   packages/session/session-format-v3-to-v4/src/extension-identities.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68
 *   (`RELEASED_V3_EVENT_TYPES`); v4 adds `developer/message`
 *   (packages/core/session/src/known-event-types.ts, same commit);
 * - the v3 admission and the released relationship rules it restores with:
 *   packages/session/session-format-v2-to-v3/src/validation.ts and payload.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e,
 *   packages/session/session-format-v0-to-v1/src/relationships.ts@3a10855f190d197730ab05c78ead712e519191e7;
 * - the v4 reader: packages/session/session-format-v3-to-v4/src/relationships.ts and
 *   validation.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68, retired-syntax.ts and tool-role.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e;
 * - the migrations of an rc.8 (v0) log: session-format-v1-to-v2/src/migration.ts@3a10855f190d197730ab05c78ead712e519191e7
 *   (streamed `assistant/chunk` events folded into the message), session-format-v2-to-v3/src/migration.ts@30f71de5f3360c607ce8eaa5262c0cac5df7f1fb
 *   (`tool/code-dispatch(-start)` renamed `tool/ptc-dispatch(-start)`, nothing synthesized or dropped),
 *   session-format-v3-to-v4/src/tool-role.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e (`tool/result` lifted).
 * docs/dsh-versions.md, "Session log", says what these emulations show.
 *
 * Emulated: event vocabularies, the dispatch events' keys and content kinds, the dispatch
 * relationships (an open turn, start before settle, the same ids, name and arguments, a sub-call
 * id once in the whole log), the retired names and wrappers, the `tool/result` shape. Not
 * emulated: step, tool-call, surface, compaction and title relationships, the system prompt's
 * promotion to `system/message`, message sources, and seq renumbering; none of them involves an
 * event this plugin writes.
 */

import { isDeepStrictEqual } from 'node:util'

/** A stored event, as the readers see one. */
export interface FormatEvent {
  readonly type: string
  readonly seq: number
  readonly time?: number
  readonly data?: unknown
  readonly ignorable?: true
}

/** What a reader says when it refuses a log (DSH's `SessionFormatUnsupportedError` detail). */
export class FormatRefusal extends Error {}

/** The 58 event names of format v3. */
export const V3_EVENT_TYPES: ReadonlySet<string> = new Set([
  'agent-preset/selected', 'agent/inbox/spliced', 'approval/asked', 'approval/decided', 'approval/policy',
  'assistant/attempt', 'assistant/message', 'command/done', 'command/run', 'compaction/end', 'compaction/prune',
  'compaction/start', 'compaction/summary', 'deliverables/presented', 'feedback/message-delete', 'feedback/message-put',
  'feedback/record', 'goal/change', 'hook/invoked', 'hook/result', 'image/offload', 'llm/retry', 'llm/retry-started',
  'model/selection', 'permission/preset', 'plan/mode', 'request/context', 'request/header', 'sandbox/mode',
  'schedule/change', 'session-log-deepseek/delivery-accepted', 'session/end-seed', 'session/title',
  'session/title-llm-request', 'step/end', 'step/start', 'subagent/catalog', 'subagent/descriptor',
  'subagent/model-selection-policy', 'system/message', 'team/member', 'team/message/delivered', 'team/message/queued',
  'team/task', 'todo/write', 'tool-workflow/agent-end', 'tool-workflow/agent-start', 'tool-workflow/run-end',
  'tool-workflow/run-start', 'tool/call', 'tool/ptc-dispatch', 'tool/ptc-dispatch-start', 'tool/result', 'turn/end',
  'turn/start', 'user/message', 'web/deepseek-search-llm-request', 'workspace/changes',
])

/** Format v4's installed vocabulary (0.1.7-rc.2). */
export const V4_EVENT_TYPES: ReadonlySet<string> = new Set([...V3_EVENT_TYPES, 'developer/message'])

const CODE_NAMES: Readonly<Record<string, string>> = { 'tool/code-dispatch-start': 'tool/ptc-dispatch-start', 'tool/code-dispatch': 'tool/ptc-dispatch' }
const PTC_NAMES: Readonly<Record<string, string>> = { 'tool/ptc-dispatch-start': 'tool/code-dispatch-start', 'tool/ptc-dispatch': 'tool/code-dispatch' }
const START_KEYS = ['rootCallId', 'parentCallId', 'subCallId', 'name', 'arguments']
const SETTLE_KEYS = [...START_KEYS, 'isError', 'content']
const CONTENT_KINDS = new Set(['text', 'reasoning', 'image', 'file', 'tool-call', 'tool-result'])

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const dataOf = (event: FormatEvent): Record<string, unknown> => (isRecord(event.data) ? event.data : {})

// ---- Migrations of an rc.8 (v0) log -------------------------------------------------------------

/**
 * v1→v2 folds rc.8's streamed `assistant/chunk` events into the message (or an attempt) they
 * built; neither is an event this plugin reads, so the emulation only takes the chunks out.
 */
export function foldChunks(events: readonly FormatEvent[]): FormatEvent[] {
  return events.filter(event => event.type !== 'assistant/chunk')
}

/** v2→v3: the dispatch names, renamed; payloads unchanged, no start made up, no orphan dropped. */
export function renameDispatches<E extends FormatEvent>(events: readonly E[]): E[] {
  return events.map(event => (Object.hasOwn(CODE_NAMES, event.type) ? { ...event, type: CODE_NAMES[event.type] as string } : event))
}

/** v3→v4: a `tool/result` message holding one `tool-result` block becomes the tool-role message itself. */
export function liftToolResult<E extends FormatEvent>(event: E): E {
  const data = dataOf(event)
  const message = data.message
  if (event.type !== 'tool/result' || !isRecord(message) || message.role !== 'user') return event
  const source = message.source
  const [block, ...more] = Array.isArray(message.content) ? message.content as unknown[] : []
  if (!isRecord(source) || !isRecord(block) || more.length > 0 || block.type !== 'tool-result' || block.toolCallId !== source.callId) {
    throw new FormatRefusal(`format v3 tool/result at seq ${event.seq} requires exactly one tool-result wrapper matching its tool source`)
  }
  const lifted = {
    id: message.id,
    role: 'tool',
    source,
    toolCallId: block.toolCallId,
    content: block.content,
    ...(block.isError === undefined ? {} : { isError: block.isError }),
  }
  return { ...event, data: { ...data, message: lifted } }
}

// ---- The readers ----------------------------------------------------------------------------------

/** The wording of the dispatch relationship rules: the released v2 validator's, or v4's. */
interface Wording {
  readonly format: 'v2' | 'v4'
  changesRoot(type: string): string
  foreignParent(type: string): string
  repeats(type: string): string
  noStart(type: string): string
  mismatch(type: string): string
}

const V2_WORDING: Wording = {
  format: 'v2',
  changesRoot: type => `${type} changes its rootCallId`,
  foreignParent: type => `${type} parentCallId does not belong to rootCallId`,
  repeats: type => `${type} repeats subCallId`,
  noStart: type => `${type} has no unique start`,
  mismatch: type => `${type} does not match its start`,
}

const V4_WORDING: Wording = {
  format: 'v4',
  changesRoot: () => 'PTC dispatch changes its rootCallId',
  foreignParent: () => 'PTC parentCallId does not belong to rootCallId',
  repeats: () => 'PTC dispatch repeats subCallId',
  noStart: () => 'PTC dispatch has no unique start',
  mismatch: () => 'PTC dispatch does not match its start',
}

/**
 * The dispatch relationships, over events whose dispatches carry the names `start` and `settle`.
 * The map of sub-calls is never cleared: a sub-call id is once in the whole log.
 */
function assertDispatches(events: readonly FormatEvent[], start: string, settle: string, wording: Wording): void {
  let open = false
  const seen = new Map<string, { readonly data: Record<string, unknown>; settled: boolean }>()
  for (const event of events) {
    if (event.type === 'turn/start') open = true
    if (event.type === 'turn/end') open = false
    if (event.type !== start && event.type !== settle) continue
    if (!open) throw new FormatRefusal(`${event.type} is outside an open turn`)
    const data = dataOf(event)
    const [id, root, parent] = ['subCallId', 'rootCallId', 'parentCallId'].map((key) => {
      const value = data[key]
      if (typeof value !== 'string' || value === '') throw new FormatRefusal(`PTC ${key} requires a nonempty string`)
      return value
    }) as [string, string, string]
    const known = seen.get(id)
    if (known !== undefined && known.data.rootCallId !== root) throw new FormatRefusal(wording.changesRoot(event.type))
    if (parent !== root && seen.get(parent)?.data.rootCallId !== root) throw new FormatRefusal(wording.foreignParent(event.type))
    if (event.type === start) {
      if (known !== undefined) throw new FormatRefusal(wording.repeats(event.type))
      seen.set(id, { data, settled: false })
      continue
    }
    if (known === undefined || known.settled) throw new FormatRefusal(wording.noStart(event.type))
    if (['rootCallId', 'parentCallId', 'name', 'arguments'].some(key => !isDeepStrictEqual(known.data[key], data[key]))) {
      throw new FormatRefusal(wording.mismatch(event.type))
    }
    known.settled = true
  }
}

/** The v2→v3 admission of one dispatch's payload: exactly its keys, and content of known kinds. */
function assertDispatchPayload(event: FormatEvent): void {
  const data = dataOf(event)
  const keys = event.type.endsWith('-start') ? START_KEYS : SETTLE_KEYS
  const extra = Object.keys(data).filter(key => !keys.includes(key))
  const missing = keys.filter(key => !Object.hasOwn(data, key))
  if (extra.length > 0 || missing.length > 0) throw new FormatRefusal(`${event.type} at seq ${event.seq} has keys ${Object.keys(data).join(', ')}; it must have exactly ${keys.join(', ')}`)
  const content = data.content
  if (content !== undefined && (!Array.isArray(content) || content.some(block => !isRecord(block) || !CONTENT_KINDS.has(String(block.type))))) {
    throw new FormatRefusal(`${event.type} at seq ${event.seq} has content of an unclassified kind`)
  }
}

/**
 * Open a format v3 log (DSH 0.1.5-0.1.6): the old dispatch names are unknown, every other type
 * must be a v3 name or marked ignorable, dispatch payloads have exactly their keys, and the
 * released relationship rules run over the dispatches mapped back to the old names.
 * @throws {FormatRefusal} with the reader's words.
 */
export function assertOpensAsV3(events: readonly FormatEvent[]): void {
  for (const event of events) {
    if (event.ignorable === true) continue
    if (!V3_EVENT_TYPES.has(event.type)) throw new FormatRefusal(`format v3 contains unknown event type "${event.type}" at seq ${event.seq}`)
    if (Object.hasOwn(PTC_NAMES, event.type)) assertDispatchPayload(event)
  }
  const restored = events.map(event => (Object.hasOwn(PTC_NAMES, event.type) ? { ...event, type: PTC_NAMES[event.type] as string } : event))
  assertDispatches(restored, 'tool/code-dispatch-start', 'tool/code-dispatch', V2_WORDING)
}

/**
 * Open a format v4 log (DSH 0.1.7-0.2.1): every type must be installed-known or marked
 * ignorable, no retired syntax (old dispatch names, a `tool-result` wrapper in a dispatch's
 * content or a tool result), first-class tool results, then the relationships.
 * @throws {FormatRefusal} with the reader's words.
 */
export function assertOpensAsV4(events: readonly FormatEvent[]): void {
  for (const event of events) {
    if (event.ignorable === true) continue
    if (!V4_EVENT_TYPES.has(event.type)) throw new FormatRefusal(`format v4 contains unknown event type "${event.type}" at seq ${event.seq}`)
    const data = dataOf(event)
    const content = event.type === 'tool/result' ? (isRecord(data.message) ? data.message.content : undefined) : data.content
    if (Array.isArray(content) && content.some(block => isRecord(block) && block.type === 'tool-result')) {
      throw new FormatRefusal(`format v4 ${event.type} at seq ${event.seq} content must not contain a released tool-result wrapper`)
    }
    if (event.type === 'tool/result' && (!isRecord(data.message) || data.message.role !== 'tool' || data.message.toolCallId !== (data.message.source as { callId?: unknown } | undefined)?.callId)) {
      throw new FormatRefusal(`format v4 tool/result at seq ${event.seq} requires a tool-role message with toolCallId matching its tool source`)
    }
  }
  assertDispatches(events, 'tool/ptc-dispatch-start', 'tool/ptc-dispatch', V4_WORDING)
}

/**
 * Open a log that an rc.8 DSH wrote (format v0) as a later reader does: migrate it step by step,
 * each step's target checked before the next (v2→v3 then v3→v4).
 * @param format - the reader's own format.
 * @returns the log in that format.
 * @throws {FormatRefusal} naming the migration that refuses it.
 */
export function migrateRc8Log(events: readonly FormatEvent[], format: 3 | 4): FormatEvent[] {
  const v3 = renameDispatches(foldChunks(events))
  refusedBy('@deepseek-ai/dsh-session-format-v2-to-v3', 'v2', () => { assertOpensAsV3(v3) })
  if (format === 3) return v3
  const v4 = refusedBy('@deepseek-ai/dsh-session-format-v3-to-v4', 'v3', () => v3.map(liftToolResult))
  assertOpensAsV4(v4)
  return v4
}

function refusedBy<T>(migration: string, from: string, step: () => T): T {
  try {
    return step()
  } catch (error) {
    if (error instanceof FormatRefusal) throw new FormatRefusal(`${migration} refuses this format ${from} Session: ${error.message}`)
    throw error
  }
}
