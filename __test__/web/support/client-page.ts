/**
 * The parts of DSH's browser page every release has, emulated on the real cordis (the module table's
 * `@deepseek-ai/cordis`, 4.0.4 here): a root context, the `locale` service, and the `slots` service.
 * DSH's client halves ship only as browser bundles, so these follow their sources:
 *
 * - `slots`: registration into an undeclared slot throws; a keyed slot needs a `key` and takes one
 *   entry per key; `inject(slot, callback)` runs the callback (under the caller's effect) as soon as
 *   the slot is declared, and ends it when the declaration collapses. rc.8: /work/shared/DSH-web.md
 *   (checked in Chromium); 0.1.7: zsagi1368/deepseek-harness-zDSH
 *   packages/client/ui-renderer/src/client/registry.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68
 *   (`SlotRegistry.inject`) and packages/client/ui-slots/src/index.ts@30f71de5f3360c607ce8eaa5262c0cac5df7f1fb
 *   (`SlotCore.register`; that commit is not tied to a release).
 * - `locale.register(ns, {en, zh})`: rc.8 as the card uses it today; 0.1.7 in
 *   packages/client/locale/src/client/index.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68.
 *
 * The renderer is played by {@link renderEntry}: it binds the entry's inject face as DSH's does
 * (support/inject-face.ts) and passes the owner props and `t` in English.
 */

import { createElement, type ComponentType, type ReactElement } from 'react'
import { Context, Service } from '@deepseek-ai/cordis'
import { en } from '../../../plugin/client/locales.ts'
import type { HostObservable } from '../../../plugin/client/host.ts'
import { bindInjectFace } from './inject-face.ts'

/** One registration as the emulated slot ledger holds it. */
export interface SlotEntry {
  readonly key: string
  readonly locale: string | undefined
  readonly inject: () => { hooks: Record<string, HostObservable<unknown>> }
  readonly component: ComponentType<never>
}

/** The `slots` service, emulated: see the module comment for its sources. */
export class EmulatedSlots extends Service {
  private readonly declared = new Set<string>()
  private readonly ledger = new Map<string, SlotEntry[]>()
  private readonly watchers = new Map<string, Set<() => void>>()

  constructor(ctx: Context) {
    super(ctx, 'slots')
  }

  /**
   * Declare keyed slots, as the plugin that owns them does when it registers its own entry.
   * @returns the function that collapses them, unregistering what they hold.
   */
  declareKeyed(...slots: string[]): () => void {
    for (const slot of slots) {
      if (this.declared.has(slot)) throw new Error(`slot "${slot}" is already declared`)
      this.declared.add(slot)
    }
    for (const slot of slots) this.notify(slot)
    return () => {
      for (const slot of slots) {
        this.declared.delete(slot)
        this.ledger.delete(slot)
        this.notify(slot)
      }
    }
  }

  inject(slot: string, callback: () => () => void): () => void {
    const ctx = this.ctx
    let active: (() => void) | undefined
    const reconcile = () => {
      if (this.declared.has(slot) && active === undefined) active = callback()
      else if (!this.declared.has(slot) && active !== undefined) {
        active()
        active = undefined
      }
    }
    const dispose = ctx.effect(() => {
      const watchers = this.watchers.get(slot) ?? new Set()
      this.watchers.set(slot, watchers.add(reconcile))
      reconcile()
      return () => {
        watchers.delete(reconcile)
        active?.()
        active = undefined
      }
    }, `slots.inject(${slot})`)
    return () => { void dispose() }
  }

  register(options: { name: string; key?: string; locale?: string; inject: SlotEntry['inject'] }, component: ComponentType<never>): () => void {
    if (!this.declared.has(options.name)) throw new Error(`slot "${options.name}" is not declared (a parent entry's children table must declare it)`)
    if (options.key === undefined) throw new Error(`keyed slot "${options.name}" requires options.key`)
    const entries = this.ledger.get(options.name) ?? []
    if (entries.some(entry => entry.key === options.key)) throw new Error(`keyed slot "${options.name}" already has an entry for key "${options.key}"`)
    const entry: SlotEntry = { key: options.key, locale: options.locale, inject: options.inject, component }
    this.ledger.set(options.name, [...entries, entry])
    return () => {
      const held = this.ledger.get(options.name)
      if (held !== undefined) this.ledger.set(options.name, held.filter(candidate => candidate !== entry))
    }
  }

  /** The entries a slot holds, by key. */
  keys(slot: string): string[] {
    return (this.ledger.get(slot) ?? []).map(entry => entry.key)
  }

  entry(slot: string, key: string): SlotEntry | undefined {
    return this.ledger.get(slot)?.find(entry => entry.key === key)
  }

  private notify(slot: string): void {
    for (const watcher of [...this.watchers.get(slot) ?? []]) watcher()
  }
}

/** The `locale` service, emulated: the dictionaries registered, by namespace. */
export class EmulatedLocale {
  readonly namespaces = new Map<string, Record<string, Record<string, string>>>()

  register(ns: string, dicts: Record<string, Record<string, string>>): () => void {
    if (this.namespaces.has(ns)) throw new Error(`locale namespace "${ns}" already has locale "en"`)
    this.namespaces.set(ns, dicts)
    return () => { this.namespaces.delete(ns) }
  }
}

/** A page with the services every DSH release has: `slots` and `locale`. */
export interface ClientPage {
  readonly root: Context
  readonly slots: EmulatedSlots
  readonly locale: EmulatedLocale
}

export function clientPage(): ClientPage {
  const root = new Context()
  const slots = new EmulatedSlots(root)
  const locale = new EmulatedLocale()
  root.provide('locale', locale)
  return { root, slots, locale }
}

/** DSH's translate over one English dictionary, `{name}` templates included. */
export function translate(dictionary: Record<string, string>): (key: string, params?: Record<string, unknown>) => string {
  return (key, params = {}) => {
    const template = dictionary[key]
    if (template === undefined) throw new Error(`no English copy for ${key}`)
    return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]))
  }
}

/** The card's own copy in English. */
export const t = translate(en)

/**
 * What DSH's renderer draws for one entry: its component with the bound inject face, the owner
 * props and, where the entry declares a locale namespace, `t` over the English dictionary the
 * page holds for that namespace.
 */
export function renderEntry(page: ClientPage, slot: string, key: string, owner: object = {}): ReactElement {
  const entry = page.slots.entry(slot, key)
  if (entry === undefined) throw new Error(`nothing is registered in ${slot} under ${key}`)
  const dictionary = entry.locale === undefined ? undefined : page.locale.namespaces.get(entry.locale)?.['en']
  if (entry.locale !== undefined && dictionary === undefined) throw new Error(`no copy registered for locale namespace ${entry.locale}`)
  const props = { ...bindInjectFace(entry.inject()), ...owner, ...dictionary === undefined ? {} : { t: translate(dictionary) } }
  return createElement(entry.component as ComponentType<typeof props>, props)
}
