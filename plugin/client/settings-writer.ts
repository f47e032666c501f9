/**
 * Writes to the `tool-search` settings namespace, one at a time.
 *
 * A policy change touches one list, except a move between alwaysVisible and neverSearch, which
 * touches both. DSH's settings scope writes one field per request, so two `set` calls would be two
 * writes: the first could land and the second fail, leaving the tool on both lists or on neither.
 * A change of one field therefore goes through the scope's `set`; a change of several goes out as
 * ONE `settings.mutate` request carrying one op per field and the revision the page read. The Host
 * applies the ops to the section together, validates the result, and persists it or nothing, and it
 * refuses the request if the namespace moved past that revision; the answer is folded into the
 * shared settings mirror exactly as the scope folds its own writes.
 *
 * Each write is planned from the section as it stands when its turn comes, after every earlier
 * write has settled, so quick successive edits never overwrite one another with stale lists.
 */

import type { SettingsMutate, SettingsNamespaceView, SettingsScope, ToolSearchSection } from './host.ts'

/** The fields a write sets; fields equal to the stored value are not written. */
export type SectionChange = Partial<Record<keyof ToolSearchSection, unknown>>

/** Why a write did not happen. */
export type WriteFailure =
  | 'read-only' // no writable settings document behind this page
  | 'refused' // the Host answered and did not store it
  | 'conflict' // the section changed elsewhere since the page read it
  | 'unreachable' // no answer from the Host

export type WriteOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: WriteFailure; readonly detail?: string }

const OK: WriteOutcome = { ok: true }

export class SettingsWriter {
  private tail: Promise<unknown> = Promise.resolve()

  /**
   * @param namespace - the settings namespace (`tool-search`).
   * @param scope - the page's scope over that namespace.
   * @param mutate - the `settings.mutate` RPC.
   * @param fold - puts a write's answer into the shared mirror the scope derives from.
   */
  constructor(
    private readonly namespace: string,
    private readonly scope: SettingsScope<ToolSearchSection>,
    private readonly mutate: SettingsMutate,
    private readonly fold: (view: SettingsNamespaceView) => void,
  ) {}

  /**
   * Queue one write.
   * @param plan - the fields to set, computed from the section stored when the write runs.
   * @returns whether the Host now holds the planned values.
   */
  write(plan: (current: ToolSearchSection) => SectionChange): Promise<WriteOutcome> {
    const run = this.tail.then(() => this.apply(plan))
    this.tail = run.catch(() => undefined)
    return run
  }

  private async apply(plan: (current: ToolSearchSection) => SectionChange): Promise<WriteOutcome> {
    const snapshot = this.scope.getSnapshot()
    const current = snapshot.value
    if (snapshot.status !== 'ready' || current === undefined || !snapshot.writable) return { ok: false, reason: 'read-only' }
    const fields = Object.entries(plan(current)).filter(([field, value]) => !sameJson(current[field as keyof ToolSearchSection], value))
    if (fields.length === 0) return OK
    if (fields.length === 1) {
      const [field, value] = fields[0]!
      // The scope resolves whether or not the Host stored the value, re-reading the document when
      // it did not; what the snapshot holds afterwards tells which.
      await this.scope.set(field, value)
      return sameJson(this.scope.getSnapshot().value?.[field as keyof ToolSearchSection], value) ? OK : { ok: false, reason: 'refused' }
    }
    let response: Awaited<ReturnType<SettingsMutate>>
    try {
      response = await this.mutate({
        ns: this.namespace,
        ops: fields.map(([field, value]) => ({ op: 'set', path: [field], value })),
        ...(snapshot.revision === undefined ? {} : { expectedRevision: snapshot.revision }),
      })
    } catch (error) {
      return { ok: false, reason: 'unreachable', detail: error instanceof Error ? error.message : String(error) }
    }
    if (!response.result.ok) {
      const { code, message } = response.result.error
      return { ok: false, reason: code === 'settings-conflict' ? 'conflict' : 'refused', detail: message }
    }
    this.fold(response.result.value)
    return OK
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
