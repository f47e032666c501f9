/**
 * Emulated: the later DSH lines a session meets, each as the reshapings of the rc.8 packages that
 * make it (see each file for its sources). Tests name the line in their titles and say
 * "emulated" wherever they report a result.
 */

import type { HostReshaping } from '../harness.ts'
import { laterPtcTools } from './ptc-tools.ts'
import { laterSessionApi } from './session-api.ts'
import { laterSessionStore, v4View, type Writer } from './session-store.ts'

export interface LaterHost {
  /** The DSH line, as a test title says it. */
  readonly name: string
  readonly reshape: readonly HostReshaping[]
}

/** DSH 0.1.2-alpha.4 to 0.1.3 (format v2): the later Session API; rc.8's vocabulary and Code Mode. */
export function dsh013(): LaterHost {
  return { name: 'DSH 0.1.3 (emulated)', reshape: [laterSessionApi()] }
}

/**
 * DSH 0.1.5 to 0.1.6 (format v3): the later Session API, the v3 vocabulary and store, PTC.
 * @param writtenBy - who wrote the logs its store opens.
 */
export function dsh015(writtenBy: Writer = 'this host'): LaterHost {
  return { name: 'DSH 0.1.5 (emulated)', reshape: [laterSessionApi(), laterSessionStore(3, writtenBy), laterPtcTools()] }
}

/**
 * DSH 0.1.7-rc.2 to 0.2.1 (format v4): as 0.1.5, with the v4 vocabulary and store, and tool
 * results first-class through the Session API.
 * @param writtenBy - who wrote the logs its store opens.
 */
export function dsh017(writtenBy: Writer = 'this host'): LaterHost {
  return { name: 'DSH 0.1.7 (emulated)', reshape: [laterSessionApi(v4View), laterSessionStore(4, writtenBy), laterPtcTools()] }
}
