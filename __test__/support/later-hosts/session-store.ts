/**
 * Emulated: the session store of DSH 0.1.5-0.1.6 (format v3) or 0.1.7-0.2.1 (format v4), on the
 * real rc.8 store and its JSONL persistence. Sources: the readers in session-format.ts, and
 * zsagi1368/deepseek-harness-zDSH packages/session/session-format-catalog/src/generated.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68
 * (a stored log is migrated to the current format and checked before it is restored, with the
 * installed `KNOWN_SESSION_EVENT_TYPES`; a refusal leaves the file unchanged); docs/dsh-versions.md,
 * "Session log", says what the emulation shows.
 *
 * Two parts:
 * - the vocabulary: `KNOWN_SESSION_EVENT_TYPES`, rc.8's own `Set` (read by rc.8's loader and by
 *   the plugin alike), holds the later format's names while the host is open: the ptc dispatch
 *   names and not the code ones. rc.8's agent loop underneath still streams `assistant/chunk`
 *   events into the log (a later DSH folds them into the message), so that name stays too;
 * - the load path: a stored log is read through the later reader before rc.8 restores it.
 *   A log this host wrote is checked as it is; one an rc.8 DSH wrote (`writtenBy: 'rc.8'`) is
 *   migrated first. rc.8's `Session` then holds it with the dispatch names migrated and
 *   `tool/result` as rc.8 writes it (rc.8 refuses any other shape at restore): format v4's
 *   first-class tool results are what the plugin sees through the later API's view
 *   (session-api.ts with {@link v4View}).
 */

import { KNOWN_SESSION_EVENT_TYPES, type Session, type SessionId } from '@deepseek-ai/dsh-session'
import { SessionFormatUnsupportedError } from '@deepseek-ai/dsh-session-persistence'
import JsonlSessionPersistence from '@deepseek-ai/dsh-session-persistence-jsonl'
import type { HostReshaping } from '../harness.ts'
import {
  FormatRefusal, V3_EVENT_TYPES, V4_EVENT_TYPES, assertOpensAsV3, assertOpensAsV4, foldChunks, liftToolResult, migrateRc8Log, renameDispatches, type FormatEvent,
} from './session-format.ts'

export type LaterFormat = 3 | 4

/** Who wrote the logs a store opens: this later host, or an rc.8 DSH (then migrated). */
export type Writer = 'this host' | 'rc.8'

/** How the later API shows a format v4 session: tool results first-class. */
export const v4View = (event: Session['events'][number]): Session['events'][number] =>
  liftToolResult(event as FormatEvent) as unknown as Session['events'][number]

/**
 * A stored log as the later reader opens it.
 * @returns the events rc.8 restores: with the dispatch names migrated.
 * @throws {FormatRefusal} as the reader refuses it.
 */
export function openStored(events: readonly FormatEvent[], format: LaterFormat, writtenBy: Writer): FormatEvent[] {
  if (writtenBy === 'rc.8') migrateRc8Log(events, format)
  else if (format === 3) assertOpensAsV3(foldChunks(events))
  else assertOpensAsV4(foldChunks(events).map(liftToolResult))
  return renameDispatches(events)
}

/** The store's persistence: rc.8's JSONL files, read through the later reader. */
export function laterPersistence(format: LaterFormat, writtenBy: Writer): typeof JsonlSessionPersistence {
  return class LaterSessionStore extends JsonlSessionPersistence {
    override async loadStored(id: SessionId, signal?: AbortSignal): ReturnType<JsonlSessionPersistence['loadStored']> {
      const stored = await super.loadStored(id, signal)
      if (stored === undefined) return stored
      try {
        return { ...stored, events: openStored(stored.events, format, writtenBy) as typeof stored.events }
      } catch (error) {
        if (!(error instanceof FormatRefusal)) throw error
        const path = this.locate(stored.meta).path
        throw new SessionFormatUnsupportedError(`${error.message}; source artifact remains unchanged (raw log: ${path}) [emulated DSH ${format === 3 ? '0.1.5' : '0.1.7'} reader]`, { kind: 'jsonl', path })
      }
    }
  }
}

/**
 * The reshaping: the later vocabulary while the host is open, and its store in place of rc.8's
 * JSONL persistence.
 */
export function laterSessionStore(format: LaterFormat, writtenBy: Writer = 'this host'): HostReshaping {
  const later = format === 3 ? V3_EVENT_TYPES : V4_EVENT_TYPES
  return {
    persistence: laterPersistence(format, writtenBy),
    install() {
      const known = KNOWN_SESSION_EVENT_TYPES as Set<string>
      const rc8 = [...known]
      known.clear()
      for (const type of [...later, 'assistant/chunk']) known.add(type)
      return () => {
        known.clear()
        for (const type of rc8) known.add(type)
      }
    },
  }
}
