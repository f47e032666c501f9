/**
 * What the plugin remembers about one live Agent.
 */

import type { ToolSchema } from '@deepseek-ai/dsh-llm'
import { AgentDeferral } from '../offer/defer.ts'
import type { CatalogOutline, SessionSelection, ToolIndex } from '../host/native.ts'
import type { VisibilityPolicy } from '../offer/visibility.ts'

/** The tools one Agent's scope registers, as read at one catalog generation. */
export interface RegisteredTools {
  readonly generation: number
  readonly tools: readonly ToolSchema[]
  readonly names: ReadonlySet<string>
}

/** The index an Agent searched last, valid while the catalog generation is unchanged. */
export interface AgentCatalog {
  readonly generation: number
  /** Key of its index (`IndexCache.key`: ranking and corpus content), so unused shared indexes can be dropped. */
  readonly key: string
  readonly index: ToolIndex
}

/** The outline of an Agent's deferred tools, for one catalog and one set of rules. */
export interface AgentOutline {
  readonly key: string
  readonly policy: VisibilityPolicy
  readonly data: CatalogOutline
  /** The text appended to `tool_search`'s description ('' when nothing is deferred). */
  readonly text: string
}

/** Where a selection came from: the model's own search, or a prefetch from the user's message. */
export type SelectionOrigin = 'search' | 'prefetch'

/** How an Agent's requests present tools (DSH's `tools` row mode), read from its last assembly. */
export type Presentation = 'native' | 'code' | 'both'

/** What the Agent's last request offered (see offer/weight.ts), for the web card. */
export interface OfferedWeight {
  /** What the offered schemas (and Code Mode SDK) are estimated to cost, in tokens. */
  readonly offeredTokens: number
  /** What offering every registered tool would cost instead. */
  readonly allTokens: number
  /** How often the offered tools changed after the Agent's first request: each change ends the cached prefix. */
  readonly changes: number
  /** The offered tools (and SDK text) the numbers are for. */
  readonly key: string
  /** The catalog generation `allTokens` was weighed at. */
  readonly generation: number
}

/**
 * One Agent's selection and caches. The selection grows with every search; settings can hide a
 * selected tool (neverSearch) without the Agent forgetting it, and only an eviction under
 * `maxSelected` takes tools out of it (see eviction.ts).
 */
export class AgentState {
  private readonly chosen: Set<string>
  private readonly fetched: Set<string>
  private readonly evicted: Set<string>
  /** Registered tools, refreshed at the first assembly or search of each generation. */
  registered: RegisteredTools | undefined
  catalog: AgentCatalog | undefined
  outline: AgentOutline | undefined
  /** Last rendered Code Mode SDK and the inputs it was rendered from. */
  sdk: { readonly key: string; readonly text: string } | undefined
  /** Whether its requests defer tools this turn (the `defer` setting). */
  readonly deferral = new AgentDeferral()
  /** The turn its last claimed message belongs to (`agent/inbox/claimed`); a new one starts a turn. */
  turn: number | undefined
  /** How its last request presented tools; undefined before its first. */
  presentation: Presentation | undefined
  /** The `tool:<name>` guidance sections of its last assembly, by tool name, before filtering. */
  toolSections: ReadonlyMap<string, string> = new Map()
  /** Tools a prefetch loaded under stable loading whose definitions the step's messages still owe. */
  prefetchedDefinitions: string[] = []
  /** What its last request offered; undefined before its first. */
  weight: OfferedWeight | undefined

  /**
   * @param replayed - the selection rebuilt from the Agent's session log: which of it a prefetch
   *   selected, and the tools an eviction took out of it that nothing has selected since.
   */
  constructor(replayed: SessionSelection) {
    this.chosen = new Set(replayed.selected)
    this.fetched = new Set(replayed.prefetched)
    this.evicted = new Set(replayed.dropped)
  }

  get selected(): ReadonlySet<string> {
    return this.chosen
  }

  /** The selected names that a prefetch selected first. */
  get prefetched(): ReadonlySet<string> {
    return this.fetched
  }

  /** Tools an eviction dropped; calling one brings it back. */
  get dropped(): ReadonlySet<string> {
    return this.evicted
  }

  /** Add the names a successful `tool_search` result, or a selection record, selected. */
  select(names: Iterable<string>, origin: SelectionOrigin = 'search'): void {
    for (const name of names) {
      this.evicted.delete(name)
      if (this.chosen.has(name)) continue
      this.chosen.add(name)
      if (origin === 'prefetch') this.fetched.add(name)
    }
  }

  /** Take the names an eviction drops out of the selection. */
  deselect(names: Iterable<string>): void {
    for (const name of names) {
      this.fetched.delete(name)
      if (this.chosen.delete(name)) this.evicted.add(name)
    }
  }
}
