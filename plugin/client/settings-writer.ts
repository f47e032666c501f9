/**
 * Writes to the plugin's settings, one at a time.
 *
 * A policy change touches one list, except a move between alwaysVisible and neverSearch, which
 * touches both; the fields a change touches go to the page's settings source together, fenced by
 * the revision they were planned from, so the Host stores all of them or none (host-settings.ts).
 *
 * Each write is planned from the settings as they stand when its turn comes, after every earlier
 * write has settled, so quick successive edits never overwrite one another with stale lists.
 */

import type { ToolSearchSection } from './host.ts'
import { READ_ONLY, WRITTEN, sameValue, type SettingsSource, type WriteOutcome } from './host-settings.ts'

/** The fields a write sets; fields equal to the stored value are not written. */
export type SectionChange = Partial<Record<keyof ToolSearchSection, unknown>>

export class SettingsWriter {
  private tail: Promise<unknown> = Promise.resolve()

  /** @param source - the page's settings, whichever service DSH offers them through. */
  constructor(private readonly source: SettingsSource) {}

  /**
   * Queue one write.
   * @param plan - the fields to set, computed from the settings stored when the write runs.
   * @returns whether the Host now holds the planned values.
   */
  write(plan: (current: ToolSearchSection) => SectionChange): Promise<WriteOutcome> {
    const run = this.tail.then(() => this.apply(plan))
    this.tail = run.catch(() => undefined)
    return run
  }

  private async apply(plan: (current: ToolSearchSection) => SectionChange): Promise<WriteOutcome> {
    const snapshot = this.source.getSnapshot()
    const current = snapshot.value
    if (snapshot.status !== 'ready' || current === undefined || !snapshot.writable) return READ_ONLY
    const fields = Object.entries(plan(current)).filter(([field, value]) => !sameValue(current[field as keyof ToolSearchSection], value))
    if (fields.length === 0) return WRITTEN
    return this.source.write(fields, snapshot.revision)
  }
}
