/**
 * What the plugin remembers about one live Agent.
 */

import type { ToolSchema } from '@deepseek-ai/dsh-llm'
import { AgentDeferral } from './defer.ts'
import type { ToolIndex } from './native.ts'

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

/**
 * One Agent's selection and caches. The selection only grows while the Agent lives: settings can
 * hide a selected tool (neverSearch), but never make the Agent forget it.
 */
export class AgentState {
  private readonly chosen: Set<string>
  /** Registered tools, refreshed at the first assembly or search of each generation. */
  registered: RegisteredTools | undefined
  catalog: AgentCatalog | undefined
  /** Last rendered Code Mode SDK and the inputs it was rendered from. */
  sdk: { readonly key: string; readonly text: string } | undefined
  /** Whether its requests defer tools this turn (the `defer` setting). */
  readonly deferral = new AgentDeferral()

  /** @param replayed - the selection rebuilt from the Agent's session log. */
  constructor(replayed: Iterable<string>) {
    this.chosen = new Set(replayed)
  }

  get selected(): ReadonlySet<string> {
    return this.chosen
  }

  /** Add the names a successful `tool_search` result returned. */
  select(names: Iterable<string>): void {
    for (const name of names) this.chosen.add(name)
  }
}
