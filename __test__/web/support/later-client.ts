/**
 * DSH 0.1.7's browser page, EMULATED: 0.1.7 cannot be installed here (the registry stops at
 * 0.1.0-rc.8), so the services its page offers the card are rebuilt from its public source, a fork
 * at 0.1.7-rc.2, zsagi1368/deepseek-harness-zDSH:
 *
 * - `configForms` and its `ConfigForm`s: packages/client/ui-settings/src/client/config-form.ts and
 *   config-form-types.ts @1dd6c6a308f1db1d57f6d117d673e73f00072b68. One cached form per row id;
 *   a snapshot that is `loading` until the describe mirror is read, `unavailable` where the row is
 *   not served or the page is remote (`mode: 'memory'`, which never writes), `ready` with the
 *   row's value otherwise; writes queued one at a time, each fenced by the given revision, else by
 *   a superseded write's answer, else by the snapshot's; a refused write re-reads the Host and
 *   resolves false, an accepted one folds the Host's answer into the mirror and resolves true, and
 *   a transport failure rejects. Not emulated: the check of the value against the wire schema.
 * - `remote.settings.describe()` and `.mutate(ns, ops, expectedRevision)`, positional, as the page
 *   reads them in config-form.ts above: a write answers `{ok: true, value}`, or `{ok: false, error}`
 *   with the code of the host's refusal (`settings/conflict`, `settings/rejected`). The mirror
 *   re-reads on the forwarded `settings/document-updated`:
 *   packages/client/ui-settings/src/client/index.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e.
 * - `connection` without `api`: packages/client/connection/src/client/index.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e.
 *   No `settingsScope`, no `settings.plugin.item`.
 * - The Plugin Manager's `plugins.row.config` (keyed `<package>#<row id>`, owner props
 *   `{view, form?}`, the page rendering `{view: 'page', form}` with `form = {state, mutate}` over the
 *   same shared form): packages/client/ui-plugin-manager/src/client/slot-contract.ts and
 *   PluginManagerPage.tsx @a18d8a996c0e6a0f28f0d65d21966ed46039515e.
 * - Combo serving of client bundles: packages/client/modules/src/index.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e
 *   (`prepareSource`, `buildComboScript`), in {@link comboScript}.
 *
 * Behind the remote stands the host's `settingsController` (emulated from
 * packages/api/settings-controller/src/index.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68, in
 * support/later-hosts/settings-0.1.7.ts) over whichever settings service the in-process host
 * mounts: DSH 0.1.7's `SettingsForms` (emulated in the same file) serving the row's `.volatile()`
 * Config fields by row id; or else rc.8's REAL settings service, whose `tool-search` section is
 * then served under the row id (it holds the same fields with the same validation, revision fence
 * and all-or-nothing mutate).
 */

import { Context, Service } from '@deepseek-ai/cordis'
import { settingsNamespace, type SettingsProvider } from '@deepseek-ai/dsh-settings'
import { PLUGIN_ID, SETTINGS_NAMESPACE } from '../../../plugin/contract.ts'
import type { ConfigForm, ScopeSnapshot, SettingsPathOp, ToolSearchSection } from '../../../plugin/client/host.ts'
import { RemoteError, SettingsControllerEmulation, SettingsFormsEmulation, type SettingsDescribeValue, type SettingsFormsFace, type SettingsNamespaceView } from '../../support/later-hosts/settings-0.1.7.ts'
import type { SettingsPlane, WriteRequest } from './settings-transport.ts'

/** The slots 0.1.7's Plugin Manager declares that take a plugin's configuration by key. */
export const LATER_CONFIG_SLOTS = ['plugins.row.config', 'plugins.bundle.config'] as const

type RemoteAnswer = { ok: true; value: SettingsNamespaceView } | { ok: false; error: { code: string; message: string } }

/**
 * `remote.settings` as 0.1.7's page reaches it, over the in-process host's settings controller.
 * @param access - `write`: a loopback page over a writable document; `read`: a document DSH cannot
 *   write; `memory`: a remote page, which 0.1.7 keeps off the settings plane.
 * @param rowId - the row id rc.8's section is served under; another than the plugin's own stands
 *   for a host that does not serve the plugin's row. (0.1.7's `SettingsForms` names its rows itself.)
 */
export class LaterSettingsRemote {
  /** Every `mutate` call, as `{ns, ops, expectedRevision}`. */
  readonly requests: WriteRequest[] = []
  /** Whether the host's `settings/document-updated` reaches the page. */
  follow = true
  /** Fail the next mutate calls without reaching the host (a dropped connection). */
  unreachable = 0
  private readonly listeners = new Set<() => void>()
  private readonly controller: SettingsControllerEmulation

