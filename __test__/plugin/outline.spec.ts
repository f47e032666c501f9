// The catalog outline in tool_search's description, on the real DSH runtime: what the model reads
// before it searches, the same on every step until the registry or the settings change, within
// its budget however large the catalog.
import { afterEach, describe, expect, it } from 'vitest'
import type { GenerateOptions } from '@deepseek-ai/dsh-llm'
import { searchDescription as registeredDescription } from '../../plugin/search/tool.ts'
import { OUTLINE_BUDGET_TOKENS, renderOutline } from '../../plugin/offer/outline.ts'
import { estimateTokens } from '../../plugin/offer/token-estimate.ts'
import { TOOL_SEARCH_SETTINGS_NAMESPACE } from '../../plugin/host/settings.ts'
import { fixtureTool } from '../support/fixtures.ts'
import { createHarness, type Harness, type HarnessOptions, NATIVE } from '../support/harness.ts'
import { reply, toolCall } from '../support/scripted-model.ts'

let harness: Harness
afterEach(async () => { await harness.close() })

async function started(options: HarnessOptions = {}): Promise<Harness> {
  harness = await createHarness({ plugin: NATIVE, ...options })
  return harness
}

function searchDescription(request: GenerateOptions | undefined): string {
  return request?.tools?.find(tool => tool.name === 'tool_search')?.description ?? ''
}

/** The outline: what the description adds to the registered text. */
function outlineOf(request: GenerateOptions | undefined): string {
  const description = searchDescription(request)
  const registered = registeredDescription('native')
  expect(description.startsWith(registered)).toBe(true)
  return description.slice(registered.length).trim()
}

describe('the catalog outline in tool_search\'s description', () => {
  it('names each MCP server\'s group with its words, then the other deferred tools, and no core tool', async () => {
    const h = await started()
    const { agent } = await h.agent('a')
    await h.run(agent, 'hi', reply('ok'))
    const outline = outlineOf(h.model.requests[0])
    expect(outline).toBe('Deferred tools, installed and loaded by tool_search. MCP servers (tools named mcp__<server>__<tool>): '
      + 'github (1 tool: create, issue); mail (1 tool: email, send); postgres (1 tool: query); weather (1 tool: forecast). '
      + 'Other tools: web_search.')
    for (const core of ['bash', 'read', 'grep', 'todo_write']) expect(outline).not.toContain(core)
  })

  it('stays the same from step to step, a search notwithstanding, so the prompt prefix stays cached', async () => {
    const h = await started()
    const { agent } = await h.agent('a')
    await h.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast' }), reply('ok'))
    await h.run(agent, 'again', reply('ok'))
    const descriptions = new Set(h.model.requests.map(searchDescription))
    expect(descriptions.size).toBe(1)
    // The selected tool is still outlined: the outline is about what is deferred, not what is offered.
    expect(outlineOf(h.model.requests[1])).toContain('weather (1 tool: forecast)')
  })

  it('changes with the registry and with the settings, and never names a neverSearch tool', async () => {
    const h = await started({ settings: true })
    const { agent } = await h.agent('a')
    await h.run(agent, 'hi', reply('ok'))
    const unregister = h.ctx.tools.register(fixtureTool({ name: 'mcp__jira__create_ticket', description: 'Create a Jira ticket.' }))
    await h.run(agent, 'hi', reply('ok'))
    expect(outlineOf(h.model.requests[1])).toContain('jira (1 tool: ticket, create)')
    unregister()
    await h.ctx.settings.replace(TOOL_SEARCH_SETTINGS_NAMESPACE, { neverSearch: ['mcp__weather__forecast'], alwaysVisible: ['web_search'] })
    await new Promise(resolve => setTimeout(resolve, 0))
    await h.run(agent, 'hi', reply('ok'))
    const outline = outlineOf(h.model.requests[2])
    expect(outline).not.toContain('weather')
    expect(outline).not.toContain('jira')
    expect(outline).not.toContain('web_search')
    expect(outline).toContain('mail (1 tool: email, send)')
  })

  it('is in the Code Mode SDK too, where tool_search is declared', async () => {
    const h = await started({ mode: 'code' })
    const { agent } = await h.agent('a')
    await h.run(agent, 'hi', reply('ok'))
    expect(h.model.system()).toContain('MCP servers (tools named mcp__<server>__<tool>): github (1 tool: create, issue);')
  })

  it('keeps within its budget on a registry of 10,000 tools', async () => {
    const tools = Array.from({ length: 10_000 }, (_, i) => ({
      name: i % 4 === 0 ? `mcp__server${i % 37}__action_${i}` : `tool_number_${i}`,
      description: `Tool ${i}.`,
    }))
    const h = await started({ tools })
    const { agent } = await h.agent('a')
    await h.run(agent, 'hi', reply('ok'))
    const outline = outlineOf(h.model.requests[0])
    expect(estimateTokens(outline)).toBeLessThanOrEqual(OUTLINE_BUDGET_TOKENS)
    expect(outline).toMatch(/^Deferred tools, installed and loaded by tool_search\. MCP servers \(tools named mcp__<server>__<tool>\): server\d+ \(\d+ tools/)
    expect(outline).toMatch(/ And \d+ more\.$/)
  })
})

describe('renderOutline under its budget', () => {
  const group = (name: string, tools: number, words: string[]) => ({ name, tools, words })
  const outline = {
    groups: [group('mcp__github', 26, ['pull', 'request', 'issue']), group('mcp__notion', 19, ['page', 'database'])],
    ungrouped: ['web_search', 'web_fetch', 'read_image'],
  }

  it('drops names first, then the words, then the groups, and ends with a count', () => {
    const head = 'Deferred tools, installed and loaded by tool_search. MCP servers (tools named mcp__<server>__<tool>): '
    const full = renderOutline(outline)
    expect(full).toBe(`${head}github (26 tools: pull, request, issue); notion (19 tools: page, database). Other tools: web_search, web_fetch, read_image.`)
    const budgets = [estimateTokens(full), 51, 45, 39, 33, 12]
    const shown = budgets.map(budget => renderOutline(outline, budget))
    for (const [i, text] of shown.entries()) expect(estimateTokens(text)).toBeLessThanOrEqual(budgets[i]!)
    expect(shown).toEqual([
      full,
      `${head}github (26 tools: pull, request, issue); notion (19 tools: page, database). And 3 more.`,
      `${head}github (26 tools); notion (19 tools). Other tools: web_search. And 2 more.`,
      `${head}github (26 tools). And 22 more.`,
      'Deferred tools, installed and loaded by tool_search: 48.',
      '',
    ])
  })

  it('says nothing when nothing is deferred', () => {
    expect(renderOutline({ groups: [], ungrouped: [] })).toBe('')
  })
})
