/**
 * The plugin's settings as the page reaches them, whichever DSH serves it.
 *
 * - DSH 0.1.7+ offers `configForms`: one shared form per profile row, addressed by the row id
 *   (`dsh-tool-search`), whose `mutate` carries several ops in one request (inside the form it goes
 *   through `ctx.remote.settings.mutate(ns, ops, revision)`) and resolves whether the Host stored them.
 * - DSH 0.1.0-rc.8 offers `settingsScope`, bound to the `tool-search` namespace, which writes one
 *   field per request; a write of several fields goes out as one `settings.mutate` request on
 *   `connection.api`, and its answer is folded into the scope's shared mirror. Reports place the
 *   end of `settingsScope` at 0.1.6 or 0.1.7-alpha.1, and of `connection.api` at 0.1.2-alpha.1,
 *   after which such a write goes over `remote.settings`; the plugin assumes none of it.
 *
 * Neither service is declared in the module's `inject`: a service listed there that a page never
 * provides keeps the module from ever running. Each is awaited with `ctx.inject` instead, and
 * {@link HostSettings} presents whichever arrived as one {@link SettingsSource}, so the card's
 * controller and writer never learn which they got.
 */

import { PLUGIN_ID, SETTINGS_NAMESPACE } from '../contract.ts'
import type { ClientContext, ConfigForm, RemoteSettings, ScopeSnapshot, SettingsMutate, SettingsNamespaceView, SettingsScope, ToolSearchSection } from './host.ts'

/** Why a write did not happen. */
export type WriteFailure =
  | 'read-only' // no writable settings document behind this page
  | 'refused' // the Host answered and did not store it
  | 'conflict' // the settings changed elsewhere since the page read them
  | 'unreachable' // no answer from the Host

export type WriteOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: WriteFailure; readonly detail?: string }

export const WRITTEN: WriteOutcome = { ok: true }
export const READ_ONLY: WriteOutcome = { ok: false, reason: 'read-only' }
const REFUSED: WriteOutcome = { ok: false, reason: 'refused' }
/** A stale write's refusal: rc.8's `settings.mutate` says `settings-conflict`, `remote.settings` `settings/conflict`. */
const CONFLICT_CODES: ReadonlySet<string> = new Set(['settings-conflict', 'settings/conflict'])

/** One field and the value to store in it. */
export type FieldWrite = readonly [field: string, value: unknown]

/** The face the card's controller and writer use, on every DSH. */
export interface SettingsSource {
  getSnapshot(): ScopeSnapshot<ToolSearchSection>
  subscribe(listener: () => void): () => void
  /**
   * Store fields together or not at all.
   * @param fields - the fields and their new values.
   * @param expectedRevision - the revision they were planned from; the Host refuses the write if
   *   the settings moved past it.
   */
  write(fields: readonly FieldWrite[], expectedRevision: number | undefined): Promise<WriteOutcome>
}

/** Whether two JSON values are the same. */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/** What the card reads while the page offers no settings service. */
const NO_SETTINGS: ScopeSnapshot<ToolSearchSection> = { status: 'unavailable', value: undefined, revision: undefined, writable: false, mode: 'memory' }

/**
 * The settings services the page offers, as one source. A page normally offers one; should a
 * release offer both, the one serving the plugin's settings wins, `configForms` first.
 */
export class HostSettings implements SettingsSource {
  private readonly offers: { readonly source: SettingsSource; readonly rank: number }[] = []
  private readonly listeners = new Set<() => void>()
  private current: SettingsSource | undefined

  /** Whether the page offers a settings service. */
  get offered(): boolean {
    return this.offers.length > 0
  }

  /**
   * Take a settings service the page offers.
   * @param source - the service, bound to the plugin's settings.
   * @param rank - its preference when several are offered (lower first).
   * @returns the function that withdraws it, when the page takes the service away.
   */
  offer(source: SettingsSource, rank: number): () => void {
    const offer = { source, rank }
    this.offers.push(offer)
    this.offers.sort((a, b) => a.rank - b.rank)
    const stop = source.subscribe(() => { this.settle() })
    this.settle()
    return () => {
      stop()
      this.offers.splice(this.offers.indexOf(offer), 1)
      this.settle()
    }
  }

  readonly getSnapshot = (): ScopeSnapshot<ToolSearchSection> => this.current?.getSnapshot() ?? NO_SETTINGS

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  write(fields: readonly FieldWrite[], expectedRevision: number | undefined): Promise<WriteOutcome> {
    return this.current === undefined ? Promise.resolve(READ_ONLY) : this.current.write(fields, expectedRevision)
  }

  private settle(): void {
    const first = (status: ScopeSnapshot<ToolSearchSection>['status']) => this.offers.find(offer => offer.source.getSnapshot().status === status)
    this.current = (first('ready') ?? first('loading') ?? this.offers[0])?.source
    for (const listener of [...this.listeners]) listener()
  }
}

/**
 * Offer `settings` each settings service as the page provides it, and withdraw it when the page
 * takes it away.
 */
