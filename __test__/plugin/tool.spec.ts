import { afterEach, describe, expect, it } from 'vitest'
import { CallId } from '@deepseek-ai/dsh-llm'
import { createHarness, type Harness, NATIVE } from '../support/harness.ts'
import { reply, toolCalls } from '../support/scripted-model.ts'
import { loggedResult } from '../support/session.ts'

let harness: Harness
afterEach(async () => { await harness.close() })

describe('tool_search input', () => {
  it('answers bad input with a clear error result and keeps the Agent running', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const { agent } = await harness.agent('a')
    const cases = {
      blank: { query: '   ' },
      huge: { query: 'weather '.repeat(600) },
      zero: { query: 'weather', limit: 0 },
      tooMany: { query: 'weather', limit: 21 },
      fraction: { query: 'weather', limit: 2.5 },
      stringLimit: { query: 'weather', limit: '5' },
      numberQuery: { query: 42 },
      missing: {},
      notJson: '{"query": "weath',
    }
    await harness.run(agent, 'try everything',
      toolCalls(...Object.entries(cases).map(([id, args]) => ({ id, name: 'tool_search', args }))),
      reply('done'))

    const text = (id: string) => {
      const result = loggedResult(agent, id)
      expect(result.isError).toBe(true)
      return result.text
    }
    expect(text('blank')).toMatch(/query is empty/)
    expect(text('huge')).toMatch(/query is longer than 4096 characters/)
    expect(text('zero')).toMatch(/limit must be a whole number from 1 to 20, got 0/)
    expect(text('tooMany')).toMatch(/limit must be a whole number from 1 to 20, got 21/)
    expect(text('fraction')).toMatch(/invalid arguments: .*limit/)
    expect(text('stringLimit')).toMatch(/invalid arguments: .*limit/)
    expect(text('numberQuery')).toMatch(/invalid arguments: .*query/)
    expect(text('missing')).toMatch(/invalid arguments: .*query/)
    expect(text('notJson')).toMatch(/invalid arguments/)
    expect(harness.model.toolNames()).not.toContain('mcp__weather__forecast')
  })

  it('trims the query and counts its length in characters, not UTF-16 units', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'emoji',
      toolCalls({ id: 'c1', name: 'tool_search', args: { query: `  ${'🌦'.repeat(4096)}  ` } }),
      reply('ok'))
    const result = loggedResult(agent, 'c1')
    expect(result.isError).toBe(false)
    expect(JSON.parse(result.text)).toMatchObject({ schemaVersion: 1, query: '🌦'.repeat(4096) })
  })
})

describe('tool_search output', () => {
  it('returns names, collapsed short descriptions and scores only, never schemas', async () => {
    harness = await createHarness({ plugin: NATIVE, tools: [{
      name: 'mcp__docs__lookup',
      description: `Look up\n\n   product documentation.   ${'Very detailed. '.repeat(40)}`,
      properties: { topic: 'SECRET-PARAMETER-TEXT' },
    }] })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'docs', toolCalls({ id: 'c1', name: 'tool_search', args: { query: 'documentation' } }), reply('ok'))
    const text = loggedResult(agent, 'c1').text
    const payload = JSON.parse(text) as { tools: Record<string, unknown>[] }
    expect(Object.keys(payload)).toEqual(['schemaVersion', 'query', 'tools'])
    expect(payload.tools.map(tool => Object.keys(tool))).toEqual([['name', 'description', 'score']])
    const [hit] = payload.tools
    expect(hit?.['description']).toMatch(/^Look up product documentation\. Very detailed\./)
    expect(String(hit?.['description']).length).toBeLessThanOrEqual(240)
    expect(text).not.toContain('SECRET-PARAMETER-TEXT')
  })

  it('serves a direct call without an Agent, using the global catalog', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const result = await harness.ctx.tools.execute({
      callId: CallId('direct'),
      name: 'tool_search',
      arguments: { query: 'github issue', limit: 1 },
      signal: new AbortController().signal,
    })
    expect(result.isError).toBe(false)
    expect(result.value).toMatchObject({ schemaVersion: 1, query: 'github issue', tools: [{ name: 'mcp__github__create_issue' }] })
  })

  it('presents a readable call card, and falls back to the generic one for invalid arguments', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const tool = harness.ctx.tools.get('tool_search')
    expect(tool?.presentCall?.({ query: '  create github issue ', limit: 3 })).toEqual({
      card: 'generic',
      title: 'Search tools: create github issue',
      kind: 'search',
      rawInput: { query: '  create github issue ', limit: 3 },
    })
    expect(tool?.presentCall?.({ query: 7 })).toBeUndefined()
  })
})
