/**
 * DSH's settings, generation by generation: the one place that knows how the host's settings
 * service changed. Which generation runs is read from what the mounted service offers, never from
 * a version string, and nothing here imports a value from `@deepseek-ai/dsh-settings` (its
 * module exports changed under every generation).
 *
 * - Generation 1, DSH 0.1.0-rc.8 to 0.1.1: `ctx.settings.register(ns, schema, {base})` and the
 *   scope's `watch`, wired as rc.8's `installSettingsSection` wires them (installed
 *   `@deepseek-ai/dsh-settings@0.1.0-rc.8` lib/index.js, `installSettingsSection`; deepseek-ai/
 *   deepseek-harness packages/settings/settings/src/index.ts@dsh-v0.1.1-rc.2). That function
 *   is not exported from 0.1.2 on, so we do its seven steps ourselves.
 * - Generation 2, 0.1.2 to 0.1.6: `ctx.settings.installSection(owner, ns, schema, entry, hooks)`
 *   with a plain string namespace (zsagi1368/deepseek-harness-zDSH
 *   packages/settings/settings/README.md@d128b28263d4c08149e95791922006e0b20a6e38, and its
 *   caller packages/shell/bash-local/src/index.ts@85e854eadfe808b1d9b9df7e55e210747c8b8dc6).
 * - Generation 3, 0.1.7 and 0.2: no sections. The row's `.volatile()` Config fields are the
 *   settings, edited by row id through `ctx.settings.update` and committed into the running
 *   plugin by the loader (`loader/volatile-update`); `configure({auto: false})` says the plugin
 *   draws its own card (zDSH packages/settings/settings/src/index.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68;
 *   Kinetick packages/settings/settings/src/index.ts@1503dc9c0576b5cf357718f4cca0f56c0f226a43
 *   for 0.2.1). A user's old section is carried into the row by `legacy-settings.ts`.
 */

import type { Context } from '@deepseek-ai/cordis'
import type z from '@deepseek-ai/schemastery'
import { message } from '../report.ts'
import { carryLegacySection, type FormsService, type LegacySection } from './legacy-settings.ts'

export type { FormsService, LegacySection } from './legacy-settings.ts'

/** Which settings API the mounted service offers. */
export type SettingsGeneration = 'register' | 'installSection' | 'forms'

/**
 * A `.volatile()` Config field as `apply` receives it: a frozen reference whose `get()` reads the
 * value the loader last committed (cosmokit 1.8.5 `Volatile<T>`, built by schemastery 3.18.4).
 */
export interface Live<T> {
  get(): T
}

/**
 * How cosmokit marks a volatile reference; a registered symbol, so it holds across duplicate
 * copies of cosmokit (cosmokit 1.8.5 lib `isVolatile`).
 */
const VOLATILE_MARK = Symbol.for('cosmokit.volatile.write')

/** Whether a config value is a volatile reference rather than the value itself. */
export function isLive(value: unknown): value is Live<unknown> {
  return typeof value === 'object' && value !== null && VOLATILE_MARK in value
}

/** A config value, read through its reference when it is one. */
export function liveValue<T>(value: T | Live<T>): T {
  return isLive(value) ? value.get() : value
}

/**
 * `schema.volatile()` where the schemastery that builds the Config has it (3.18.4, which DSH
 * 0.1.7 ships and a fresh rc.8 install resolves), else the schema as it is: an rc.8 installed
 * before 3.18.4 was published has no `.volatile()`, and its fields stay plain.
 */
export function volatileField(schema: z): z {
  // Typed as optional: the schemastery a host resolves may predate it.
  const maybe = schema as { volatile?: () => z }
  return typeof maybe.volatile === 'function' ? maybe.volatile() : schema
}

/**
 * Call `listener` when the loader commits new values into this plugin's volatile fields: a row
 * edit that changed only them (cordis-plugin-loader 1.0.5, `Entry._commitVolatile`, which sends
 * `loader/volatile-update` to the owning fiber alone, after the references hold the new values).
 */
export function onVolatileUpdate(ctx: Context, listener: () => void): void {
  // The event is declared by the loader's types, which the plugin does not import.
  const events = ctx as unknown as { on(name: string, listener: () => void): unknown }
  events.on('loader/volatile-update', listener)
}

/** The generation a settings service belongs to, from the methods it has. */
export function settingsGeneration(service: unknown): SettingsGeneration | undefined {
  // Generation 2 still has `register` (README@d128b282), so `installSection` is asked first;
  // generation 1 has `update` too, so `update` alone means generation 3.
  if (hasMethod(service, 'installSection')) return 'installSection'
  if (hasMethod(service, 'register')) return 'register'
  if (hasMethod(service, 'update')) return 'forms'
  return undefined
}

/** What a section service (generations 1 and 2) tells the plugin. */
export interface SectionHooks<T> {
  /** The section took over: `current` reads the resolved settings from now on. */
  attach(current: () => T): void
  /** The section is gone (the service unloaded): the row config governs again. */
  detach(): void
  /** The settings may have changed: read them again. */
  onChange(): void
}

