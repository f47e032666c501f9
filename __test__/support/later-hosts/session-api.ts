/**
 * Emulated: the `Session` read API of DSH 0.1.2-alpha.4 and later, on the real rc.8 `Session`.
 * Source: zsagi1368/deepseek-harness-zDSH packages/core/session/src/index.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e
 * (0.1.7-rc.2; the same members in kinetick-labs/KinetickHarness
 * packages/core/session/src/index.ts@7523ee098993547b71ab71f724d658e9365388db, 0.2.1-alpha.1),
 * and for alpha.4 a fork's merge note, jsjm1986/CoHarness
 * .agents/notes/implemented/architecture/2026-09-03-selective-upstream-alpha4-alpha5-sync.md@dd530cc351472f57b705e71b08ba030d75255013
 * (docs/dsh-versions.md, "Session log").
 *
 * There is no `events` getter: `seq` (rc.8 has it already), `eventAt(seq)`, `snapshotEvents(from,
 * to)` (a frozen array from seq 0, a fork's inherited prefix included), `ownEvents()` (without
 * that prefix), `isOwnSeq(seq)` and `inheritedEventCount` take its place. rc.8's own packages
 * still read `events` underneath, so the getter is taken away from this plugin's code only: read
 * from a file under `plugin/`, it gives what a later DSH gives, `undefined`.
 */

import { fileURLToPath } from 'node:url'
import { Session } from '@deepseek-ai/dsh-session'
import type { HostReshaping } from '../harness.ts'

/** Where the plugin's code is: a read of `events` from there is the plugin's. */
const PLUGIN_DIR = fileURLToPath(new URL('../../../plugin/', import.meta.url))

/** How a later host's events look through the API (format v4 lifts tool results): by default as stored. */
export type EventView = (event: Session['events'][number]) => Session['events'][number]

const calledFromPlugin = (): boolean => (new Error().stack ?? '').split('\n').slice(2, 4).some(frame => frame.includes(PLUGIN_DIR))

/**
 * The reshaping: `Session` without `events` for the plugin, with the later read API.
 * @param view - what each event looks like through the later API.
 */
export function laterSessionApi(view: EventView = event => event): HostReshaping {
  return {
    install() {
      const prototype = Session.prototype as unknown as Record<string, unknown>
      if (Object.hasOwn(prototype, 'snapshotEvents')) throw new Error('an emulated later Session API is installed already; close its harness first')
      const stored = Object.getOwnPropertyDescriptor(Session.prototype, 'events')
      if (stored?.get === undefined) throw new Error('rc.8\'s Session.events getter is not where the emulation expects it')
      const all = (session: Session): Session['events'] => stored.get?.call(session) as Session['events']
      const inherited = (session: Session): number => session.header.seedLength ?? 0
      const snapshot = (session: Session, from = 0, to = session.seq): Session['events'] => Object.freeze(all(session).slice(from, to).map(view))
      Object.defineProperty(Session.prototype, 'events', {
        configurable: true,
        get(this: Session) { return calledFromPlugin() ? undefined : all(this) },
      })
      Object.defineProperties(Session.prototype, {
        inheritedEventCount: { configurable: true, get(this: Session) { return inherited(this) } },
        snapshotEvents: { configurable: true, value(this: Session, from?: number, to?: number) { return snapshot(this, from, to) } },
        eventAt: { configurable: true, value(this: Session, seq: number) { return snapshot(this, seq, seq + 1)[0] } },
        ownEvents: { configurable: true, value(this: Session) { return snapshot(this, inherited(this)) } },
        isOwnSeq: { configurable: true, value(this: Session, seq: number) { return seq >= inherited(this) && seq < this.seq } },
      })
      return () => {
        for (const name of ['inheritedEventCount', 'snapshotEvents', 'eventAt', 'ownEvents', 'isOwnSeq']) delete prototype[name]
        Object.defineProperty(Session.prototype, 'events', stored as PropertyDescriptor)
      }
    },
  }
}