export function followHostSettings(ctx: ClientContext, settings: HostSettings): void {
  ctx.inject(['configForms'], (withForms) => {
    const form = withForms.get('configForms')?.get<ToolSearchSection>(PLUGIN_ID)
    if (form !== undefined) withForms.effect(() => settings.offer(fromConfigForm(form), 0), 'dsh-tool-search: settings through configForms')
  })
  ctx.inject(['settingsScope'], (withScope) => {
    const binder = withScope.get('settingsScope')
    if (binder === undefined) return
    const scope = binder.bind<ToolSearchSection>({ namespace: SETTINGS_NAMESPACE })
    // Looked up at each write: neither is awaited. rc.8 has `connection.api`; the pages reported
    // after it (0.1.2 on) have no `api` but the `remote.settings` wire 0.1.7 writes through.
    const batch = (): SettingsMutate | undefined => {
      const api = withScope.get('connection')?.api?.settings
      if (typeof api?.mutate === 'function') return payload => api.mutate!(payload)
      const remote = withScope.get('remote.settings')
      return typeof remote?.mutate === 'function' ? overRemote(remote) : undefined
    }
    const source = fromSettingsScope(scope, batch, (view) => { binder.describe().acceptView(view) })
    withScope.effect(() => settings.offer(source, 1), 'dsh-tool-search: settings through settingsScope')
  })
}

/** DSH 0.1.7's row form as a {@link SettingsSource}. */
export function fromConfigForm(form: ConfigForm<ToolSearchSection>): SettingsSource {
  return {
    getSnapshot: () => form.getSnapshot(),
    subscribe: listener => form.subscribe(listener),
    write: async (fields, expectedRevision) => {
      let stored: boolean
      try {
        stored = await form.mutate(fields.map(([field, value]) => ({ op: 'set', path: [field], value })), expectedRevision)
      } catch (error) {
        return unreachable(error)
      }
      if (stored) return WRITTEN
      // The form says only that the Host did not store the ops, after re-reading the Host: a
      // revision past the one the write was planned from means the settings moved meanwhile.
      const now = form.getSnapshot().revision
      return expectedRevision !== undefined && now !== expectedRevision ? { ok: false, reason: 'conflict' } : REFUSED
    },
  }
}

/**
 * DSH 0.1.0-rc.8's settings scope as a {@link SettingsSource}. One field goes through the scope's
 * `set`; several go out as ONE `settings.mutate` request carrying one op per field and the
 * revision the page read, which the Host applies together, validates and persists, or refuses
 * whole, refusing it too if the namespace moved past that revision. Two `set` calls would be two
 * writes, of which the first could land and the second fail: a tool moved between the lists
 * would end up on both or on neither.
 * @param scope - the scope bound to the `tool-search` namespace.
 * @param batch - the `settings.mutate` request, where the page has one.
 * @param fold - puts a request's answer into the shared mirror the scope derives from.
 */
export function fromSettingsScope(scope: SettingsScope<ToolSearchSection>, batch: () => SettingsMutate | undefined, fold: (view: SettingsNamespaceView) => void): SettingsSource {
  return {
    getSnapshot: () => scope.getSnapshot(),
    subscribe: listener => scope.subscribe(listener),
    write: async (fields, expectedRevision) => {
      if (fields.length === 1) {
        const [field, value] = fields[0]!
        // The scope resolves whether or not the Host stored the value, re-reading the document
        // when it did not; what the snapshot holds afterwards tells which.
        try {
          await scope.set(field, value)
        } catch (error) {
          return unreachable(error)
        }
        return sameValue(scope.getSnapshot().value?.[field as keyof ToolSearchSection], value) ? WRITTEN : REFUSED
      }
      const mutate = batch()
      if (mutate === undefined) return { ok: false, reason: 'unreachable', detail: 'this page offers no settings.mutate request to write several fields at once' }
      let response: Awaited<ReturnType<SettingsMutate>>
      try {
        response = await mutate({
          ns: SETTINGS_NAMESPACE,
          ops: fields.map(([field, value]) => ({ op: 'set', path: [field], value })),
          ...(expectedRevision === undefined ? {} : { expectedRevision }),
        })
      } catch (error) {
        return unreachable(error)
      }
      if (!response.result.ok) {
        const { code, message } = response.result.error
        return { ok: false, reason: CONFLICT_CODES.has(code) ? 'conflict' : 'refused', detail: message }
      }
      fold(response.result.value)
      return WRITTEN
    },
  }
}

/** `remote.settings.mutate` in the shape of rc.8's `settings.mutate` request. */
function overRemote(remote: RemoteSettings): SettingsMutate {
  return async ({ ns, ops, expectedRevision }) => ({ result: await remote.mutate(ns, ops, expectedRevision) })
}

function unreachable(error: unknown): WriteOutcome {
  return { ok: false, reason: 'unreachable', detail: error instanceof Error ? error.message : String(error) }
}
