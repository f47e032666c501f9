/**
 * emulated: DSH 0.1.7's (and 0.2's) settings, generation 3, on the real rc.8 runtime. The plugin
 * runs as a real Loader row (cordis-plugin-loader 1.0.5, the loader 0.1.7 ships: zsagi1368/
 * deepseek-harness-zDSH vendor/loader/package.json@a18d8a996c0e6a0f28f0d65d21966ed46039515e), so
 * its volatile fields and `loader/volatile-update` are the loader's own. Emulated around it:
 *
 * - `settings`, the `SettingsForms` service: zDSH packages/settings/settings/src/index.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68
 *   (identical in substance at 0.2.1: kinetick-labs/KinetickHarness
 *   packages/settings/settings/src/index.ts@1503dc9c0576b5cf357718f4cca0f56c0f226a43):
 *   `configure`, `describe`, `update`, `replace`, `mutate` by row id, writes only to volatile
 *   fields and through `configEditor.edit`, and the one-time import of `$DSH_HOME/settings.yaml`
 *   once the loader settles; `settings/document-updated (ns, revision)` when a read or a write
 *   finds a row's revision moved, a refused revision as a `SettingsConflictError`. Reduced to
 *   rows whose Config is a flat object (ours is): no nested form paths, no secret redaction, no
 *   re-read on `configure` or on a config reload.
 * - `configEditor`: zDSH packages/boot/config-editor/src/index.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e.
 *   Its profile patch file is this emulation's loader row: a row's `config` is the profile's
 *   override, nothing is inherited (our bundle patch sets no config), and an edit is validated by
 *   the row's schema, then applied with `loader.update(id, {config})` (the reconcile the real
 *   editor runs after writing the file).
 * - `profileContext`: zDSH packages/boot/app-boot/src/profile-context.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e
 *   (`name`, `home`, `dir`, `patchPath`).
 * - `settingsController`, the host's half of the page's `remote.settings`: zDSH
 *   packages/api/settings-controller/src/index.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68.
 *   `describe` and `mutate` over whatever `settings` service is mounted, read with secrets
 *   redacted and projected onto the wire view field by field; a refusal raised as a `RemoteError`,
 *   `settings/conflict` for a stale revision, `settings/rejected` for any other, `gateway/internal`
 *   with no service. Not emulated: `update`, `replace`, `openSettingsDocument`, the credentials
 *   namespace, and the typert transport (a test calls the methods in process).
 */

import { existsSync } from 'node:fs'
import { readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { Context, Service, resolveConfig, type Fiber } from '@deepseek-ai/cordis'
import Loader, { type Entry } from '@deepseek-ai/cordis-plugin-loader'
import type z from '@deepseek-ai/schemastery'
import { SettingsConflictError, type SettingsNamespace } from '@deepseek-ai/dsh-settings'
import { parse } from 'yaml'

/** One path edit of a form, as `mutate` takes it. */
export type SettingsPathOp = { op: 'set'; path: readonly string[]; value: unknown } | { op: 'unset'; path: readonly string[] }

/** A served row, as `describe` gives it. */
export interface SettingsDescriptor {
  ns: string
  autoGenerate: boolean
  schema: unknown
  value: unknown
  revision: number
  base?: unknown
  user?: unknown
  applies: 'live'
  secrets?: readonly { readonly path: readonly string[]; readonly set: boolean }[]
}

/** What the settings controller needs of the mounted `settings` service. */
export interface SettingsFormsFace {
  readonly writable: boolean
  describe(options?: { redactSecrets?: boolean }): readonly SettingsDescriptor[]
  mutate(ns: string, ops: readonly SettingsPathOp[], expectedRevision?: number): Promise<void>
}

/** Only these section names are mapped to other row ids by DSH's import (the rest keep their name). */
const LEGACY_SECTION_ENTRIES: Record<string, string> = {
  'ui-developer-tools': 'ui-settings',
  'ui-onboarding': 'ui-settings-general',
  shell: 'bash-sandbox',
}

const ACTIVE = 2 // cordis 4 FiberState.ACTIVE (lib/types/fiber.d.ts), a const enum

/** What `apply` received for a volatile field: read it. */
function plain(value: unknown): unknown {
  return typeof value === 'object' && value !== null && Symbol.for('cosmokit.volatile.write') in value ? (value as { get(): unknown }).get() : value
}

function volatileKeys(schema: z): string[] {
  return Object.entries(schema.dict ?? {}).filter(([, field]) => field.meta.volatile === true).map(([key]) => key)
}

function pick(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter(key => Object.hasOwn(value, key)).map(key => [key, plain(value[key])]))
}

