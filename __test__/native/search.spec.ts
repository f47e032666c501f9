// The search side of the native contract: ordering, exclusions, limits, query forms and errors.
import { describe, expect, it } from 'vitest'
import { ToolIndex, type SearchHit } from '../../index.js'

const catalog = [
  { name: 'get_weather', description: 'Get the current weather and forecast for a city.', parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' } } } },
  { name: 'convert_currency', description: 'Convert an amount of money between currencies.' },
  { name: 'create_issue', description: 'Create an issue in a repository issue tracker.' },
  { name: 'list_issues', description: 'List the issues of a repository.' },
  { name: 'weather', description: 'An unrelated tool that happens to be called weather.' },
  { name: 'mcp__github__create_pull_request', description: 'Open a pull request.' },
]
const index = ToolIndex.fromJson(JSON.stringify(catalog))
const names = (hits: SearchHit[]) => hits.map((hit) => hit.name)

describe('ToolIndex.search', () => {
  it('ranks by relevance and returns summaries with six-decimal scores', () => {
    const hits = index.search('forecast for Paris', 3)
    expect(hits[0]?.name).toBe('get_weather')
    expect(hits[0]?.description).toBe('Get the current weather and forecast for a city.')
    for (const hit of hits) expect(Math.round(hit.score * 1e6) / 1e6).toBe(hit.score)
    expect(hits.map((hit) => hit.score)).toEqual([...hits.map((hit) => hit.score)].sort((a, b) => b - a))
  })

  it('puts an exact name first, even one the caller excluded', () => {
    expect(names(index.search('  weather ', 2))).toEqual(['weather', 'get_weather'])
    expect(names(index.search('create_issue', 5, { exclude: ['create_issue', 'list_issues'] }))[0]).toBe('create_issue')
    expect(names(index.search('repository issues', 5, { exclude: ['list_issues'] }))).not.toContain('list_issues')
  })

  it('orders equal scores by name in code-point order', () => {
    // Names that read as the same words ("e tool"), so every stage scores the tools alike.
    const twins = ['é_tool', 'e_tool', 'É-tool', 'E_tool'].map((name) => ({ name, description: 'same words here' }))
    for (const ranking of ['lexical', 'hybrid'] as const) {
      const hits = ToolIndex.fromJson(JSON.stringify(twins), { ranking }).search('same words', 10)
      expect(names(hits), ranking).toEqual(['E_tool', 'e_tool', 'É-tool', 'é_tool'])
      expect(new Set(hits.map((hit) => hit.score)).size, ranking).toBe(1)
    }
  })

  it('gives the same results for the same catalog in any order', () => {
    const reversed = ToolIndex.fromJson(JSON.stringify([...catalog].reverse()))
    for (const query of ['weather', 'issue repository', 'money', 'github pull request', 'create_issue']) {
      expect(reversed.search(query, 10)).toEqual(index.search(query, 10))
    }
  })

  it('finds MCP tools by their server and tool words', () => {
    expect(index.search('github pull request', 1)[0]?.name).toBe('mcp__github__create_pull_request')
  })

  it('answers select: with exactly the named tools, in order', () => {
    expect(names(index.search('select:list_issues,get_weather,missing', 5))).toEqual(['list_issues', 'get_weather'])
  })

  it('fills a hybrid page with the nearest others by meaning, after every match, unless fill is false', async () => {
    const hybrid = ToolIndex.fromJson(JSON.stringify(catalog), { ranking: 'hybrid' })
    await hybrid.ready()
    const matches = names(hybrid.search('money', 6, { fill: false }))
    const page = hybrid.search('money', 6)
    expect(matches).toEqual(['convert_currency'])
    expect(names(page)).toHaveLength(6)
    expect(names(page)[0]).toBe('convert_currency')
    expect(page.map((hit) => hit.score)).toEqual([...page.map((hit) => hit.score)].sort((a, b) => b - a))
    expect(names(hybrid.search('money', 6, { exclude: ['weather'] }))).not.toContain('weather')
    // A lexical index has no meaning to fill with; a +word admits only the tools holding it.
    expect(names(ToolIndex.fromJson(JSON.stringify(catalog), { ranking: 'lexical' }).search('money', 6))).toEqual(matches)
    expect(names(hybrid.search('money +currency', 6))).toEqual(['convert_currency'])
  })

  it('keeps only results holding a +word', () => {
    const hits = index.search('weather +issue', 5)
    expect(hits.length).toBeGreaterThan(0)
    expect(hits.every((hit) => hit.name.includes('issue'))).toBe(true)
  })

  it('treats limit 0 as no results and a huge limit as all matches', () => {
    expect(index.search('weather', 0)).toEqual([])
    expect(index.search('weather issue money', Number.MAX_SAFE_INTEGER, { fill: false }).length).toBe(5)
  })

  it.each([-1, 2.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects limit %s with a clear error', (limit) => {
    expect(() => index.search('weather', limit)).toThrow(/^limit must be a whole number of results \(0 or more\), got /)
  })

  it('rejects a query over 4096 characters, naming its length', () => {
    // Too long to read at all: its length in code units says it is over.
    expect(() => index.search('w'.repeat(1024 * 1024), 5)).toThrow('query is at least 524288 characters long; the limit is 4096')
    // Short enough to read, then counted exactly.
    expect(() => index.search('w'.repeat(4097), 5)).toThrow('query is 4097 characters long; the limit is 4096')
    expect(index.search('weather '.repeat(512).slice(0, 4096), 5).length).toBeGreaterThan(0)
  })

  it('rejects wrong argument types with a JS error', () => {
    // @ts-expect-error wrong type on purpose
    expect(() => index.search(42, 5)).toThrow(Error)
    // @ts-expect-error wrong type on purpose
    expect(() => index.search('weather', '5')).toThrow(Error)
    // @ts-expect-error wrong type on purpose
    expect(() => index.search('weather', 5, { exclude: 'get_weather' })).toThrow(Error)
  })

  it('searches text with lone surrogates and no words', () => {
    expect(index.search('\uD800 weather \uDFFF', 1)[0]?.name).toBe('weather')
    expect(index.search('   ', 5)).toEqual([])
    expect(index.search('?! --', 5)).toEqual([])
  })
})

describe('ToolIndex.explain', () => {
  it('gives the rank, the matched terms by field and the projected text', () => {
    const explained = index.explain('weather in the city', 'get_weather')
    expect(explained?.rank).toBe(1)
    expect(explained?.score).toBe(index.search('weather in the city', 1)[0]?.score)
    const city = explained?.terms.find((term) => term.queryWord === 'city')
    expect(city).toMatchObject({ term: 'citi', kind: 'word', fields: { name: 0, description: 1, parameter: 1, schema: 1 } })
    expect(explained?.text).toBe(index.searchText('get_weather'))
  })

  it('returns null for an unknown tool and a null rank for a tool the query misses', () => {
    expect(index.explain('weather', 'no_such_tool')).toBeNull()
    expect(index.explain('money', 'get_weather')?.rank).toBeNull()
  })

  it('lists the query terms a tool lacks and how many tools match', () => {
    const explained = index.explain('weather forecast tomorrow in Paris', 'get_weather')
    expect(explained?.matches).toBe(2)
    expect(explained?.missing).toEqual([
      { term: 'tomorrow', queryWord: 'tomorrow', idf: null },
      { term: 'pari', queryWord: 'paris', idf: null },
    ])
    expect(index.explain('money weather', 'get_weather')?.missing).toEqual([{ term: 'money', queryWord: 'money', idf: expect.any(Number) }])
  })
})
