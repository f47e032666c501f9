/**
 * The search corpus of one scope, serialized once per catalog generation, and the native indexes
 * built from it, shared by every Agent whose corpus has the same content.
 */

import { createHash } from 'node:crypto'
import type { ToolSchema } from '@deepseek-ai/dsh-llm'
import { compareNames } from '../contract.ts'
import type { ChoiceOf } from '../contract.ts'
import { ToolIndex } from '../host/native.ts'

/** The `ranking` setting. */
export type Ranking = ChoiceOf<'ranking'>

/** One scope's searchable tools, ready for the native index. */
export interface Corpus {
  /** Content hash: two scopes with equal corpora get the same index. */
  readonly key: string
  /** JSON array of `{name, description, parameters}`, sorted by name. */
  readonly json: string
  /** Tools left out because their schema is not JSON-serializable (a BigInt, a cycle, ...). */
  readonly skipped: readonly string[]
}

/**
 * Serialize the searchable tools. Each tool is serialized on its own, so one bad schema costs
 * only that tool's searchability instead of the whole catalog. Sorting by name makes the key
 * independent of registration order and of the `toolOrder` prompt setting.
 * @param tools - the scope's registered tools.
 * @param searchable - corpus membership (neverSearch, tool_search and run_code are out).
 * @returns the corpus.
 */
export function buildCorpus(tools: Iterable<ToolSchema>, searchable: (name: string) => boolean): Corpus {
  const entries: [string, string][] = []
  const skipped: string[] = []
  const seen = new Set<string>()
  for (const tool of tools) {
    if (seen.has(tool.name) || !searchable(tool.name)) continue
    seen.add(tool.name)
    try {
      const description = typeof tool.description === 'string' ? tool.description : ''
      entries.push([tool.name, JSON.stringify({ name: tool.name, description, parameters: tool.parameters })])
    } catch {
      skipped.push(tool.name)
    }
  }
  entries.sort(([a], [b]) => compareNames(a, b))
  const json = `[${entries.map(([, entry]) => entry).join(',')}]`
  return { key: createHash('sha256').update(json).digest('base64'), json, skipped }
}

/**
 * Native indexes by corpus content and ranking. An index is built the first time a corpus is
 * searched, off JavaScript's thread (`fromJsonAsync`: a hybrid build embeds every tool with the
 * word table), and reused by every later search of an equal corpus with the same ranking,
 * whichever Agent asks, a build under way included; building a new one drops the indexes no
 * attached Agent uses any more.
 */
export class IndexCache {
  private readonly indexes = new Map<string, Promise<ToolIndex>>()

  /** @param inUse - the index keys (see {@link IndexCache.key}) attached Agents currently hold. */
  constructor(private readonly inUse: () => Iterable<string>) {}

  /** What an index is cached under: its ranking setting and its corpus's content. */
  static key(corpus: Corpus, ranking: Ranking): string {
    return `${ranking} ${corpus.key}`
  }

  /**
   * @param corpus - the corpus to search.
   * @param ranking - `auto`: the core's default (hybrid when the model package is installed);
   *   `lexical`: BM25F alone.
   * @returns its index, built now only if no equal corpus was indexed with that ranking before;
   *   a build that fails is not kept, so the next search tries again.
   */
  index(corpus: Corpus, ranking: Ranking): Promise<ToolIndex> {
    const key = IndexCache.key(corpus, ranking)
    const cached = this.indexes.get(key)
    if (cached !== undefined) return cached
    const index = ToolIndex.fromJsonAsync(corpus.json, ranking === 'lexical' ? { ranking: 'lexical' } : undefined)
    const keep = new Set(this.inUse())
    for (const held of this.indexes.keys()) if (!keep.has(held)) this.indexes.delete(held)
    this.indexes.set(key, index)
    index.catch(() => {
      if (this.indexes.get(key) === index) this.indexes.delete(key)
    })
    return index
  }
}