/** emulated `ConfigEditor` (config-editor/src/index.ts@a18d8a99): the profile's rows, edited. */
export class ConfigEditorEmulation extends Service {
  static inject = ['loader', 'profileContext']

  constructor(ctx: Context) {
    super(ctx, 'configEditor')
  }

  /** Loader rows with a unique id. */
  entries(): Entry[] {
    const all = [...this.ctx.root.loader.entries()]
    return all.filter(entry => all.filter(other => other.options.id === entry.options.id).length === 1)
  }

  configuration(): { entry: Entry; inherited: Record<string, unknown>; override: Record<string, unknown> }[] {
    return this.entries().map(entry => ({ entry, inherited: {}, override: { ...(entry.options.config ?? {}) as Record<string, unknown> } }))
  }

  /** Validate the row's next raw config by its schema, then reconcile the loader with it. */
  async edit(entry: Entry, change: (current: Record<string, unknown>, inherited: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
    if (entry.fiber?.state !== ACTIVE || entry.fiber.runtime === null) throw new Error('Configuration plugin is no longer active')
    const next = change({ ...(entry.options.config ?? {}) as Record<string, unknown> }, {})
    resolveConfig(entry.fiber.runtime, next)
    await this.ctx.root.loader.update(entry.options.id, { config: next })
    await this.ctx.root.loader.await()
  }
}

/** emulated `SettingsForms` (settings/src/index.ts@1dd6c6a3): forms of the rows' volatile fields. */
export class SettingsFormsEmulation extends Service implements SettingsFormsFace {
  static inject = ['configEditor', 'profileContext']
  private readonly presentations = new Map<Fiber, { auto?: boolean }>()
  private readonly revisions = new Map<string, { raw: string; revision: number }>()

  constructor(ctx: Context) {
    super(ctx, 'settings')
    void ctx.root.loader.await().then(() => this.importLegacyDocument()).catch((error: unknown) => { ctx.logger.error(error) })
  }

  /** Page policy of one plugin instance; throws when it has one already. */
  configure(presentation: { auto?: boolean }, owner: Fiber = this.ctx.fiber): () => void {
    if (this.presentations.has(owner)) throw new Error('Settings presentation is already configured for this plugin instance')
    const policy = { ...presentation }
    this.presentations.set(owner, policy)
    return () => {
      if (this.presentations.get(owner) === policy) this.presentations.delete(owner)
    }
  }

  /** Every profile accepts form edits. */
  get writable(): boolean {
    return true
  }

  /** Active rows with at least one volatile field; a row whose revision moved is announced. */
  describe(): SettingsDescriptor[] {
    return this.ctx.configEditor.configuration().flatMap(({ entry, inherited, override }) => {
      const schema = this.schema(entry)
      const fiber = entry.fiber
      if (schema === undefined || fiber === undefined || fiber.state !== ACTIVE) return []
      const keys = volatileKeys(schema)
      if (keys.length === 0) return []
      const raw = JSON.stringify([fiber.uid, entry.options.config ?? {}])
      const previous = this.revisions.get(entry.options.id)
      const revision = previous === undefined ? 0 : previous.revision + Number(previous.raw !== raw)
      this.revisions.set(entry.options.id, { raw, revision })
      // The ns is the row id, which 0.1.7 brands as a namespace without checking it.
      if (previous?.raw !== raw) this.ctx.emit('settings/document-updated', entry.options.id as SettingsNamespace, revision)
      return [{
        ns: entry.options.id,
        autoGenerate: this.presentations.get(fiber)?.auto ?? true,
        schema: schema.toJSON(),
        value: pick(fiber.config as Record<string, unknown>, keys),
        revision,
        base: pick(inherited, keys),
        user: pick(override, keys),
        applies: 'live' as const,
      }]
    })
  }

  update(ns: string, patch: object, expectedRevision?: number): Promise<void> {
    return this.write(ns, current => ({ ...current, ...patch }), expectedRevision)
  }

  replace(ns: string, section: object, expectedRevision?: number): Promise<void> {
    return this.write(ns, (_current, base) => ({ ...base, ...section }), expectedRevision)
  }