/** What the plugin gives {@link installSettings}. */
export interface SettingsWiring<T> {
  /** The section's name under generations 1 and 2 (`tool-search`). */
  readonly namespace: string
  /**
   * The section's schema with plain fields: generations 1 and 2 resolve `schema(base + section)`
   * and clone the base, and a volatile reference passed through either throws.
   */
  readonly schema: z<T>
  /** The row config's values now, plain: the section's base layer. */
  readonly row: () => T
  readonly section: SectionHooks<T>
  /** The old section generation 3 carries into the row. */
  readonly legacy: LegacySection
}

/** The hooks a section service calls (rc.8's `SettingsSectionHooks`, less `validate`). */
interface ServiceHooks<T> {
  setSource(current: () => T): void
  onChange(): void
}

/** The settings service, as generation 1 offers it (dsh-settings@0.1.0-rc.8 `SettingsProvider`). */
interface RegisterService {
  register<T>(ns: string, schema: z<T>, options: { base: T }): { get(): T; watch(callback: () => void): () => void }
}

/** The settings service, as generation 2 offers it (README@d128b282, bash-local@85e854ea). */
interface InstallSectionService {
  installSection<T>(owner: Context, ns: string, schema: z<T>, entry: T, hooks: ServiceHooks<T>): void
}

/**
 * Wire the plugin's settings to whatever settings service is mounted, whenever it is: with none
 * the row config governs; one that comes later is picked up, and one that goes away hands back.
 */
export function installSettings<T>(ctx: Context, wiring: SettingsWiring<T>): void {
  ctx.inject(['settings'], (sctx) => {
    // Read as the property the injection declares, so the service sees this child as its caller
    // (its registrations ride the child's lifetime, as in rc.8's own wiring).
    const service = (sctx as unknown as { settings: unknown }).settings
    switch (settingsGeneration(service)) {
      case 'register': return attachSection(ctx, sctx, wiring, hooks => registerSection(sctx, service as RegisterService, wiring, hooks))
      case 'installSection': return attachSection(ctx, sctx, wiring, hooks => (service as InstallSectionService).installSection(ctx, wiring.namespace, wiring.schema, wiring.row(), hooks))
      case 'forms': return attachForms(ctx, sctx, service as FormsService, wiring.legacy)
      case undefined: ctx.logger.warn('dsh-tool-search: the settings service offers none of register, installSection or update; the row config alone sets the plugin up')
    }
  })
}

/**
 * Generations 1 and 2: a section layered over the row. Whatever the service's own wiring does
 * when it goes away, the section stops counting once this child context (which needs the
 * service) is disposed.
 */
function attachSection<T>(ctx: Context, sctx: Context, wiring: SettingsWiring<T>, install: (hooks: ServiceHooks<T>) => void): void {
  let attached = true
  sctx.effect(() => () => {
    attached = false
    if (!unloading(ctx)) wiring.section.detach()
  })
  install({
    setSource: (current) => { if (attached) wiring.section.attach(current) },
    onChange: () => { if (!unloading(ctx)) wiring.section.onChange() },
  })
}

/** rc.8's `installSettingsSection`, from step 2 (step 1, the injection, is {@link installSettings}'s). */
function registerSection<T>(sctx: Context, service: RegisterService, wiring: SettingsWiring<T>, hooks: ServiceHooks<T>): void {
  const scope = service.register(wiring.namespace, wiring.schema, { base: wiring.row() })
  hooks.setSource(() => scope.get())
  hooks.onChange()
  const unwatch = scope.watch(() => hooks.onChange())
  sctx.effect(() => unwatch)
}

/**
 * Generation 3: the row's volatile fields are the settings, so nothing is registered; the card is
 * ours, so the generated page is turned off; and a user's old section is carried into the row.
 */
function attachForms(ctx: Context, sctx: Context, service: FormsService, legacy: LegacySection): void {
  if (typeof service.configure === 'function') sctx.effect(() => service.configure?.({ auto: false }, ctx.fiber) ?? (() => {}))
  let alive = true
  sctx.effect(() => () => { alive = false })
  carryLegacySection(ctx, service, legacy, () => alive).catch((error: unknown) => {
    ctx.logger.warn(`dsh-tool-search: carrying the old ${legacy.name}: settings over failed: ${message(error)}`)
  })
}

/**
 * Whether the plugin itself is unloading, not only losing the service: a section that lets go
 * then must not hand back to a plugin being torn down. Values of cordis 4's `FiberState`
 * (DISPOSED 4, UNLOADING 5, lib/types/fiber.d.ts), a const enum with no runtime object.
 */
function unloading(ctx: Context): boolean {
  const state = ctx.fiber.state as number
  return state === 4 || state === 5
}

function hasMethod(value: unknown, name: string): boolean {
  return typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[name] === 'function'
}
