/**
 * Which tools each Agent's scope registers, and the native index that ranks them, kept per
 * catalog generation. The generation is bumped by every registry change, prompt-provider change
 * and change of the settings that decide what is searchable or how it is ranked; anything read
 * from the registry is valid for one generation, and indexes outlive it when the corpus content
 * did not change (see {@link IndexCache}).
 */

import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { ToolSchema } from '@deepseek-ai/dsh-llm'
import type { ChoiceOf } from '../contract.ts'
import { message, type OnceLog } from '../host/report.ts'
import type { VisibilityPolicy } from '../offer/visibility.ts'
import type { AgentCatalog, AgentState, RegisteredTools } from '../selection/agent-state.ts'
import { IndexCache, buildCorpus } from './corpus.ts'

/** What the catalogs read from the live settings each time they build. */
export interface CatalogRules {
  readonly policy: () => VisibilityPolicy
  readonly ranking: () => ChoiceOf<'ranking'>
}

export class Catalogs {
  private generation = 0
  private readonly indexes: IndexCache

  /** @param inUse - the Agent states whose indexes must stay cached. */
  constructor(
    private readonly ctx: Context,
    private readonly rules: CatalogRules,
    private readonly log: OnceLog,
    inUse: () => Iterable<AgentState>,
  ) {
    this.indexes = new IndexCache(function* keys() {
      for (const state of inUse()) if (state.catalog !== undefined) yield state.catalog.key
    })
  }

  /** Everything read from the registry so far is stale. */
  invalidate(): void {
    this.generation += 1
  }

  /**
   * The registered tools of an Agent's scope at the current generation.
   * @param assemblyTools - the tools of the assembly being filtered, when it lists them all.
   */
  registeredFor(agent: Agent | undefined, state: AgentState | undefined, assemblyTools?: readonly ToolSchema[]): RegisteredTools {
    const generation = this.generation
    if (state?.registered?.generation === generation) return state.registered
    let tools: readonly ToolSchema[]
    try {
      tools = assemblyTools ?? this.ctx.tools.schemas(agent)
    } catch (error) {
      // `schemas()` projects every tool and fails as a whole on one non-JSON schema. The list the
      // last assembly carried is still a faithful catalog; without one there is nothing to search.
      if (state?.registered === undefined) throw new Error(`tool_search: the tool catalog cannot be read: ${message(error)}`)
      this.ctx.logger.warn(`dsh-tool-search: keeping the previous catalog: ${message(error)}`)
      return state.registered
    }
    const registered = { generation, tools, names: new Set(tools.map(tool => tool.name)) }
    if (state !== undefined) state.registered = registered
    return registered
  }

  /** The Agent's index for the current catalog generation, kept on its state. */
  catalogOf(state: AgentState | undefined, registered: RegisteredTools): AgentCatalog {
    const catalog = state?.catalog?.generation === registered.generation ? state.catalog : this.build(registered)
    if (state !== undefined) state.catalog = catalog
    return catalog
  }

  private build(registered: RegisteredTools): AgentCatalog {
    const policy = this.rules.policy()
    const corpus = buildCorpus(registered.tools, name => policy.searchable(name))
    for (const name of corpus.skipped) {
      this.log.warn(`tool ${name} is left out of the search catalog: its schema is not JSON-serializable`)
    }
    const ranking = this.rules.ranking()
    const index = this.indexes.index(corpus, ranking)
    // An oversized catalog is still searched; the index says what it left out (see
    // docs/limits.md), or that the model package could not be read and searches are lexical.
    for (const warning of index.warnings) this.log.warn(warning)
    return { generation: registered.generation, key: IndexCache.key(corpus, ranking), index }
  }
}
