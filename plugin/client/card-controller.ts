/**
 * The Tool Search card's state outside React: the stored settings (from the page's settings
 * source, host-settings.ts), the writes in flight and the last failed one, and the live catalog
 * (from the plugin's route), published as immutable snapshots. The card's slot entry injects
 * {@link ToolSearchCardFace}: the snapshots as a bare source in the `hooks` compartment (DSH's
 * renderer binds it to `useToolSearchCard`) and the actions as plain callbacks.
 */

import type { CatalogResponse, ScalarKey } from '../contract.ts'
import type { FetchCatalog } from './catalog-fetch.ts'
import type { HostObservable, ScopeSnapshot, ToolSearchSection } from './host.ts'
import type { SettingsSource, WriteFailure, WriteOutcome } from './host-settings.ts'
import { choiceFor, listsWithChoice, type ListField, type PolicyChoice } from './policy.ts'
import type { SettingsWriter } from './settings-writer.ts'

export interface CatalogState {
  /** The text the catalog is filtered by (the route filters, so the row cap applies after it). */
  readonly filter: string
  readonly status: 'idle' | 'loading' | 'ready' | 'failed'
  /** The last catalog read; kept while a newer read is under way or failed. */
  readonly response: CatalogResponse | undefined
  readonly error: string | undefined
}

/** What a write was about: one tool's policy, or one number or choice setting. */
export type WriteSubject = { readonly tool: string } | { readonly setting: ScalarKey }

/** The last write that did not happen. */
export interface SaveFailure {
  readonly subject: WriteSubject
  readonly reason: WriteFailure
  readonly detail: string | undefined
}

export interface CardState {
  readonly status: ScopeSnapshot<ToolSearchSection>['status']
  readonly writable: boolean
  /** The section DSH holds; undefined until it has been read. */
  readonly section: ToolSearchSection | undefined
  /** Policies being written, by tool, shown in place of the stored ones until they settle. */
  readonly pending: ReadonlyMap<string, PolicyChoice>
  /** Number and choice settings being written, by field. */
  readonly settingsPending: { readonly [K in ScalarKey]?: ToolSearchSection[K] }
  readonly failure: SaveFailure | undefined
  readonly catalog: CatalogState
}

export interface CardControllerOptions {
  /** How often an open card re-reads the catalog (selection counts move with every search). */
  readonly pollMs?: number
  /** Quiet time after the last keystroke in the filter before the catalog is re-read. */
  readonly filterDelayMs?: number
}

/** Everything the card can do, as callbacks over plain data. */
export interface ToolSearchCardActions {
  /** Keep the catalog live while the card is open; returns the function that ends it. */
  readonly activate: () => () => void
  /** Re-read the catalog now (the retry after a failed read). */
  readonly refresh: () => void
  readonly setFilter: (filter: string) => void
  readonly setPolicy: (tool: string, choice: PolicyChoice) => Promise<WriteOutcome>
  readonly addToList: (field: ListField, tool: string) => Promise<WriteOutcome>
  readonly removeFromList: (field: ListField, tool: string) => Promise<WriteOutcome>
  readonly saveSetting: <K extends ScalarKey>(field: K, value: ToolSearchSection[K]) => Promise<WriteOutcome>
  readonly dismissFailure: () => void
}

/** What the card's slot entry injects. */
export interface ToolSearchCardFace extends ToolSearchCardActions {
  readonly hooks: { readonly toolSearchCard: HostObservable<CardState> }
}

export class ToolSearchCardController {
  private state: CardState
  private readonly listeners = new Set<() => void>()
  private readonly pollMs: number
  private readonly filterDelayMs: number
  private readonly stopSettings: () => void
  private revision: number | undefined
  private openCards = 0
  private poll: ReturnType<typeof setInterval> | undefined
  private filterTimer: ReturnType<typeof setTimeout> | undefined
  private read: AbortController | undefined

  constructor(
    private readonly settings: SettingsSource,
    private readonly writer: SettingsWriter,
    private readonly fetchCatalog: FetchCatalog,
    options: CardControllerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 5_000
    this.filterDelayMs = options.filterDelayMs ?? 200
    const snapshot = settings.getSnapshot()
    this.revision = snapshot.revision
    this.state = {
      ...fromSettings(snapshot),
      pending: new Map(),
      settingsPending: {},
      failure: undefined,
      catalog: { filter: '', status: 'idle', response: undefined, error: undefined },
    }
    this.stopSettings = settings.subscribe(() => { this.onSettings() })
  }

  /** The snapshots, one stable source (the renderer caches its hook binding per source). */
  private readonly source: HostObservable<CardState> = {
    getSnapshot: () => this.state,
    subscribe: (listener) => {
      this.listeners.add(listener)
      return () => { this.listeners.delete(listener) }
    },
  }

  /** The face the card's slot entry injects. */
  inject(): ToolSearchCardFace {
    const { activate, refresh, setFilter, setPolicy, addToList, removeFromList, saveSetting, dismissFailure } = this
    return { hooks: { toolSearchCard: this.source }, activate, refresh, setFilter, setPolicy, addToList, removeFromList, saveSetting, dismissFailure }
  }