  constructor(host: Context, readonly access: 'write' | 'read' | 'memory' = 'write', rowId: string = PLUGIN_ID) {
    this.controller = new SettingsControllerEmulation(() => servedSettings(host, rowId))
    // rc.8 sends the notice just before it commits, 0.1.7 once it has: the re-read waits a turn.
    host.on('settings/document-updated', () => {
      queueMicrotask(() => {
        if (this.follow) for (const listener of [...this.listeners]) listener()
      })
    })
  }

  /** `remote.$on('settings/document-updated', listener)`. */
  onDocumentUpdated(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  async describe(): Promise<SettingsDescribeValue> {
    await Promise.resolve()
    const described = this.controller.describe()
    return { ...described, writable: described.writable && this.access === 'write' }
  }

  async mutate(ns: string, ops: readonly SettingsPathOp[], expectedRevision: number | undefined): Promise<RemoteAnswer> {
    this.requests.push(structuredClone({ ns, ops, ...expectedRevision === undefined ? {} : { expectedRevision } }))
    await Promise.resolve()
    if (this.unreachable > 0) {
      this.unreachable -= 1
      throw new TypeError('Failed to fetch')
    }
    if (this.access !== 'write') return { ok: false, error: { code: 'settings/rejected', message: 'the settings document is read-only' } }
    try {
      return { ok: true, value: await this.controller.mutate(ns, ops, expectedRevision) }
    } catch (error) {
      if (error instanceof RemoteError) return { ok: false, error: { code: error.code, message: error.message } }
      throw error
    }
  }
}

/** The host's settings service as 0.1.7's controller reaches it (see the module comment). */
function servedSettings(host: Context, rowId: string): SettingsFormsFace | undefined {
  const service: unknown = host.get('settings')
  if (service === undefined || service instanceof SettingsFormsEmulation) return service
  return sectionAsRow(service as SettingsProvider, rowId)
}

/** rc.8's service seen as 0.1.7's: the plugin's section served as the row `rowId`, nothing else. */
function sectionAsRow(settings: SettingsProvider, rowId: string): SettingsFormsFace {
  return {
    writable: settings.writable,
    // rc.8 has no page policy: the default 0.1.7 reports for a row that set none.
    describe: options => settings.describe(options).filter(entry => entry.ns === SETTINGS_NAMESPACE).map(entry => ({ ...entry, ns: rowId, autoGenerate: true, applies: 'live' })),
    mutate: async (ns, ops, expectedRevision) => {
      if (ns !== rowId) throw new Error(`No configurable plugin entry "${ns}"`)
      await settings.mutate(settingsNamespace(SETTINGS_NAMESPACE), ops, expectedRevision)
    },
  }
}

/** The shared describe mirror every form derives from. */
class DescribeMirror {
  view: SettingsDescribeValue | undefined
  private readonly listeners = new Set<() => void>()
  private first: Promise<void> | undefined

  constructor(private readonly remote: LaterSettingsRemote) {}

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  async load(): Promise<void> {
    this.view = await this.remote.describe()
    this.publish()
  }

  ensure(): Promise<void> {
    this.first ??= this.load()
    return this.first
  }

  /** Fold a write's answer in without a read. */
  acceptView(view: SettingsNamespaceView): void {
    if (this.view === undefined) return
    this.view = { ...this.view, namespaces: this.view.namespaces.map(held => (held.ns === view.ns ? view : held)) }
    this.publish()
  }

  private publish(): void {
    for (const listener of [...this.listeners]) listener()
  }
}

/** `ConfigFormSnapshot` (0.1.7): the card's snapshot, with the row's inherited and own layers. */
type FormSnapshot = ScopeSnapshot<ToolSearchSection> & { readonly base: unknown; readonly user: unknown }

/** One row's `ConfigForm`. */
class EmulatedConfigForm implements ConfigForm<ToolSearchSection> {
  private snapshot: FormSnapshot
  private readonly listeners = new Set<() => void>()
  private tail: Promise<unknown> = Promise.resolve()
  private generation = 0
  private pendingRevision: number | undefined

  constructor(private readonly remote: LaterSettingsRemote, private readonly mirror: DescribeMirror, private readonly rowId: string, private readonly mode: 'host' | 'memory') {
    this.snapshot = { status: mode === 'host' ? 'loading' : 'unavailable', value: undefined, base: undefined, user: undefined, revision: undefined, writable: false, mode }
    if (mode === 'host') {
      mirror.subscribe(() => { this.derive() })
      this.derive()
    }
  }

  getSnapshot(): FormSnapshot {
    return this.snapshot
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => { this.listeners.delete(listener) }
  }

  set(field: string, value: unknown): Promise<boolean> {
    return this.mutate([{ op: 'set', path: [field], value }])
  }