  mutate(ns: string, ops: readonly SettingsPathOp[], expectedRevision?: number): Promise<void> {
    return this.write(ns, (current, base) => {
      const next = { ...current }
      for (const op of ops) {
        const [key, ...rest] = op.path
        if (key === undefined || rest.length > 0) throw new TypeError('this emulation edits top-level fields only')
        if (op.op === 'set') next[key] = op.value
        else if (Object.hasOwn(base, key)) next[key] = base[key]
        else Reflect.deleteProperty(next, key)
      }
      return next
    }, expectedRevision)
  }

  private async write(ns: string, change: (current: Record<string, unknown>, base: Record<string, unknown>) => Record<string, unknown>, expected?: number): Promise<void> {
    const entry = this.ctx.configEditor.entries().find(row => row.options.id === ns)
    const schema = entry === undefined ? undefined : this.schema(entry)
    if (entry === undefined || schema === undefined) throw new Error(`No configurable plugin entry "${ns}"`)
    const keys = volatileKeys(schema)
    if (keys.length === 0) throw new Error(`Plugin entry "${ns}" has no volatile fields`)
    await this.ctx.configEditor.edit(entry, (raw, inherited) => {
      const descriptor = this.describe().find(row => row.ns === ns)
      if (descriptor === undefined) throw new Error(`Plugin entry "${ns}" is no longer configurable`)
      // rc.8's class: 0.1.7 declares one of the same shape (code, expected, actual, message).
      if (expected !== undefined && descriptor.revision !== expected) throw new SettingsConflictError(ns as SettingsNamespace, expected, descriptor.revision)
      const next = change(pick(raw, keys), pick(inherited, keys))
      for (const key of Object.keys(next)) {
        if (!keys.includes(key)) throw new Error(`Config field "${key}" is not volatile`)
      }
      const ordinary = Object.fromEntries(Object.entries(raw).filter(([key]) => !keys.includes(key)))
      return { ...ordinary, ...next }
    })
    this.describe()
  }

  /** DSH's own import of the old settings document: renamed first, then each section by name. */
  private async importLegacyDocument(): Promise<void> {
    const path = join(this.ctx.profileContext.home, 'settings.yaml')
    if (!existsSync(path)) return
    const imported = `${path}.imported`
    await rename(path, imported)
    const sections = parse(await readFile(imported, 'utf8')) as Record<string, object> | null
    for (const [section, values] of Object.entries(sections ?? {})) {
      const ns = LEGACY_SECTION_ENTRIES[section] ?? section
      try {
        await this.update(ns, values)
      } catch (error) {
        this.ctx.logger.warn('settings: section %s of %s was not imported into entry %s', section, imported, ns)
        this.ctx.logger.warn(error)
      }
    }
    this.ctx.logger.info('settings: imported %s into profile %s', imported, this.ctx.profileContext.name)
  }

