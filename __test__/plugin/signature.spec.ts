// A found tool's arguments as a stable search result writes them: a TypeScript-like type that says
// what the JSON Schema says, in fewer tokens, or the JSON Schema itself when it cannot.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parameterType } from '../../plugin/search/signature.ts'

describe('the arguments type', () => {
  it('marks optional properties and keeps descriptions and constraints as comments', () => {
    expect(parameterType({
      type: 'object',
      properties: {
        repo: { type: 'string', description: 'Owner and name,\n  as owner/name' },
        labels: { type: 'array', items: { type: 'string' } },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 30 },
        state: { enum: ['open', 'closed'] },
        'x-trace': { type: ['string', 'null'] },
      },
      required: ['repo'],
      additionalProperties: false,
    })).toBe([
      '{',
      '  repo: string // Owner and name, as owner/name',
      '  labels?: string[]',
      '  limit?: integer // (default: 30, minimum: 1, maximum: 100)',
      '  state?: "open" | "closed"',
      '  "x-trace"?: string | null',
      '}',
    ].join('\n'))
  })

  it('writes nested objects, maps, unions and arrays of unions', () => {
    expect(parameterType({
      properties: {
        where: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        tags: { type: 'object', additionalProperties: { type: 'number' } },
        value: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'string' }] },
        keys: { type: 'array', items: { enum: ['Alt', 'Shift'] } },
        anything: {},
      },
    })).toBe([
      '{',
      '  where?: {',
      '    city: string',
      '  }',
      '  tags?: { [key: string]: number }',
      '  value?: string | number',
      '  keys?: ("Alt" | "Shift")[]',
      '  anything?: any',
      '}',
    ].join('\n'))
  })

  it('names a local definition once, and writes only the definitions the tool uses', () => {
    const type = parameterType({
      $defs: {
        parent: { oneOf: [{ $ref: '#/$defs/page' }, { type: 'object', properties: { workspace: { const: true } } }] },
        page: { type: 'object', properties: { page_id: { type: 'string' } }, required: ['page_id'] },
        unused: { type: 'object', properties: { huge: { type: 'string' } } },
      },
      type: 'object',
      properties: { parent: { $ref: '#/$defs/parent' }, again: { $ref: '#/$defs/page' } },
      required: ['parent'],
    })
    expect(type).toBe([
      '{',
      '  parent: parent',
      '  again?: page',
      '}',
      'type parent = page | {',
      '  workspace?: true',
      '}',
      'type page = {',
      '  page_id: string',
      '}',
    ].join('\n'))
  })

  it('leaves a schema it cannot say in full to JSON', () => {
    expect(parameterType({ type: 'object', properties: { a: { allOf: [{ type: 'string' }] } } })).toBeUndefined()
    expect(parameterType({ type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } })).toBeUndefined()
    expect(parameterType({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } })).toBeUndefined()
    expect(parameterType({ type: 'array', items: {} })).toBeUndefined()
    expect(parameterType('not a schema')).toBeUndefined()
    let deep: Record<string, unknown> = { type: 'string' }
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { a: deep } }
    expect(parameterType(deep as never)).toBeUndefined()
  })

  it('says every recorded MCP server tool\'s arguments in fewer characters than its JSON Schema', () => {
    for (const server of ['github', 'notion', 'playwright']) {
      const { tools } = JSON.parse(readFileSync(new URL(`../../catalogs/mcp/${server}.json`, import.meta.url), 'utf8')) as { tools: { name: string; inputSchema: never }[] }
      for (const tool of tools) {
        const type = parameterType(tool.inputSchema)
        expect(type, `${server} ${tool.name}`).toBeDefined()
        expect(type!.length, `${server} ${tool.name}`).toBeLessThan(JSON.stringify(tool.inputSchema).length)
      }
    }
  })
})
