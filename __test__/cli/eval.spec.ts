import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, cliJson, fixture } from './cli.ts'

interface EvalJson {
  catalog: string
  ranking: 'lexical' | 'hybrid'
  requests: number
  r1: number
  r5: number
  r10: number
  ndcg10: number
  missed: { query: string; relevant: string[]; found: string[] }[]
  unknown: string[]
}

const WEATHER = fixture('weather.json')
const REQUESTS = fixture('weather-requests.jsonl')

describe('eval', () => {
  it('reports R@1, R@5, R@10 and NDCG@10 over labelled requests, and what was missed', () => {
    const { code, json } = cliJson<EvalJson>(['eval', '-c', WEATHER, '-r', REQUESTS])
    expect(code).toBe(0)
    expect(json.requests).toBe(4)
    // Three requests find every tool they name within five (the catalog has four tools); the
    // fourth names a tool the catalog lacks. Two tools asked for at once share the first place.
    expect([json.r5, json.r10]).toEqual([0.75, 0.75])
    expect(json.r1).toBe(0.625)
    expect(json.missed).toEqual([{ query: 'send a fax', relevant: ['send_fax'], found: [] }])
    expect(json.unknown).toEqual(['send_fax'])
  })

  it('prints the figures and the misses as text, with how the catalog is ranked', () => {
    const run = cli(['eval', '--catalog', WEATHER, '--requests', REQUESTS])
    expect(run.code).toBe(0)
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe(`4 requests over ${WEATHER} (4 tools), ranked by words and meaning`)
    expect(lines.slice(2, 4)).toEqual(['R@1    R@5    R@10   NDCG@10', '0.625  0.750  0.750  0.750'])
    expect(lines).toContain('  "send a fax": wants send_fax')
    expect(lines.at(-1)).toBe('Not in the catalog, so never found (1): send_fax')
  })

  it('measures the ranking --ranking asks for: by words alone, dollars and euros find no currency tool', () => {
    const { code, json } = cliJson<EvalJson>(['eval', '-c', WEATHER, '-r', REQUESTS, '--ranking', 'lexical'])
    expect(code).toBe(0)
    expect(json.ranking).toBe('lexical')
    expect(json.r5).toBe(0.5)
    expect(json.missed.map(miss => miss.query)).toEqual(['how much is 20 dollars in euros', 'send a fax'])
  })

  it('gives the figures pnpm eval recorded for a labelled set of the repository (ToolTalk, whole)', () => {
    const root = join(import.meta.dirname, '..', '..')
    const data = join(root, 'bench', 'data', 'tooltalk')
    const { json } = cliJson<EvalJson>(['eval', '-c', join(data, 'catalog.json'), '-r', join(data, 'queries.jsonl')])
    type Ranked = Pick<EvalJson, 'requests' | 'r1' | 'r5' | 'r10' | 'ndcg10'>
    const results = JSON.parse(readFileSync(join(root, 'docs', 'benchmark-results.json'), 'utf8')) as { eval: { sets: { id: string; hybrid: { all: Ranked } }[] } }
    const recorded = results.eval.sets.find(set => set.id === 'tooltalk')?.hybrid.all
    expect(recorded).toBeDefined()
    // pnpm eval records what the plugin's searches load beside these; the command line ranks only.
    const ranked = ({ requests, r1, r5, r10, ndcg10 }: Ranked) => ({ requests, r1, r5, r10, ndcg10 })
    expect(ranked(json)).toEqual(ranked(recorded!))
  })

  it('reads the requests from standard input', () => {
    const run = cli(['eval', '-c', WEATHER, '-r', '-', '--json'], '{"query": "will it rain in Paris", "relevant": ["get_forecast"]}\n')
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ requests: 1, r1: 1, missed: [], unknown: [] })
  })

  it.each([
    ['a line that is not JSON', '{"query": "rain", "relevant": ["get_forecast"]}\n\nnope\n', 'standard input, line 3: not JSON'],
    ['a request without tools', '{"query": "rain", "relevant": []}\n', 'line 1: "relevant" must be a non-empty list'],
    ['tools that are not names', '{"query": "rain", "relevant": [7]}\n', 'line 1: "relevant" must be a non-empty list'],
    ['an empty query', '{"query": "  ", "relevant": ["get_forecast"]}\n', 'line 1: "query" must be a string of 1 to 4096'],
    ['a query tool_search refuses', `{"query": "${'x'.repeat(5000)}", "relevant": ["get_forecast"]}\n`, '"query" must be a string of 1 to 4096'],
    ['a line that is a number', '5\n', 'line 1: "query" must be a string'],
    ['no requests at all', '\n\n', 'standard input holds no requests'],
  ])('refuses %s with exit code 2 and where it is', (_, input, message) => {
    const run = cli(['eval', '-c', WEATHER, '-r', '-'], input)
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toContain(message)
  })

  it('needs --requests, takes no query, and will not read two files from standard input', () => {
    expect(cli(['eval']).stderr).toContain('--requests FILE is required')
    expect(cli(['eval', 'rain', '-r', REQUESTS]).stderr).toContain('eval takes no query')
    const both = cli(['eval', '-c', '-', '-r', '-'], '[]')
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('standard input can hold the requests or a catalog, not both')
    expect(cli(['eval', '-r', '/nonexistent/requests.jsonl']).stderr).toContain('cannot read requests /nonexistent/requests.jsonl: no such file')
  })
})
