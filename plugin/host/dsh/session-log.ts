/**
 * A session's log as each DSH generation lets a plugin read it and write to it.
 *
 * Reading. DSH 0.1.0-rc.8 and 0.1.1 give `session.events`; from 0.1.2 that getter is gone and
 * `snapshotEvents()` gives the same frozen array, the inherited prefix of a fork included
 * (deprecated for DSH's own new code, still present through 0.2.1). Both are read alike.
 *
 * Writing. A plugin has one way to put a log-only record in a session that every reader admits: a
 * dispatch pair, a start and then its settle, inside the open turn. rc.8 to 0.1.3 (formats v0 to
 * v2) spell it `tool/code-dispatch-start` / `tool/code-dispatch`; from 0.1.5 (format v3) it is
 * `tool/ptc-dispatch-start` / `tool/ptc-dispatch`, and a log holding the old spelling is refused
 * when it is next opened. DSH checks no event type when it is appended, only when the log is
 * loaded, so the spelling is taken from the vocabulary the running DSH's loader admits,
 * `KNOWN_SESSION_EVENT_TYPES`. The v3 and v4 readers also refuse a settle without a start that
 * has the same ids, name and arguments, and a sub-call id seen before anywhere in the log, a
 * fork's inherited prefix included (docs/dsh-versions.md, "Session log", names the source files).
 */

import { KNOWN_SESSION_EVENT_TYPES, type Session } from '@deepseek-ai/dsh-session'
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import { CODE_DISPATCH_EVENT, CODE_DISPATCH_START_EVENT, PTC_DISPATCH_EVENT, PTC_DISPATCH_START_EVENT } from '../../contract.ts'

/** The two read APIs a session has had; one of them is there. */
interface EventReader {
  readonly events?: readonly unknown[]
  snapshotEvents?(): readonly unknown[]
}

/**
 * Every event of a session, from seq 0 (a fork's inherited prefix included), as the running DSH
 * offers them.
 * @throws when the session offers neither API: the caller starts the Agent empty and says so.
 */
export function sessionEvents(session: Session): readonly unknown[] {
  const reader = session as unknown as EventReader
  if (typeof reader.snapshotEvents === 'function') return reader.snapshotEvents()
  if (Array.isArray(reader.events)) return reader.events
  throw new Error('this DSH\'s sessions offer neither events nor snapshotEvents(), so the log cannot be read')
}

/** The start and settle event names of a dispatch pair. */
export interface DispatchDialect {
  readonly start: string
  readonly settle: string
}

const CODE: DispatchDialect = { start: CODE_DISPATCH_START_EVENT, settle: CODE_DISPATCH_EVENT }
const PTC: DispatchDialect = { start: PTC_DISPATCH_START_EVENT, settle: PTC_DISPATCH_EVENT }

/**
 * The dispatch spelling a DSH whose loader admits `known` reads back: `ptc` where it knows
 * `tool/ptc-dispatch`, else `code`.
 * @throws when it admits neither pair whole: anything written would make the log unloadable.
 */
export function dispatchDialect(known: ReadonlySet<string> = KNOWN_SESSION_EVENT_TYPES): DispatchDialect {
  const dialect = known.has(PTC.settle) ? PTC : CODE
  if (!known.has(dialect.start) || !known.has(dialect.settle)) {
    throw new Error(`this DSH's session log admits neither ${CODE.start}/${CODE.settle} nor ${PTC.start}/${PTC.settle}, so no selection record can be written`)
  }
  return dialect
}

/** A log-only call: what a dispatch pair records. */
export interface LoggedCall {
  /** Its root call id, which is also its parent's: no `run_code` call stands above it. */
  readonly root: string
  readonly name: string
  /** JSON: the start and the settle carry the same value, which the readers compare deeply. */
  readonly arguments: Readonly<Record<string, unknown>>
  readonly isError: boolean
  /** Text blocks only (format v4 refuses a `tool-result` wrapper in a dispatch's content). */
  readonly content: readonly ContentBlock[]
}

/** `append` as every generation types it, without rc.8's closed map of event names. */
interface LogWriter {
  append(type: string, data: Readonly<Record<string, unknown>>): unknown
}

/**
 * Append one call as a start and its settle, in the spelling the running DSH reads back. The
 * session must have an open turn. The sub-call id is `<root>:<seq of the start>`: a seq is never
 * reused in a log, and a fork's own events come after every seq it inherited, so the id is unique
 * across the whole log, and never seen under another root.
 * @param dialect - from {@link dispatchDialect}.
 */
export function appendLoggedCall(session: Session, call: LoggedCall, dialect: DispatchDialect = dispatchDialect()): void {
  const writer = session as unknown as LogWriter
  const ids = { rootCallId: call.root, parentCallId: call.root, subCallId: `${call.root}:${session.seq}` }
  writer.append(dialect.start, { ...ids, name: call.name, arguments: call.arguments })
  writer.append(dialect.settle, { ...ids, name: call.name, arguments: call.arguments, isError: call.isError, content: call.content })
}
