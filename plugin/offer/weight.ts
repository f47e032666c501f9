/**
 * What one Agent's request offers, in estimated tokens (token-estimate.ts), against what offering
 * every registered tool would cost, and how often the offered tools changed: on DeepSeek's API
 * the tools are rendered before the conversation, so each change after the first request bills
 * the whole conversation again uncached. The web card shows it per live Agent.
 */

import type { PromptAssembly } from '@deepseek-ai/dsh-system-prompt'
import { CALL_TOOL_NAME, TOOL_SEARCH_NAME } from '../contract.ts'
import { RecordSlot, type AgentRecord } from '../host/agent-record.ts'
import type { RegisteredTools } from '../search/catalogs.ts'
import { SDK_SECTION_NAME } from './sdk.ts'
import { estimateTokens, estimateToolTokens } from './token-estimate.ts'

/** What an Agent's last request offered, for the web card. */
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

/** What the Agent's last request offered. */
const LAST = new RecordSlot<OfferedWeight>('offered weight')

/** The Agent's last request's weight; undefined before its first. */
export function weightOf(record: AgentRecord): OfferedWeight | undefined {
  return record.get(LAST)
}

/**
 * Record what a request of the Agent offers. The whole catalog is weighed once per catalog
 * generation, the offered part again only when it changed.
 * @param full - the assembly before filtering: every registered tool.
 * @param offered - the assembly the request is sent with.
 */
export function weighOffered(record: AgentRecord, registered: RegisteredTools, full: PromptAssembly, offered: PromptAssembly): void {
  const key = `${offered.tools.map(tool => tool.name).join('\n')}\n${sdkText(offered)}`
  const previous = record.get(LAST)
  const allTokens = previous?.generation === registered.generation ? previous.allTokens : weigh(full, name => name !== TOOL_SEARCH_NAME && name !== CALL_TOOL_NAME)
  const same = previous?.key === key
  record.set(LAST, {
    offeredTokens: same ? previous.offeredTokens : weigh(offered, () => true),
    allTokens,
    changes: (previous?.changes ?? 0) + (previous === undefined || same ? 0 : 1),
    key,
    generation: registered.generation,
  })
}

function weigh(assembly: PromptAssembly, counts: (name: string) => boolean): number {
  let tokens = estimateTokens(sdkText(assembly))
  for (const tool of assembly.tools) if (counts(tool.name)) tokens += estimateToolTokens(tool)
  return tokens
}

function sdkText(assembly: PromptAssembly): string {
  return assembly.sections.find(section => section.name === SDK_SECTION_NAME)?.text ?? ''
}
