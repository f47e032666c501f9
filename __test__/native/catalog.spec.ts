// The catalog side of the native contract, through the built addon: the shapes fromJson reads,
// and the clear errors it gives for everything else; readCatalog, the same reading returned.
import { describe, expect, it } from 'vitest'
import { ToolIndex, readCatalog } from '../../index.js'

const weather = { name: 'get_weather', description: 'Current weather for a city.', parameters: { type: 'object', properties: { city: { type: 'string' } } } }

describe('ToolIndex.fromJson', () => {
  it('reads plain, OpenAI and MCP tool shapes alike', () => {
    const shapes = [
      [weather],
      [{ type: 'function', function: weather }],
      { tools: [{ name: weather.name, description: weather.description, inputSchema: weather.parameters }] },
    ]
    for (const shape of shapes) {
      const index = ToolIndex.fromJson(JSON.stringify(shape))
      expect(index.size).toBe(1)
      expect(index.search('weather', 5).map((hit) => hit.name)).toEqual(['get_weather'])
      expect(index.searchText('get_weather')).toBe('get_weather Current weather for a city. city')
    }
  })

  it('keeps the first of two tools with one name', () => {
    const index = ToolIndex.fromJson(JSON.stringify([weather, { name: 'get_weather', description: 'Second definition' }]))
    expect(index.size).toBe(1)
    expect(index.names()).toEqual(['get_weather'])
    expect(index.search('get_weather', 1)[0]?.description).toBe('Current weather for a city.')
  })

  it('ignores odd content instead of failing the catalog', () => {
    const odd = [
      { name: 'numeric_description', description: 42, parameters: 'not a schema' },
      { name: 'array_schema', parameters: [1, 2] },
      { name: 'null_everything', description: null, parameters: null },
      weather,
    ]
    const index = ToolIndex.fromJson(JSON.stringify(odd))
    expect(index.size).toBe(4)
    expect(index.search('numeric_description', 1)[0]).toEqual({ name: 'numeric_description', description: '', score: expect.any(Number) })
  })

  it.each([
    ['not JSON', '[{"name": "a"', /^tool catalog is not valid JSON: unexpected end of JSON input at line 1, column 14$/],
    ['trailing text', '[] x', /unexpected text after the JSON value at line 1, column 4/],
    ['not a list', '{"name": "a"}', /must be a JSON array of tools .* got an object/],
    ['a number', '7', /got a number/],
    ['a tool that is a string', '["get_weather"]', /^tool at index 0 must be an object, got a string$/],
    ['a tool without a name', '[{"name": "a"}, {"description": "b"}]', /^tool at index 1 has no "name" string/],
    ['a numeric name', '[{"name": 5}]', /^tool at index 0 has no "name" string/],
  ])('rejects %s with a message that names the problem', (_, json, message) => {
    expect(() => ToolIndex.fromJson(json)).toThrow(message)
  })

  it('rejects a non-string argument with a JS error, not a crash', () => {
    // @ts-expect-error wrong type on purpose
    expect(() => ToolIndex.fromJson(42)).toThrow(Error)
    // @ts-expect-error wrong type on purpose
    expect(() => ToolIndex.fromJson(undefined)).toThrow(Error)
  })

  it('indexes the first 32 levels of a schema nested 100,000 levels deep, says so, and overflows no stack', () => {
    // JSON.stringify cannot build this (it recurses), so the text is written directly.
    const depth = 100_000
    const schema = '{"properties":{"node":'.repeat(depth) + '{"description":"bottom word"}' + '}}'.repeat(depth)
    // Lexical: the depth bound is the lexical index's; a model would relate "bottom" to "deep".
    const index = ToolIndex.fromJson(`[{"name":"deep","parameters":${schema}},{"name":"flat","description":"other"}]`, { ranking: 'lexical' })
    expect(index.size).toBe(2)
    expect(index.search('node', 5).map((hit) => hit.name)).toEqual(['deep'])
    expect(index.search('bottom', 5)).toEqual([])
    expect(index.warnings).toEqual(['the schema of "deep" nests deeper than 32 levels; its text below that depth is not searchable'])
  })

  it('takes a 10 MB description and returns a 240-character summary', () => {
    const description = 'telemetry '.repeat(1024 * 1024)
    const index = ToolIndex.fromJson(JSON.stringify([{ name: 'huge', description }, weather]))
    const hit = index.search('telemetry', 1)[0]
    expect(hit?.name).toBe('huge')
    expect(hit?.description.length).toBe(240)
    expect(hit?.description.endsWith('...')).toBe(true)
  })

  it('survives lone surrogates in names and descriptions', () => {
    const catalog = [{ name: 'odd\uD800name', description: 'broken \uDC00 text about weather' }, weather]
    const index = ToolIndex.fromJson(JSON.stringify(catalog))
    expect(index.size).toBe(2)
    const names = index.search('weather', 5).map((hit) => hit.name)
    expect(names).toContain('odd\uFFFDname')
  })

  it('indexes an empty catalog', () => {
    const index = ToolIndex.fromJson('[]')
    expect(index.size).toBe(0)
    expect(index.search('anything', 5)).toEqual([])
  })
})

describe('readCatalog', () => {
  it('returns every entry in catalog order, repeats included, with its schema text as written', () => {
    const schema = '{ "type" : "object", "properties": {"q": {"description": "caf\\u00e9"}} }'
    const text = `{"tools": [
      {"name": "b", "description": "B", "inputSchema": ${schema}},
      {"type": "function", "function": {"name": "a", "parameters": {"x": [1, 2]}}},
      {"name": "b", "description": 7, "parameters": [1]},
      {"name": "odd\\ud800", "parameters": {}, "inputSchema": {"ignored": true}}
    ]}`
    expect(readCatalog(text)).toEqual([
      { name: 'b', description: 'B', parameters: schema },
      { name: 'a', description: '', parameters: '{"x": [1, 2]}' },
      { name: 'b', description: '', parameters: null },
      { name: 'odd\uFFFD', description: '', parameters: '{}' },
    ])
    expect(JSON.parse(readCatalog(text)[0]?.parameters ?? 'null')).toEqual(JSON.parse(schema))
  })

  it('reads the shapes fromJson reads, and the same number of distinct names', () => {
    const shapes = [[weather], [{ type: 'function', function: weather }], { tools: [{ name: weather.name, description: weather.description, inputSchema: weather.parameters }] }]
    for (const shape of shapes) {
      expect(readCatalog(JSON.stringify(shape))).toEqual([{ name: 'get_weather', description: weather.description, parameters: JSON.stringify(weather.parameters) }])
    }
    expect(readCatalog('[]')).toEqual([])
  })

  it.each(['[{"name": "a"', '{"name": "a"}', '["get_weather"]', '[{"name": "a"}, {"description": "b"}]', '[{"name": 5}]'])(
    'throws what fromJson throws for %s',
    (json) => {
      let expected = ''
      try { ToolIndex.fromJson(json) } catch (error) { expected = (error as Error).message }
      expect(expected).not.toBe('')
      expect(() => readCatalog(json)).toThrow(expected)
    },
  )
})
