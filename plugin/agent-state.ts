/**
 * What the plugin remembers about one live Agent.
 */

import type { ToolSchema } from '@deepseek-ai/dsh-llm'
import type { CatalogOutline, SessionSelection, ToolIndex } from './native.ts'
import type { VisibilityPolicy } from './visibility.ts'

/** The tools one Agent's scope registers, as read at one catalog generation. */
export interface RegisteredTools {
  readonly generation: number
  readonly tools: readonly ToolSchema[]
  readonly names: ReadonlySet<string>
}

/** The index an Agent searched last, valid while the catalog generation is unchanged. */
export interface AgentCatalog {
  readonly generation: number
  /** Content key of the corpus (see `Corpus.key`), so unused shared indexes can be dropped. */
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

/**
 * One Agent's selection and caches. The selection only grows while the Agent lives: settings can
 * hide a selected tool (neverSearch), but never make the Agent forget it.
 */
export class AgentState {
  private readonly chosen: Set<string>
  private readonly fetched: Set<string>
  /** Registered tools, refreshed at the first assembly or search of each generation. */
  registered: RegisteredTools | undefined
  catalog: AgentCatalog | undefined
  outline: AgentOutline | undefined
  /** Last rendered Code Mode SDK and the inputs it was rendered from. */
  sdk: { readonly key: string; readonly text: string } | undefined

  /** @param replayed - the selection rebuilt from the Agent's session log. */
  constructor(replayed: SessionSelection) {
    this.chosen = new Set(replayed.selected)
    this.fetched = new Set(replayed.prefetched)
  }

  get selected(): ReadonlySet<string> {
    return this.chosen
  }

  /** The selected names that a prefetch selected first. */
  get prefetched(): ReadonlySet<string> {
    return this.fetched
  }

  /** Add the names a successful `tool_search` result, or a prefetch record, selected. */
  select(names: Iterable<string>, origin: SelectionOrigin = 'search'): void {
    for (const name of names) {
      if (this.chosen.has(name)) continue
      this.chosen.add(name)
      if (origin === 'prefetch') this.fetched.add(name)
    }
  }
}
