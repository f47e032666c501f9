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
import { RecordSlot, type AgentRecords } from '../host/agent-record.ts'
import { message, type OnceLog } from '../host/report.ts'
import type { ToolIndex } from '../host/native.ts'
import type { VisibilityPolicy } from '../offer/visibility.ts'
import { IndexCache, buildCorpus } from './corpus.ts'

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

/** What the catalogs read from the live settings each time they build. */
export interface CatalogRules {
  readonly policy: () => VisibilityPolicy
  readonly ranking: () => ChoiceOf<'ranking'>
}

/** Each Agent's registered tools, refreshed at its first assembly or search of each generation. */
const REGISTERED = new RecordSlot<RegisteredTools>('registered tools')
/** The index it searched last; once its record is disposed, the index may go as soon as no other Agent holds it. */
const CATALOG = new RecordSlot<AgentCatalog>('catalog index')

export class Catalogs {
  private generation = 0
  private readonly indexes: IndexCache

  /** @param records - the Agents followed, whose indexes must stay cached. */
  constructor(
    private readonly ctx: Context,
    private readonly rules: CatalogRules,
    private readonly log: OnceLog,
    private readonly records: AgentRecords,
  ) {
    this.indexes = new IndexCache(function* keys() {
      for (const record of records.all()) {
        const catalog = record.get(CATALOG)
        if (catalog !== undefined) yield catalog.key
      }
    })
  }

  /** Everything read from the registry so far is stale. */
  invalidate(): void {
    this.generation += 1
  }

  /**
   * The registered tools of an Agent's scope (the global one without an Agent) at the current
   * generation.
   * @param assemblyTools - the tools of the assembly being filtered, when it lists them all.
   */
  registeredFor(agent: Agent | undefined, assemblyTools?: readonly ToolSchema[]): RegisteredTools {
    const generation = this.generation
    const record = this.records.of(agent)
    const kept = record?.get(REGISTERED)
    if (kept?.generation === generation) return kept
    let tools: readonly ToolSchema[]
    try {
      tools = assemblyTools ?? this.ctx.tools.schemas(agent)
    } catch (error) {
      // `schemas()` projects every tool and fails as a whole on one non-JSON schema. The list the
      // last assembly carried is still a faithful catalog; without one there is nothing to search.
      if (kept === undefined) throw new Error(`tool_search: the tool catalog cannot be read: ${message(error)}`)
      this.ctx.logger.warn(`dsh-tool-search: keeping the previous catalog: ${message(error)}`)
      return kept
    }
    const registered = { generation, tools, names: new Set(tools.map(tool => tool.name)) }
    record?.set(REGISTERED, registered)
    return registered
  }

  /** The Agent's index for the current catalog generation, kept for it. */
  async catalogOf(agent: Agent | undefined, registered: RegisteredTools): Promise<AgentCatalog> {
    const record = this.records.of(agent)
    const kept = record?.get(CATALOG)
    const catalog = kept?.generation === registered.generation ? kept : await this.build(registered)
    record?.set(CATALOG, catalog)
    return catalog
  }

  private async build(registered: RegisteredTools): Promise<AgentCatalog> {
    const policy = this.rules.policy()
    const corpus = buildCorpus(registered.tools, name => policy.searchable(name))
    for (const name of corpus.skipped) {
      this.log.warn(`tool ${name} is left out of the search catalog: its schema is not JSON-serializable`)
    }
    const ranking = this.rules.ranking()
    const index = await this.indexes.index(corpus, ranking)
    // An oversized catalog is still searched; the index says what it left out (see
    // docs/limits.md), or that the model package could not be read and searches are lexical.
    for (const warning of index.warnings) this.log.warn(warning)
    return { generation: registered.generation, key: IndexCache.key(corpus, ranking), index }
  }
}
