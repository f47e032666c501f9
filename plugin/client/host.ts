/**
 * The slices of DSH's browser services this module uses, typed structurally: DSH's client type
 * packages (`dsh-client-ui-slots` and the services that merge into it) are not all published,
 * and a client bundle may not value-import another plugin anyway. The rc.8 shapes are copied from
 * DSH 0.1.0-rc.8's declarations (`dsh-client-runtime/client`, `dsh-client-ui-settings/client`,
 * `dsh-client-connection/client`, `dsh-client-locale/client`, `dsh-client-ui-slots`); the 0.1.7
 * ones (`ConfigForm`, the Plugin Manager's owner props) from zsagi1368/deepseek-harness-zDSH at
 * 0.1.7-rc.2 (packages/client/ui-settings/src/client/config-form-types.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68,
 * packages/client/ui-plugin-manager/src/client/slot-contract.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e).
 * Which of them a page offers differs by release; host-settings.ts and card-slots.ts find out.
 */

import type { ComponentType } from 'react'
import type { SettingsSection } from '../contract.ts'

/**
 * The plugin's settings as the page reads and writes them: the `tool-search` section of
 * `$DSH_HOME/settings.yaml` (DSH 0.1.0 to 0.1.6), or the form DSH 0.1.7+ serves for the plugin's row.
 */
export type ToolSearchSection = SettingsSection

/**
 * `SettingsScopeSnapshot<T>` (dsh-client-runtime, rc.8); DSH 0.1.7's `ConfigFormSnapshot<T>` has
 * the same members and adds `base` and `user`.
 */
export interface ScopeSnapshot<T> {
  readonly status: 'loading' | 'ready' | 'unavailable'
  readonly value: T | undefined
  readonly revision: number | undefined
  readonly writable: boolean
  readonly mode: 'host' | 'memory'
}

/**
 * `SettingsScope<T>` (dsh-client-runtime). `set` resolves even when the Host refuses the value:
 * the scope then re-reads the document, so the snapshot afterwards is the Host's truth.
 */
export interface SettingsScope<T> {
  getSnapshot(): ScopeSnapshot<T>
  subscribe(listener: () => void): () => void
  set(field: string, value: unknown): Promise<void>
}

/** One path edit of the `settings.mutate` RPC (rc.8) and of `ConfigForm.mutate` (0.1.7). */
export interface SettingsPathOp {
  readonly op: 'set'
  readonly path: readonly string[]
  readonly value: unknown
}

/** The namespace view a settings write answers with (opaque here: it is folded back as is). */
export type SettingsNamespaceView = { readonly ns: string; readonly revision: number } & Record<string, unknown>

/** `settings.mutate` over `ctx.connection.api` (dsh-client-connection). */
export type SettingsMutate = (payload: {
  ns: string
  ops: readonly SettingsPathOp[]
  expectedRevision?: number
}) => Promise<{
  result:
    | { ok: true; value: SettingsNamespaceView }
    | { ok: false; error: { code: string; message: string } }
}>

/**
 * `ctx.remote.settings` (DSH 0.1.7's page: config-form.ts reads it; reported to answer the same
 * from 0.1.2-rc.1 on): positional arguments, and an envelope instead of a thrown refusal.
 */
export interface RemoteSettings {
  mutate(ns: string, ops: readonly SettingsPathOp[], expectedRevision: number | undefined): Promise<
    | { ok: true; value: SettingsNamespaceView }
    | { ok: false; error: { code: string; message: string } }
  >
}

/** The part of `ctx.settingsScope` (dsh-client-ui-settings) this module uses. */
export interface SettingsScopeBinder {
  bind<T>(spec: { namespace: string }): SettingsScope<T>
  /** The shared describe mirror; `acceptView` folds a write's answer in without a wire read. */
  describe(): { acceptView(view: SettingsNamespaceView): void }
}

/** `Translate` (dsh-client-ui-slots): a dictionary key with optional `{name}` params. */
export type Translate = (key: string, params?: Record<string, unknown>) => string

/** `HostObservable<T>` (dsh-client-ui-slots): a bare source the renderer binds to a hook. */
export interface HostObservable<T> {
  getSnapshot(): T
  subscribe(listener: () => void): () => void
}

/** `SnapshotSelectorHook<T>` (dsh-client-ui-slots): what a component calls to read a source. */
export type SnapshotSelectorHook<T> = <S>(select: (snapshot: T) => S, equal?: (a: S, b: S) => boolean) => S

/**
 * `InjectFace<I>` (dsh-client-ui-slots): what a component receives for an entry's inject face.
 * Each source `name` of the reserved `hooks` compartment arrives as the selector hook
 * `use<Name>`, bound by DSH's renderer; every other member passes through as it is.
 */
export type InjectFace<I extends object> = I extends { hooks: infer H extends Record<string, HostObservable<unknown>> }
  ? Omit<I, 'hooks'> & { readonly [N in keyof H & string as `use${Capitalize<N>}`]: SnapshotSelectorHook<H[N] extends HostObservable<infer T> ? T : never> }
  : I

/**
 * `ConfigForm<T>` (DSH 0.1.7's `ctx.configForms.get(rowId)`): the row's settings form. `mutate`
 * applies its ops together or not at all and resolves whether the Host stored them; on a refusal
 * the form re-reads the Host first. A transport failure rejects.
 */
export interface ConfigForm<T> {
  getSnapshot(): ScopeSnapshot<T>
  subscribe(listener: () => void): () => void
  mutate(ops: readonly SettingsPathOp[], expectedRevision?: number): Promise<boolean>
}

/** The part of `ctx.configForms` (DSH 0.1.7's dsh-client-ui-settings) this module uses. */
export interface ConfigForms {
  /** The shared form of one profile row, by the row's id. */
  get<T>(entryId: string): ConfigForm<T>
}

/** The connection service: on rc.8 it carries the `api` client; 0.1.7's has none. */
export interface ConnectionHandle {
  readonly api?: { readonly settings?: { readonly mutate?: SettingsMutate } }
}

/** Owner props of the Plugin Manager's `plugins.row.config` entries (DSH 0.1.6+). */
export interface RowConfigProps {
  /** `summary`: a one-liner standing in for a missing row description; `page`: the whole form. */
  readonly view: 'summary' | 'page'
  /** The page's own handle on the same shared form; the card reads the form through configForms instead. */
  readonly form?: unknown
}

/** The browser services this module may find, by name; none is declared in `inject`. */
export interface OptionalServices {
  readonly configForms: ConfigForms
  readonly settingsScope: SettingsScopeBinder
  readonly connection: ConnectionHandle
  readonly 'remote.settings': RemoteSettings
}

/**
 * The browser-side cordis context with the services the module's `inject` lists. Every other
 * service is read with `get`, which answers undefined where the page has none (reading an
 * undeclared service as a property throws), or awaited with `inject`, which runs its callback
 * in a child context while the services exist and ends it when one goes.
 */
export interface ClientContext {
  effect(execute: () => () => void, label?: string): void
  get<K extends keyof OptionalServices>(name: K): OptionalServices[K] | undefined
  inject(deps: readonly (keyof OptionalServices)[], callback: (ctx: ClientContext) => void): unknown
  readonly locale: {
    register(ns: string, dicts: Record<'en' | 'zh', Record<string, string>>): () => void
  }
  readonly slots: {
    inject(slot: string, callback: () => () => void): () => void
    register<I extends object, O extends object>(options: {
      name: string
      key: string
      locale: string
      inject: () => I
    }, component: ComponentType<InjectFace<I> & O & { readonly t: Translate }>): () => void
  }
}