  private schema(entry: Entry): z | undefined {
    const schema = entry.fiber?.runtime?.Config as z | undefined
    return schema !== undefined && 'toJSON' in schema ? schema : undefined
  }
}

/** The active profile, as 0.1.7's boot provides it. */
export interface ProfileContextEmulation {
  readonly name: string
  readonly home: string
  readonly dir: string
  readonly patchPath: string
}

declare module '@deepseek-ai/cordis' {
  interface Context {
    configEditor: ConfigEditorEmulation
    profileContext: ProfileContextEmulation
  }
}

/**
 * Mount the 0.1.7 host's settings on `ctx` (a root context with the rc.8 services): the loader,
 * the profile, the config editor and, unless `settings` is false, the settings forms.
 * @param home - the harness home (`$DSH_HOME`), where the old settings.yaml is looked for.
 */
export async function mountLaterHost(ctx: Context, home: string, settings = true): Promise<void> {
  await ctx.plugin(Loader, {})
  const dir = join(home, 'profiles', 'default')
  ctx.provide('profileContext', { name: 'default', home, dir, patchPath: join(dir, 'cordis.patch.yml') })
  await ctx.plugin(ConfigEditorEmulation)
  if (settings) await ctx.plugin(SettingsFormsEmulation)
}

/**
 * Add a plugin module as a profile row and wait for the loader to settle (its `cordis:` builtins
 * stand for the module DSH imports by package name).
 * @returns the row's loader entry.
 */
export async function addRow(ctx: Context, id: string, module: object, config: Record<string, unknown>): Promise<Entry> {
  ctx.loader.builtins[id] = module
  // A profile row brings its own id, which the loader keeps (`ensureId`); its typed `create` leaves
  // the id out, so the options go in as a variable.
  const row = { id, name: `cordis:${id}`, config }
  await ctx.loader.create(row)
  await ctx.loader.await()
  return ctx.loader.resolve(id)
}

/** The mounted settings service, as the emulation types it (the rc.8 types declare another). */
export function settingsForms(ctx: Context): SettingsFormsEmulation {
  return ctx.get('settings') as unknown as SettingsFormsEmulation
}

/** `SettingsNamespaceView` (zDSH packages/settings/settings/src/types.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e): one row on the wire. */
export interface SettingsNamespaceView {
  readonly ns: string
  readonly autoGenerate: boolean
  readonly schema: unknown
  readonly value: unknown
  readonly base?: unknown
  readonly user?: unknown
  readonly applies: 'live'
  readonly secrets: readonly { readonly path: readonly string[]; readonly set: boolean }[]
  readonly revision: number
}

/** `SettingsDescribeValue` (same file): what `remote.settings.describe()` answers. */
export interface SettingsDescribeValue {
  readonly writable: boolean
  readonly hasDocument: boolean
  readonly namespaces: readonly SettingsNamespaceView[]
}

/** A refusal as the host's remote raises it (dsh-typert-protocol's `RemoteError`: a code, a message, data). */
export class RemoteError extends Error {
  constructor(readonly code: string, message: string, readonly data: Readonly<Record<string, unknown>> = {}) {
    super(message)
    this.name = 'RemoteError'
  }
}

/**
 * emulated `SettingsController` (settings-controller/src/index.ts@1dd6c6a3): the host's
 * `remote.settings` namespace over the `settings` service `served` finds at each call.
 */
export class SettingsControllerEmulation {
  constructor(private readonly served: () => SettingsFormsFace | undefined) {}

  describe(): SettingsDescribeValue {
    const settings = this.provider()
    return { writable: settings.writable, hasDocument: true, namespaces: settings.describe({ redactSecrets: true }).map(namespaceView) }
  }

  /** Path edits of one row, answered with the row's view after them. */
  async mutate(ns: string, ops: readonly SettingsPathOp[], expectedRevision: number | undefined): Promise<SettingsNamespaceView> {
    if (ns.length === 0) throw new RemoteError('gateway/bad-request', 'settings.mutate needs a namespace')
    const settings = this.provider()
    try {
      await settings.mutate(ns, ops, expectedRevision)
    } catch (error) {
      throw refusal(ns, error)
    }
    const descriptor = settings.describe({ redactSecrets: true }).find(candidate => candidate.ns === ns)
    if (descriptor === undefined) throw new RemoteError('gateway/internal', `settings namespace "${ns}" went away after the write`)
    return namespaceView(descriptor)
  }

  private provider(): SettingsFormsFace {
    const settings = this.served()
    if (settings === undefined) throw new RemoteError('gateway/internal', 'no settings service is mounted on this host')
    return settings
  }
}

/** The descriptor's wire members, and nothing else it may carry. */
function namespaceView(descriptor: SettingsDescriptor): SettingsNamespaceView {
  return {
    ns: String(descriptor.ns),
    autoGenerate: descriptor.autoGenerate,
    schema: descriptor.schema,
    value: descriptor.value,
    ...descriptor.base === undefined ? {} : { base: descriptor.base },
    ...descriptor.user === undefined ? {} : { user: descriptor.user },
    applies: descriptor.applies,
    secrets: (descriptor.secrets ?? []).map(secret => ({ path: [...secret.path], set: secret.set })),
    revision: descriptor.revision,
  }
}

/** A stale writer is told apart by the error's shape (`code: 'SETTINGS_CONFLICT'`, both revisions), as the controller does. */
function refusal(ns: string, error: unknown): RemoteError {
  const text = error instanceof Error ? error.message : String(error)
  const { code, expected, actual } = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>
  if (code === 'SETTINGS_CONFLICT' && typeof expected === 'number' && typeof actual === 'number') return new RemoteError('settings/conflict', text, { ns, expected, actual })
  return new RemoteError('settings/rejected', text, { ns })
}
