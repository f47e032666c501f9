/**
 * What one Agent's request offers, in estimated tokens (token-estimate.ts), against what offering
 * every registered tool would cost, and how often the offered tools changed: on DeepSeek's API
 * the tools are rendered before the conversation, so each change after the first request bills
 * the whole conversation again uncached. The web card shows it per live Agent.
 */

import type { PromptAssembly } from '@deepseek-ai/dsh-system-prompt'
import { CALL_TOOL_NAME, TOOL_SEARCH_NAME } from '../contract.ts'
import type { AgentState, RegisteredTools } from '../selection/agent-state.ts'
import { SDK_SECTION_NAME } from './sdk.ts'
import { estimateTokens, estimateToolTokens } from './token-estimate.ts'

/**
 * Record what a request offers on the Agent's state. The whole catalog is weighed once per
 * catalog generation, the offered part again only when it changed.
 * @param full - the assembly before filtering: every registered tool.
 * @param offered - the assembly the request is sent with.
 */
export function weighRequest(state: AgentState, registered: RegisteredTools, full: PromptAssembly, offered: PromptAssembly): void {
  const key = `${offered.tools.map(tool => tool.name).join('\n')}\n${sdkText(offered)}`
  const previous = state.weight
  const allTokens = previous?.generation === registered.generation ? previous.allTokens : weigh(full, name => name !== TOOL_SEARCH_NAME && name !== CALL_TOOL_NAME)
  const same = previous?.key === key
  state.weight = {
    offeredTokens: same ? previous.offeredTokens : weigh(offered, () => true),
    allTokens,
    changes: (previous?.changes ?? 0) + (previous === undefined || same ? 0 : 1),
    key,
    generation: registered.generation,
  }
}

function weigh(assembly: PromptAssembly, counts: (name: string) => boolean): number {
  let tokens = estimateTokens(sdkText(assembly))
  for (const tool of assembly.tools) if (counts(tool.name)) tokens += estimateToolTokens(tool)
  return tokens
}

function sdkText(assembly: PromptAssembly): string {
  return assembly.sections.find(section => section.name === SDK_SECTION_NAME)?.text ?? ''
}
