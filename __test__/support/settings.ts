/**
 * Writing the plugin's settings through DSH's settings service, as the web card or an edit of
 * settings.yaml does, and reading what a search then does with them.
 */

import { setImmediate as macrotask } from 'node:timers/promises'
import type { ToolSchema } from '@deepseek-ai/dsh-llm'
import type { Config } from '../../plugin/host/config.ts'
import { TOOL_SEARCH_SETTINGS_NAMESPACE } from '../../plugin/host/settings.ts'
import type { Harness } from './harness.ts'
import { reply, toolCall } from './scripted-model.ts'
import { foundNames, loggedResult } from './session.ts'

/** Write the `tool-search` section and let the settings service notify its watchers. */
export async function changeSettings(h: Harness, section: Partial<Config>): Promise<void> {
  await h.ctx.settings.replace(TOOL_SEARCH_SETTINGS_NAMESPACE, section)
  // Settings watchers run on a queued continuation after the write commits.
  await macrotask()
}

/** The description of `tool_search`'s `limit` among a request's tools ('' without one). */
export function limitDescription(tools: readonly ToolSchema[] | undefined): string {
  const search = tools?.find(tool => tool.name === 'tool_search')
  const parameters = search?.parameters as { properties: { limit: { description: string } } } | undefined
  return parameters?.properties.limit.description ?? ''
}

/**
 * A fresh Agent searches once without a limit, for more tools than any default: the default the
 * offered `tool_search` states, and how many tools the search found (the fixtures have four).
 */
export async function searchByDefault(h: Harness, agentId: string): Promise<{ stated: string; found: number }> {
  const { agent } = await h.agent(agentId)
  await h.run(agent, 'tools?', toolCall('c1', 'tool_search', { query: 'mcp weather github postgres mail' }), reply('ok'))
  const stated = /Default: (\d+)\./.exec(limitDescription(h.model.requests.at(-1)?.tools))?.[1] ?? 'none'
  return { stated, found: foundNames(loggedResult(agent, 'c1')).length }
}