  mutate(ops: readonly SettingsPathOp[], expectedRevision?: number): Promise<boolean> {
    if (this.mode === 'memory') return Promise.resolve(false)
    const owned = structuredClone(ops)
    const generation = ++this.generation
    const task = this.tail.then(async () => {
      const revision = expectedRevision ?? this.pendingRevision ?? this.snapshot.revision
      const answer = await this.remote.mutate(this.rowId, owned, revision)
      if (!answer.ok) {
        if (generation === this.generation) {
          this.pendingRevision = undefined
          await this.mirror.load()
        }
        return false
      }
      if (generation === this.generation) {
        this.pendingRevision = undefined
        this.mirror.acceptView(answer.value)
      } else {
        this.pendingRevision = answer.value.revision
      }
      return true
    })
    this.tail = task.then(() => undefined, () => undefined)
    return task
  }

  private derive(): void {
    const described = this.mirror.view
    if (described === undefined) return
    const view = described.namespaces.find(candidate => candidate.ns === this.rowId)
    this.snapshot = view === undefined
      ? { ...this.snapshot, status: 'unavailable', writable: described.writable }
      : { ...this.snapshot, status: 'ready', value: view.value as ToolSearchSection, base: view.base, user: view.user, revision: view.revision, writable: described.writable }
    for (const listener of [...this.listeners]) listener()
  }
}

/** The `configForms` service, emulated: see the module comment. */
export class EmulatedConfigForms extends Service {
  readonly mirror: DescribeMirror
  private readonly forms = new Map<string, EmulatedConfigForm>()

  constructor(ctx: Context, private readonly remote: LaterSettingsRemote) {
    super(ctx, 'configForms')
    this.mirror = new DescribeMirror(remote)
    ctx.effect(() => remote.onDocumentUpdated(() => { void this.mirror.load() }), 'emulated configForms: document-updated')
  }

  get(entryId: string): EmulatedConfigForm {
    let form = this.forms.get(entryId)
    if (form === undefined) {
      form = new EmulatedConfigForm(this.remote, this.mirror, entryId, this.remote.access === 'memory' ? 'memory' : 'host')
      this.forms.set(entryId, form)
      if (this.remote.access !== 'memory') void this.mirror.ensure()
    }
    return form
  }

  /** The `form` owner prop 0.1.7's Plugin Manager passes a row's configuration page. */
  pageForm(entryId: string): { readonly state: ScopeSnapshot<ToolSearchSection>; readonly mutate: ConfigForm<ToolSearchSection>['mutate'] } {
    const form = this.get(entryId)
    return { state: form.getSnapshot(), mutate: (ops, revision) => form.mutate(ops, revision) }
  }
}

/** 0.1.7's settings plane as a test drives it: the emulated remote and the forms' mirror. */
export class LaterClient implements SettingsPlane {
  constructor(readonly remote: LaterSettingsRemote, readonly forms: EmulatedConfigForms) {}

  get requests(): readonly WriteRequest[] {
    return this.remote.requests
  }

  get follow(): boolean {
    return this.remote.follow
  }

  set follow(value: boolean) {
    this.remote.follow = value
  }

  get unreachable(): number {
    return this.remote.unreachable
  }

  set unreachable(value: number) {
    this.remote.unreachable = value
  }

  load(): void {
    void this.forms.mirror.load()
  }
}

/**
 * Put 0.1.7's settings services on a page, in a plugin of their own: `configForms` over the remote,
 * and, unless the page has one already, a `connection` without `api`.
 * @returns the plugin, whose disposal takes them away, and the forms once it has started.
 */
export async function provideLaterSettings(root: Context, remote: LaterSettingsRemote, { connection = true } = {}): Promise<{ fiber: ReturnType<Context['plugin']>; client: LaterClient }> {
  let forms: EmulatedConfigForms | undefined
  const fiber = root.plugin({
    name: 'emulated 0.1.7 settings services',
    apply: (ctx: Context) => {
      forms = new EmulatedConfigForms(ctx, remote)
      if (connection) ctx.provide('connection', { isLoopback: remote.access !== 'memory', generation: 1, state: 'open' })
    },
  })
  await fiber
  return { fiber, client: new LaterClient(remote, forms!) }
}

/**
 * The combo script 0.1.7 serves for several client bundles (`/plugins/??<id>/client.js,...`): each
 * bundle without its own trailing `sourceURL` and `sourceMappingURL` comments, ending in a newline,
 * followed by `;` and a newline; then the combo's own source-map comment.
 */
export function comboScript(bundles: readonly string[], sourceMapUrl: string): string {
  const trailer = (name: string) => new RegExp(`(?:\\r?\\n)?//# ${name}=[^\\r\\n]*(?:\\r?\\n)?$`)
  const parts = bundles.map((bundle) => {
    const source = bundle.replace(trailer('sourceURL'), '').replace(trailer('sourceMappingURL'), '')
    return `${source.endsWith('\n') ? source : `${source}\n`};\n`
  })
  return `${parts.join('')}//# sourceMappingURL=${sourceMapUrl}\n`
}
