/**
 * Reading tool outcomes back from an Agent's session log.
 */

import type { Agent } from '@deepseek-ai/dsh-agent'

export interface LoggedResult {
  readonly isError: boolean
  /** The text blocks of the result, joined. */
  readonly text: string
}

/** The logged `tool/result` of one model-direct call. */
export function loggedResult(agent: Agent, callId: string): LoggedResult {
  for (const event of agent.session.events) {
    if (event.type !== 'tool/result') continue
    const block = event.data.message.content[0]
    if (block.toolCallId !== callId) continue
    return { isError: block.isError === true, text: textOf(block.content) }
  }
  throw new Error(`no tool/result for ${callId} in ${agent.id}`)
}

/** The text blocks of the logged `tool/result` of one model-direct call, one string each. */
export function loggedBlocks(agent: Agent, callId: string): string[] {
  for (const event of agent.session.events) {
    if (event.type !== 'tool/result') continue
    const block = event.data.message.content[0]
    if (block.toolCallId === callId) return block.content.flatMap(part => (part.type === 'text' ? [part.text] : []))
  }
  throw new Error(`no tool/result for ${callId} in ${agent.id}`)
}

/** The logged settle (`tool/code-dispatch`, from DSH 0.1.5 `tool/ptc-dispatch`) of one `run_code` sub-call. */
export function loggedDispatch(agent: Agent, subCallId: string): LoggedResult {
  for (const event of agent.session.events as readonly { type: string; data: unknown }[]) {
    const data = event.data as { subCallId?: unknown; isError: boolean; content: readonly { type: string; text?: string }[] }
    if ((event.type !== 'tool/code-dispatch' && event.type !== 'tool/ptc-dispatch') || data.subCallId !== subCallId) continue
    return { isError: data.isError, text: textOf(data.content) }
  }
  throw new Error(`no dispatch settle for ${subCallId} in ${agent.id}`)
}

/** The tool names a logged `tool_search` payload returned. */
export function foundNames(result: LoggedResult): string[] {
  const payload = JSON.parse(result.text) as { tools: { name: string }[] }
  return payload.tools.map(tool => tool.name)
}

function textOf(content: readonly { type: string; text?: string }[]): string {
  return content.flatMap(block => (block.type === 'text' && block.text !== undefined ? [block.text] : [])).join('')
}
