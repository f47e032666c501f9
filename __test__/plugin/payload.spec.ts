// The payload's JSON is written in the order its one declaration (PAYLOAD_SCHEMA, and the record
// fields after it) gives, whatever order the value's keys came in, and a field the declaration
// lacks is an error instead of a silent loss from the log.
import { describe, expect, it } from 'vitest'
import { PAYLOAD_SCHEMA, PAYLOAD_TEXT_START, payloadContent, type ToolSearchPayload } from '../../plugin/search/payload.ts'

const hit = { score: 1.5, description: 'Weather.', name: 'get_weather' }

describe('payloadContent', () => {
  it('writes every field, and every field of its objects, in declared order', () => {
    const reordered = {
      otherTools: 3,
      groups: [{ words: ['issue'], tools: 2, name: 'mcp__github' }],
      nearest: ['get_weathr'],
      candidates: [hit],
      note: 'weak',
      tools: [{ parameters: { type: 'object' }, ...hit }],
      query: 'q',
      schemaVersion: 1,
    } satisfies ToolSearchPayload
    const [block] = payloadContent(reordered)
    const text = block?.type === 'text' ? block.text : ''
    expect(text.startsWith(PAYLOAD_TEXT_START)).toBe(true)
    expect(Object.keys(JSON.parse(text) as object)).toEqual(Object.keys(PAYLOAD_SCHEMA.properties).filter(key => key in reordered))
    expect(text).toBe(JSON.stringify({
      schemaVersion: 1,
      query: 'q',
      tools: [{ name: 'get_weather', description: 'Weather.', score: 1.5, parameters: { type: 'object' } }],
      note: 'weak',
      candidates: [{ name: 'get_weather', description: 'Weather.', score: 1.5 }],
      nearest: ['get_weathr'],
      groups: [{ name: 'mcp__github', tools: 2, words: ['issue'] }],
      otherTools: 3,
    }))
  })

  it("writes a record's deselect after the search fields, and a stable result's definitions only as its second block", () => {
    const [record] = payloadContent({ deselect: ['a'], tools: [], query: '', schemaVersion: 1 })
    expect(record).toEqual({ type: 'text', text: '{"schemaVersion":1,"query":"","tools":[],"deselect":["a"]}' })
    const stable = payloadContent({
      schemaVersion: 1, query: 'q', loading: 'stable', tools: [hit],
      definitions: { via: 'call_tool', tools: [{ name: 'get_weather', description: 'Weather.', arguments: '{}' }] },
    })
    expect(stable).toHaveLength(2)
    expect(stable[0]?.type === 'text' && stable[0].text).not.toContain('definitions')
  })

  it('refuses a field the declaration does not have, at any level', () => {
    const stray = { schemaVersion: 1, query: 'q', tools: [hit], extra: 1 } as unknown as ToolSearchPayload
    expect(() => payloadContent(stray)).toThrow('tool_search: the payload field payload.extra is not declared in payload.ts')
    const deep = { schemaVersion: 1, query: 'q', tools: [{ ...hit, rank: 1 }] } as unknown as ToolSearchPayload
    expect(() => payloadContent(deep)).toThrow('the payload field payload.tools[0].rank is not declared')
  })
})
