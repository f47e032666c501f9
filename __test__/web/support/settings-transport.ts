/**
 * The browser's side of DSH 0.1.0-rc.8's settings plane, over an in-process host. DSH's client half
 * (dsh-client-ui-settings) ships only as a browser loader bundle, so the card's tests drive this
 * stand-in, written to its rc.8 behaviour, against the REAL host settings service (`ctx.settings`
 * with `dsh-settings-file`: validation, revision fencing, atomic multi-op mutate, persistence):
 *
 * - a describe mirror of the namespace, re-read on `settings/document-updated` (as DSH's mirror
 *   re-reads on that event forwarded to the page) unless `follow` is off;
 * - `settings.mutate` answering as `dsh-host-apiproxy` does: the new namespace view, or
 *   `settings-conflict` / `settings-rejected` with the host's message;
 * - a scope whose `set` sends one op fenced by the mirrored revision and, when the write is
 *   refused or fails, re-reads the document and resolves anyway.
 *
 * {@link provideRc8Settings} puts it on a page as rc.8 does: `settingsScope` and `connection.api`.
 */

import type { Context } from '@deepseek-ai/cordis'
import { SettingsConflictError, settingsNamespace, type SettingsDescriptor } from '@deepseek-ai/dsh-settings'
import type { ScopeSnapshot, SettingsMutate, SettingsNamespaceView, SettingsScope, ToolSearchSection } from '../../../plugin/client/host.ts'
import { fromSettingsScope, type SettingsSource } from '../../../plugin/client/host-settings.ts'

/** One write as it crossed the wire: its namespace, its ops and the revision it was fenced by. */
export type WriteRequest = Parameters<SettingsMutate>[0]

/** What a test does to the settings plane under the page, whichever DSH's client serves it. */
export interface SettingsPlane {
  /** Every write request, in order. */
  readonly requests: readonly WriteRequest[]
  /** Whether the page hears the host's document-updated notices (and re-reads). */
  follow: boolean
  /** How many of the next write requests fail without reaching the host. */
  unreachable: number
  /** Re-read the host's settings, as the page does on a notice. */
  load(): void
}

export class SettingsTransport implements SettingsPlane {
  /** Every `settings.mutate` payload, the scope's single-op writes included. */
  readonly requests: Parameters<SettingsMutate>[0][] = []
  /** Re-read the mirror when the host announces a document change. */
  follow = true
  /** Fail the next mutate requests without reaching the host (a dropped connection). */
  unreachable = 0
  private view: SettingsNamespaceView | undefined
  private readonly listeners = new Set<() => void>()
  private snapshot: ScopeSnapshot<ToolSearchSection>
  private tail: Promise<unknown> = Promise.resolve()

  /**
   * @param access - `write`: a loopback page over a writable document; `read`: a document DSH
   *   cannot write; `memory`: a remote page, which DSH keeps off the settings plane.
   */
  constructor(private readonly ctx: Context, readonly ns: string, private readonly access: 'write' | 'read' | 'memory' = 'write') {
    this.snapshot = { status: access === 'memory' ? 'unavailable' : 'loading', value: undefined, revision: undefined, writable: false, mode: access === 'memory' ? 'memory' : 'host' }
    // The host announces the new revision just before it commits the resolved value; DSH's page
    // re-reads over the wire, after the commit, and so does this one.
    ctx.on('settings/document-updated', () => { queueMicrotask(() => { if (this.follow) this.load() }) })
    this.load()
  }

  /** Read the namespace from the host, as the mirror's `settings.describe` does. */
  load(): void {
    if (this.access === 'memory') return
    const descriptor = this.ctx.settings.describe({ redactSecrets: true }).find(entry => entry.ns === this.ns)
    if (descriptor !== undefined) this.acceptView(viewOf(descriptor))
  }

  acceptView(view: SettingsNamespaceView): void {
    this.view = view
    this.snapshot = {
      status: 'ready',
      value: view.value as ToolSearchSection,
      revision: view.revision,
      writable: this.access === 'write',
      mode: 'host',
    }
    for (const listener of [...this.listeners]) listener()
  }

  readonly mutate: SettingsMutate = async (payload) => {
    this.requests.push(structuredClone(payload))
    if (this.unreachable > 0) {
      this.unreachable -= 1
      throw new TypeError('Failed to fetch')
    }
    try {
      await this.ctx.settings.mutate(settingsNamespace(payload.ns), payload.ops, payload.expectedRevision)
    } catch (error) {
      const code = error instanceof SettingsConflictError ? 'settings-conflict' : 'settings-rejected'
      return { result: { ok: false, error: { code, message: error instanceof Error ? error.message : String(error) } } }
    }
    const descriptor = this.ctx.settings.describe({ redactSecrets: true }).find(entry => entry.ns === payload.ns)!
    return { result: { ok: true, value: viewOf(descriptor) } }
  }

  /** The scope `ctx.settingsScope.bind({namespace})` would give the card. */
  scope(): SettingsScope<ToolSearchSection> {
    return {
      getSnapshot: () => this.snapshot,
      subscribe: (listener) => {
        this.listeners.add(listener)
        return () => { this.listeners.delete(listener) }
      },
      set: (field, value) => {
        const run = this.tail.then(async () => {
          if (this.access !== 'write') return
          let answer: Awaited<ReturnType<SettingsMutate>> | undefined
          try {
            answer = await this.mutate({
              ns: this.ns,
              ops: [{ op: 'set', path: [field], value }],
              ...(this.snapshot.revision === undefined ? {} : { expectedRevision: this.snapshot.revision }),
            })
          } catch {
            answer = undefined
          }
          if (answer?.result.ok === true) this.acceptView(answer.result.value)
          else this.load()
        })
        this.tail = run.catch(() => undefined)
        return run
      },
    }
  }

  /** The card's settings source over this scope, as the module builds it on an rc.8 page. */
  source(): SettingsSource {
    return fromSettingsScope(this.scope(), () => this.mutate, (view) => { this.acceptView(view) })
  }

  /** The view as a page would have it (for checks). */
  get current(): SettingsNamespaceView | undefined {
    return this.view
  }
}

/**
 * Put rc.8's settings services on a page, in a plugin of their own: `settingsScope` over the
 * transport's namespace and `connection` with its `api`.
 * @returns the plugin, whose disposal takes them away.
 */
export function provideRc8Settings(root: Context, transport: SettingsTransport): ReturnType<Context['plugin']> {
  return root.plugin({
    name: 'emulated rc.8 settings services',
    apply: (ctx: Context) => {
      ctx.provide('settingsScope', {
        bind: ({ namespace }: { namespace: string }) => {
          if (namespace !== transport.ns) throw new Error(`settings namespace "${namespace}" is not registered`)
          return transport.scope()
        },
        describe: () => ({ acceptView: (view: SettingsNamespaceView) => { transport.acceptView(view) } }),
      })
      ctx.provide('connection', { api: { settings: { mutate: transport.mutate } } })
    },
  })
}

function viewOf(descriptor: SettingsDescriptor): SettingsNamespaceView {
  return { ns: String(descriptor.ns), value: descriptor.value, revision: descriptor.revision, user: descriptor.user }
}