  /**
   * Keep the catalog live while a card is open: read it now and every `pollMs` while the page is
   * visible.
   * @returns the function that ends this card's interest.
   */
  readonly activate = (): (() => void) => {
    this.openCards += 1
    if (this.openCards === 1) {
      this.refresh()
      this.poll = setInterval(() => {
        if (typeof document === 'undefined' || document.visibilityState !== 'hidden') this.refresh()
      }, this.pollMs)
    }
    let active = true
    return () => {
      if (!active) return
      active = false
      this.openCards -= 1
      if (this.openCards === 0) this.quiesce()
    }
  }

  /** Re-read the catalog now (also the retry after a failed read). */
  readonly refresh = (): void => {
    this.read?.abort()
    const read = new AbortController()
    this.read = read
    // Only the first read shows as loading; later ones (polls, filters) keep what is on screen,
    // a failure included, until their answer replaces it.
    if (this.state.catalog.status === 'idle') this.updateCatalog({ status: 'loading' })
    this.fetchCatalog(this.state.catalog.filter, read.signal).then(
      (response) => {
        if (this.read === read) this.updateCatalog({ status: 'ready', response, error: undefined })
      },
      (error: unknown) => {
        if (this.read === read && !read.signal.aborted) {
          this.updateCatalog({ status: 'failed', error: error instanceof Error ? error.message : String(error) })
        }
      },
    )
  }

  readonly setFilter = (filter: string): void => {
    this.updateCatalog({ filter })
    clearTimeout(this.filterTimer)
    this.filterTimer = setTimeout(() => { if (this.openCards > 0) this.refresh() }, this.filterDelayMs)
  }

  /** Give one tool a policy: it leaves both lists and joins the chosen one, in one write. */
  readonly setPolicy = async (tool: string, choice: PolicyChoice): Promise<WriteOutcome> => {
    this.update({ pending: new Map(this.state.pending).set(tool, choice) })
    const outcome = await this.writer.write(current => listsWithChoice(current, tool, choice))
    const pending = new Map(this.state.pending)
    if (pending.get(tool) === choice) pending.delete(tool)
    this.update({ pending, failure: this.failureAfter(outcome, { tool }) })
    return outcome
  }

  /** Add a name to a list (moving it off the other one). */
  readonly addToList = (field: ListField, tool: string): Promise<WriteOutcome> => this.setPolicy(tool.trim(), choiceFor(field))

  /** Take a name off one list only. */
  readonly removeFromList = async (field: ListField, tool: string): Promise<WriteOutcome> => {
    const outcome = await this.writer.write(current => ({ [field]: current[field].filter(entry => entry.trim() !== tool) }))
    this.update({ failure: this.failureAfter(outcome, { tool }) })
    return outcome
  }

  readonly saveSetting = async <K extends ScalarKey>(field: K, value: ToolSearchSection[K]): Promise<WriteOutcome> => {
    this.update({ settingsPending: { ...this.state.settingsPending, [field]: value } })
    const outcome = await this.writer.write(() => ({ [field]: value }))
    const { [field]: _settled, ...settingsPending } = this.state.settingsPending
    this.update({ settingsPending, failure: this.failureAfter(outcome, { setting: field }) })
    return outcome
  }

  readonly dismissFailure = (): void => {
    this.update({ failure: undefined })
  }

  dispose(): void {
    this.stopSettings()
    this.openCards = 0
    this.quiesce()
    this.listeners.clear()
  }

  private quiesce(): void {
    clearInterval(this.poll)
    clearTimeout(this.filterTimer)
    this.read?.abort()
    this.read = undefined
  }

  /**
   * The failure to show after a write: this one if it failed; none if it succeeded where the shown
   * failure had failed; otherwise the shown one, which an unrelated success does not undo.
   */
  private failureAfter(outcome: WriteOutcome, subject: WriteSubject): SaveFailure | undefined {
    if (!outcome.ok) return { subject, reason: outcome.reason, detail: outcome.detail }
    const shown = this.state.failure
    return shown !== undefined && sameSubject(shown.subject, subject) ? undefined : shown
  }

  private onSettings(): void {
    const snapshot = this.settings.getSnapshot()
    this.update(fromSettings(snapshot))
    // Policies in the catalog follow the lists, whichever page or file changed them.
    if (snapshot.revision !== this.revision) {
      this.revision = snapshot.revision
      if (this.openCards > 0) this.refresh()
    }
  }

  private updateCatalog(change: Partial<CatalogState>): void {
    this.update({ catalog: { ...this.state.catalog, ...change } })
  }

  private update(change: Partial<CardState>): void {
    this.state = { ...this.state, ...change }
    for (const listener of [...this.listeners]) listener()
  }
}

function sameSubject(a: WriteSubject, b: WriteSubject): boolean {
  return 'tool' in a ? 'tool' in b && a.tool === b.tool : 'setting' in b && a.setting === b.setting
}

function fromSettings(snapshot: ScopeSnapshot<ToolSearchSection>): Pick<CardState, 'status' | 'writable' | 'section'> {
  return { status: snapshot.status, writable: snapshot.writable, section: snapshot.value }
}
