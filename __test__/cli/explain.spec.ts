import { describe, expect, it } from 'vitest'
import type { Explanation } from '../../index.js'
import { cli, cliJson, fixture } from './cli.ts'

interface ExplainJson extends Explanation {
  query: string
  ranking: 'lexical' | 'hybrid'
  matches: number
  above: { name: string; score: number }[]
  toolSearch: { loading: string; limit: number; role: string }
}

const WEATHER = fixture('weather.json')

describe('explain', () => {
  it('gives the rank, the score, each matched term with its weight and fields, and the indexed text', () => {
    // Lexically, the score is the sum of the terms' contributions.
    const { code, json } = cliJson<ExplainJson>(['explain', 'weather forecast for Paris', 'get_forecast', '-c', WEATHER, '--ranking', 'lexical'])
    expect(code).toBe(0)
    expect(json).toMatchObject({ query: 'weather forecast for Paris', ranking: 'lexical', name: 'get_forecast', rank: 1, form: 'plain', exact: false, fused: false, semantic: null, matches: 1, above: [] })
    expect(json.toolSearch).toEqual({ loading: 'stable', limit: 5, role: 'loaded' })
    const weather = json.terms.find(term => term.term === 'weather')
    expect(weather).toMatchObject({ queryWord: 'weather', kind: 'word', fields: { name: 0, description: 2, parameter: 0, schema: 0 } })
    expect(weather!.idf).toBeGreaterThan(0)
    const shares = json.terms.reduce((sum, term) => sum + term.contribution, 0)
    expect(shares).toBeCloseTo(json.score, 5)
    expect(json.text).toMatch(/^get_forecast Get the weather forecast for a city/)
  })

  it('splits a hybrid score into what the similarity adds and what the words add', () => {
    const { json } = cliJson<ExplainJson>(['explain', 'weather forecast for Paris', 'get_forecast', '-c', WEATHER])
    expect(json).toMatchObject({ ranking: 'hybrid', rank: 1 })
    expect(json.semantic!.similarity).toBeGreaterThan(0.3)
    expect(json.semantic!.part).toBeGreaterThan(0)
    expect(json.semantic!.part).toBeLessThanOrEqual(json.score)
    // The command waits for the transformer's vectors, so its cosine is there too.
    expect(json.semantic!.contextual).toBeGreaterThan(0.3)
    const text = cli(['explain', 'weather forecast for Paris', 'get_forecast', '-c', WEATHER]).stdout.replace(/\n/g, ' ')
    // The stage tree: its parts add up to the score, the semantic stage's to its own part.
    const [lexical, semantic] = json.stages
    expect(json.stages.reduce((sum, stage) => sum + stage.part, 0)).toBeCloseTo(json.score, 5)
    expect(semantic!.parts.map(part => part.stage)).toEqual(['table', 'transformer'])
    expect(text).toMatch(new RegExp(`Its score by ranking stage: +lexical +${lexical!.part.toFixed(3)} +\\(BM25F ${lexical!.signal!.toFixed(3)}\\)`))
    expect(text).toMatch(new RegExp(`semantic +${semantic!.part.toFixed(3)} +table +[0-9.]+ +\\(similarity ${semantic!.parts[0]!.signal!.toFixed(3)}\\)`))
    expect(text).toContain(`(cosine ${json.semantic!.contextual!.toFixed(3)})`)
    expect(cli(['explain', 'weather forecast for Paris', 'get_forecast', '-c', WEATHER, '--ranking', 'lexical']).stdout.replace(/\n/g, ' '))
      .toContain('Ranked by words alone (the semantic model is not in use).')
  })

  it('prints the explanation as text: headline, term table, tools above, indexed text', () => {
    const run = cli(['explain', 'open an issue in the project', 'create_issue', '-c', WEATHER, '--ranking', 'lexical'])
    expect(run.code).toBe(0)
    const lines = run.stdout.split('\n')
    expect(lines[0]).toMatch(/^create_issue ranks 1st of 1 matching tool for "open an issue in the project", score \d+\.\d{3}$/)
    expect(lines).toContain('Matched terms (occurrences per field; share: of the lexical score):')
    expect(lines.find(line => /^\s+issu\s+issue\s+word\s/.test(line))).toBeDefined()
    expect(lines).toContain('Indexed text:')
    expect(run.stdout).not.toContain('Ranked above it')
  })

  it('names the tools ranked above a tool that is not first', () => {
    const { json } = cliJson<ExplainJson>(['explain', 'create a github issue', 'mcp__github__get_issue'])
    expect(json.rank).toBeGreaterThan(1)
    expect(json.above).toHaveLength(json.rank! - 1)
    expect(json.above[0]?.name).toBe('mcp__github__create_issue')
    const text = cli(['explain', 'create a github issue', 'mcp__github__get_issue']).stdout
    expect(text).toMatch(/Ranked above it:\n\s+1\s+\d+\.\d{3}\s+mcp__github__create_issue\n/)
  })

  it('says when the tool does not match, or is named exactly', () => {
    const miss = cli(['explain', 'convert money', 'get_forecast', '-c', WEATHER, '--ranking', 'lexical'])
    expect(miss.code).toBe(0)
    expect(miss.stdout).toMatch(/^get_forecast does not match "convert money": none of its indexed terms is a term of the query\./)
    expect(cliJson<ExplainJson>(['explain', 'convert money', 'get_forecast', '-c', WEATHER, '--ranking', 'lexical']).json).toMatchObject({ rank: null, score: 0, terms: [] })
    const exact = cli(['explain', 'create_issue', 'create_issue', '-c', WEATHER, '--ranking', 'lexical'])
    // The headline wraps at the output width; what tool_search does follows it.
    expect(exact.stdout.split('\n\n')[0]?.replace(/\n/g, ' ')).toMatch(/^create_issue ranks 1st .* \(the query is its exact name, which always ranks first\) tool_search \(loading: stable\) loads it/)
  })

  it('reads the query as tool_search does, and says what tool_search does with the tool', () => {
    const loaded = cli(['explain', 'open an issue in the project', 'create_issue', '-c', WEATHER, '--ranking', 'lexical']).stdout.split('\n')
    expect(loaded[1]).toBe('tool_search (loading: stable) loads it, at its default limit of 5.')
    const shown = cliJson<ExplainJson>(['explain', 'discover: will it rain', 'get_forecast', '-c', WEATHER]).json
    const ranked = cliJson<ExplainJson>(['explain', 'will it rain', 'get_forecast', '-c', WEATHER]).json
    expect(shown).toMatchObject({ form: 'discover', rank: ranked.rank, score: ranked.score, toolSearch: { role: 'shown' } })
    expect(cliJson<ExplainJson>(['explain', 'mcp__github__get_issue', 'mcp__github__list_issues', '--loading', 'native']).json.toolSearch)
      .toEqual({ loading: 'native', limit: 5, role: 'shown' })
    expect(cliJson<ExplainJson>(['explain', 'zebra', 'get_forecast', '-c', WEATHER]).json.toolSearch.role).toBe('candidate')
    expect(cliJson<ExplainJson>(['explain', 'wether forcast', 'get_forecast', '-c', WEATHER, '--ranking', 'lexical']).json.toolSearch.role).toBe('nearest')
    const named = cli(['explain', 'select:create_issue,get_forecast', 'get_forecast', '-c', WEATHER]).stdout.split('\n')
    expect(named.slice(0, 2)).toEqual(['get_forecast is named 2nd of 2 tools "select:create_issue,get_forecast" names.', 'tool_search (loading: stable) loads it, at its default limit of 5.'])
    const other = cli(['explain', 'select:create_issue', 'get_forecast', '-c', WEATHER]).stdout.split('\n')
    expect(other.slice(0, 2)).toEqual(['get_forecast is not among the tools "select:create_issue" names.', 'tool_search (loading: stable) does not return it, at its default limit of 5.'])
    const empty = cli(['explain', 'discover:', 'get_forecast', '-c', WEATHER])
    expect([empty.code, empty.stderr]).toEqual([2, 'dsh-tool-search: tool_search: discover: needs a query after it, for example "discover:github issue" (see: dsh-tool-search explain --help)\n'])
  })

  it('marks a query of several requests as fused', () => {
    const { json } = cliJson<ExplainJson>(['explain', 'Book a room for six. Also convert 20 dollars to euros', 'convert_currency', '-c', WEATHER])
    expect(json.fused).toBe(true)
    expect(cli(['explain', 'Book a room for six. Also convert 20 dollars to euros', 'convert_currency', '-c', WEATHER]).stdout).toContain('The query reads as several requests')
  })

  it('rejects an unknown tool with exit code 2, suggesting names', () => {
    const run = cli(['explain', 'weather', 'forecast', '-c', WEATHER])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(`dsh-tool-search: no tool named 'forecast' in ${WEATHER}; did you mean get_forecast? (see: dsh-tool-search explain --help)\n`)
  })

  it('needs exactly a query and a tool', () => {
    const run = cli(['explain', 'weather'])
    expect(run.code).toBe(2)
    expect(run.stderr).toBe('dsh-tool-search: expected a query and a tool name, got 1 argument (see: dsh-tool-search explain --help)\n')
  })
})
