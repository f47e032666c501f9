import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { NextMove } from '../../index.js'
import { cli, cliJson, fixture } from './cli.ts'

interface SearchJson {
  query: string
  catalog: string
  matches: number
  tools: { name: string; description: string; score: number }[]
  form: string
  loaded: string[]
  shown: string[]
  nextMove: NextMove | null
}

const WEATHER = fixture('weather.json')

describe('search', () => {
  it('ranks the default catalog out of the box: DSH\'s tools and the GitHub MCP server\'s', () => {
    const { code, json } = cliJson<SearchJson>(['search', 'create a github issue'])
    expect(code).toBe(0)
    expect(json.tools).toHaveLength(5)
    expect(json.tools[0]?.name).toBe('mcp__github__create_issue')
    expect(json.matches).toBeGreaterThan(5)
    // The label names the DSH version the recording is of.
    const { source } = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'catalogs', 'dsh', 'headless-tools.json'), 'utf8')) as { source: { version: string } }
    expect(json.catalog).toBe(`the default catalog of DSH ${source.version} and GitHub MCP server tools`)
    expect(cliJson<SearchJson>(['search', 'run a shell command']).json.tools[0]?.name).toBe('bash')
  })

  it('prints a ranked table with scores, best first', () => {
    const run = cli(['search', 'will it rain in Paris', '--catalog', WEATHER])
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe('1 matching tool for "will it rain in Paris"')
    expect(lines[1]).toBe(`in ${WEATHER} (4 tools), ranked by words and meaning`)
    expect(lines[3]).toMatch(/^#\s+score\s+tool\s+description$/)
    expect(lines[4]).toMatch(/^1\s+\d+\.\d{3}\s+get_forecast\s+Get the weather forecast/)
  })

  it('prints {query, catalog, matches, tools} and tool_search\'s decision as JSON, at most --limit tools', () => {
    const { code, json } = cliJson<SearchJson>(['search', 'money issue room weather', '-c', WEATHER, '--limit', '2'])
    expect(code).toBe(0)
    expect(json).toEqual({
      query: 'money issue room weather', catalog: WEATHER, ranking: 'hybrid', loading: 'stable', form: 'plain', matches: 4, tools: expect.any(Array),
      loaded: ['get_forecast', 'create_issue'], shown: [], nextMove: null,
    })
    expect(json.tools).toHaveLength(2)
    for (const tool of json.tools) expect(Object.keys(tool).sort()).toEqual(['description', 'name', 'score'])
    expect(json.tools[0]!.score).toBeGreaterThanOrEqual(json.tools[1]!.score)
  })

  it('reads OpenAI function tools and MCP tools/list results the same as plain tools', () => {
    const query = ['search', 'convert dollars to euros', '-n', '4']
    const plain = cliJson<SearchJson>([...query, '-c', WEATHER]).json.tools
    expect(plain[0]?.name).toBe('convert_currency')
    expect(cliJson<SearchJson>([...query, '-c', fixture('weather-openai.json')]).json.tools).toEqual(plain)
    expect(cliJson<SearchJson>([...query, '-c', fixture('weather-mcp.json')]).json.tools).toEqual(plain)
  })

  it('searches an MCP server\'s tools under the names DSH gives them', () => {
    const { json } = cliJson<SearchJson>(['search', 'convert dollars to euros', '-c', fixture('weather-mcp.json'), '--mcp-server', 'office'])
    expect(json.tools[0]?.name).toBe('mcp__office__convert_currency')
    const byServer = cliJson<SearchJson>(['search', 'office', '-c', fixture('weather-mcp.json'), '--mcp-server', 'office'])
    expect(byServer.json.matches).toBe(4)
  })

  it('merges several catalogs, and reads one from standard input', () => {
    const both = cliJson<SearchJson>(['search', 'share a file', '-c', WEATHER, '-c', fixture('mcp-dotted.json')]).json
    expect(both.tools[0]?.name).toBe('files.share')
    const piped = cli(['search', 'book a room', '-c', '-', '--json'], JSON.stringify([{ name: 'rooms', description: 'Book a room.' }]))
    expect(JSON.parse(piped.stdout).tools[0].name).toBe('rooms')
  })

  it('renames and merges tools whose schemas nest deeper than a call stack goes', () => {
    // Each schema goes back to the core as the text it was written as, never re-serialized.
    const depth = 20_000
    const schema = `${'{"type":"object","properties":{"x":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}`
    const catalog = `[{"name":"deep_tool","description":"Archive old mailboxes","parameters":${schema}}]`
    const renamed = cli(['search', 'archive mailboxes', '-c', '-', '--mcp-server', 'mail', '--json'], catalog)
    expect([renamed.code, renamed.stderr]).toEqual([0, ''])
    expect((JSON.parse(renamed.stdout) as SearchJson).tools.map(tool => tool.name)).toEqual(['mcp__mail__deep_tool'])
    const merged = cli(['search', 'archive mailboxes', '-c', '-', '-c', WEATHER, '--json'], catalog)
    expect((JSON.parse(merged.stdout) as SearchJson).tools[0]?.name).toBe('deep_tool')
  })

  it('says so when nothing matches, with tool_search\'s next move, and exits 0', () => {
    const run = cli(['search', 'zebra', '-c', WEATHER])
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(`0 matching tools for "zebra"\nin ${WEATHER} (4 tools), ranked by words and meaning\n\n`
      + 'tool_search loads nothing: no tool matches. Candidates it offers: get_forecast, book_meeting_room,\nconvert_currency, create_issue.\n')
    const misspelled = cliJson<SearchJson>(['search', 'wether forcast', '-c', WEATHER, '--ranking', 'lexical']).json
    expect(misspelled.nextMove).toEqual({ matched: false, candidates: [], nearest: ['get_forecast'] })
  })

  it('says what tool_search loads and shows, under the loading asked for, leaving out --exclude', () => {
    const exact = cli(['search', 'mcp__github__get_issue', '-x', 'mcp__github__list_issues'])
    expect(exact.stdout).not.toContain('mcp__github__list_issues')
    expect(exact.stdout.replace(/\n/g, ' ')).toMatch(/tool_search \(loading: stable\) loads mcp__github__get_issue; it shows the other 4 tools as candidates, not loaded\.\s*$/)
    const json = cliJson<SearchJson>(['search', 'mcp__github__get_issue', '--exclude', 'mcp__github__get_issue', '--json']).json
    expect(json.loaded).toEqual(['mcp__github__get_issue'])
    expect(json.tools.map(tool => tool.name)).toEqual([...json.loaded, ...json.shown])
    expect(cli(['search', 'merge a pull request', '--loading', 'native']).stdout).toMatch(/tool_search \(loading: native\) loads all 5\.\n$/)
    const bad = cli(['search', 'x', '--loading', 'eager'])
    expect([bad.code, bad.stderr]).toEqual([2, 'dsh-tool-search: --loading must be native or stable, got \'eager\' (see: dsh-tool-search search --help)\n'])
  })

  it('takes the query forms tool_search takes', () => {
    const select = cliJson<SearchJson>(['search', 'select:create_issue,get_forecast', '-c', WEATHER]).json
    expect(select.tools.map(tool => tool.name)).toEqual(['create_issue', 'get_forecast'])
    expect([select.form, select.loaded]).toEqual(['select', ['create_issue', 'get_forecast']])
    const required = cliJson<SearchJson>(['search', 'weather money +currency', '-c', WEATHER]).json
    expect(required.tools.map(tool => tool.name)).toEqual(['convert_currency'])
    expect(required.form).toBe('required')
    const shown = cliJson<SearchJson>(['search', 'discover: will it rain', '-c', WEATHER]).json
    expect(shown).toMatchObject({ form: 'discover', loaded: [], shown: ['get_forecast'], tools: [{ name: 'get_forecast' }] })
    expect(cli(['search', 'discover: will it rain', '-c', WEATHER]).stdout).toContain('tool_search shows them with their parameter schemas and loads nothing (discover:).')
    const empty = cli(['search', 'discover:', '-c', WEATHER])
    expect([empty.code, empty.stderr]).toEqual([2, 'dsh-tool-search: tool_search: discover: needs a query after it, for example "discover:github issue" (see: dsh-tool-search search --help)\n'])
  })
})
