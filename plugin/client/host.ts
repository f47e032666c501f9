/**
 * The slices of DSH's browser services this module uses, typed structurally: DSH's client type
 * packages (`dsh-client-ui-slots` and the services that merge into it) are not all published,
 * and a client bundle may not value-import another plugin anyway. Each shape is copied from DSH
 * 0.1.0-rc.8's declarations (`dsh-client-runtime/client`, `dsh-client-ui-settings/client`,
 * `dsh-client-connection/client`, `dsh-client-locale/client`, `dsh-client-ui-slots`).
 */

import type { ComponentType } from 'react'
import type { SettingsSection } from '../contract.ts'

/** The section this plugin stores in `$DSH_HOME/settings.yaml` under `tool-search:`. */
export type ToolSearchSection = SettingsSection

/** `SettingsScopeSnapshot<T>` (dsh-client-runtime). */
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

/** One path edit of the `settings.mutate` RPC. */
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

/** The browser-side cordis context, with the services listed in the module's `inject`. */
export interface ClientContext {
  effect(execute: () => () => void, label?: string): void
  get(name: 'connection'): { api: { settings: { mutate: SettingsMutate } } }
  readonly settingsScope: SettingsScopeBinder
  readonly locale: {
    register(ns: string, dicts: Record<'en' | 'zh', Record<string, string>>): () => void
  }
  readonly slots: {
    inject(slot: string, callback: () => () => void): () => void
    register<I extends object>(options: {
      name: string
      key: string
      locale: string
      inject: () => I
    }, component: ComponentType<InjectFace<I> & { readonly t: Translate }>): () => void
  }
}
