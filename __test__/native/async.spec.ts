// The asynchronous side of the native contract: `searchAsync` and `answerAsync` rank on the
// core's own threads and give exactly what the synchronous calls give, however many run at once
// (`decideAsync`, the plugin's, has decide.spec.ts).
import { readFileSync } from 'node:fs'
import { setImmediate as macrotask } from 'node:timers/promises'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { ToolIndex } from '../../index.js'

const github = readFileSync(new URL('../../catalogs/mcp/github.json', import.meta.url), 'utf8')
const QUERIES = [
  'open a pull request', 'list the issues of a repository', 'create_issue', 'select:get_me,create_issue', 'github +issue',
  'search code for a function. Then comment on the pull request.', 'wether forcast', 'get', '天气预报', 'zebra',
]
const OPTIONS = [undefined, { fill: false }, { exclude: ['create_issue', 'get_issue'] }, { exclude: ['list_issues'], fill: false }]

/** A hybrid index of the recorded GitHub server with the transformer's vectors in place. */
async function hybrid(): Promise<ToolIndex> {
  const index = ToolIndex.fromJson(github, { ranking: 'hybrid' })
  await index.ready()
  return index
}

describe('ToolIndex.searchAsync', () => {
  it('gives exactly the hits search gives, for every query form and option, lexical and hybrid', async () => {
    for (const index of [ToolIndex.fromJson(github, { ranking: 'lexical' }), await hybrid()]) {
      for (const query of QUERIES) {
        for (const options of OPTIONS) {
          for (const limit of [0, 1, 5, 1000]) {
            expect(await index.searchAsync(query, limit, options), `${index.ranking} ${query} ${limit} ${JSON.stringify(options)}`).toEqual(index.search(query, limit, options))
          }
        }
      }
    }
  })

  it('gives every one of many searches at once the same hits as alone', async () => {
    const index = await hybrid()
    const asked = Array.from({ length: 200 }, (_, i) => QUERIES[i % QUERIES.length]!)
    const answers = await Promise.all(asked.map(query => index.searchAsync(query, 5)))
    expect(answers).toEqual(asked.map(query => index.search(query, 5)))
  })

  it('rejects what search refuses, with the same message', async () => {
    const index = ToolIndex.fromJson(github, { ranking: 'lexical' })
    const refusals: [unknown, unknown, unknown][] = [
      ['q'.repeat(4097), 5, undefined], [42, 5, undefined], ['issue', -1, undefined], ['issue', 0.5, undefined],
      ['issue', 5, { exclude: 'create_issue' }], ['issue', 5, { exclude: ['x'.repeat(1025)] }], ['issue', 5, { fill: 'no' }], ['issue', 5, 'options'],
    ]
    for (const [query, limit, options] of refusals) {
      // @ts-expect-error wrong types on purpose
      const sync = (() => { try { index.search(query, limit, options) } catch (error) { return (error as Error).message } })()
      expect(sync).toBeTypeOf('string')
      // @ts-expect-error wrong types on purpose
      await expect(index.searchAsync(query, limit, options)).rejects.toThrow(sync)
    }
  })

  it('lets JavaScript run while it ranks, and outlives the index object it was asked of', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    // 100,000 tools and a 4,096-character query of a hundred requests: tens of milliseconds of ranking.
    const tools = Array.from({ length: 100_000 }, (_, i) => ({ name: `tool_${i}`, description: `Finds the weather forecast of city ${i}.` }))
    const request = 'Find the weather forecast for a city. '
    const query = request.repeat(Math.ceil(4096 / request.length)).slice(0, 4096).trim()
    let index: ToolIndex | undefined = ToolIndex.fromJson(JSON.stringify(tools), { ranking: 'lexical' })
    const expected = index.search(query, 5)
    const pending = index.searchAsync(query, 5)
    index = undefined
    gc()
    let turns = 0
    let settled = false
    void pending.finally(() => { settled = true })
    while (!settled) {
      await macrotask()
      turns += 1
    }
    expect(await pending).toEqual(expected)
    // Ranked on the JavaScript thread, the promise would have settled before any turn came.
    expect(turns).toBeGreaterThan(1)
  })
})

describe('ToolIndex.answerAsync', () => {
  it('gives what the separate calls give: hits, strengths and, for a weak answer, candidates and nearest names', async () => {
    for (const index of [ToolIndex.fromJson(github, { ranking: 'lexical' }), await hybrid()]) {
      for (const query of QUERIES) {
        for (const exclude of [[], ['create_issue', 'list_issues']]) {
          const answer = await index.answerAsync(query, 5, { exclude, weakBelow: 0.6 })
          const hits = index.search(query, 5, { exclude, fill: false })
          expect(answer.hits, query).toEqual(hits)
          expect(answer.strengths, query).toEqual(hits.map(hit => index.matchStrength(query, hit.name)))
          const weak = !query.startsWith('select:') && (hits.length === 0 || answer.strengths[0]! < 0.6)
          if (!weak) {
            expect(answer, query).not.toHaveProperty('candidates')
            continue
          }
          const candidates = index.search(query, 5, { exclude })
          expect(answer.candidates, query).toEqual(candidates)
          expect(answer.nearest, query).toEqual(index.nearest(query, 5, { exclude: [...exclude, ...candidates.map(hit => hit.name)] }))
        }
      }
    }
  })

  it('reads the next move only when asked: weakBelow omitted, or 0 with a match', async () => {
    const index = ToolIndex.fromJson(github, { ranking: 'lexical' })
    expect(await index.answerAsync('reqest', 5)).toEqual({ hits: [], strengths: [] })
    expect(await index.answerAsync('get', 5, { weakBelow: 0 })).not.toHaveProperty('nearest')
    const nothing = await index.answerAsync('reqest', 5, { weakBelow: 0, nearest: 2 })
    expect(nothing.nearest).toHaveLength(2)
    expect(nothing.nearest).toEqual(index.nearest('reqest', 2))
  })

  it('rejects bad options with a message naming them', async () => {
    const index = ToolIndex.fromJson(github, { ranking: 'lexical' })
    await expect(index.answerAsync('issue', 5, { weakBelow: Number.NaN })).rejects.toThrow('weakBelow must be a number, got NaN')
    // @ts-expect-error wrong type on purpose
    await expect(index.answerAsync('issue', 5, { weakBelow: '0.6' })).rejects.toThrow('weakBelow must be a number, got a string')
    await expect(index.answerAsync('issue', 5, { weakBelow: 1, nearest: -1 })).rejects.toThrow('nearest must be a whole number of names (0 or more)')
    await expect(index.answerAsync('q'.repeat(4097), 5)).rejects.toThrow('query is 4097 characters long; the limit is 4096')
    // @ts-expect-error wrong type on purpose
    await expect(index.answerAsync('issue', 5, { exclude: [1] })).rejects.toThrow('exclude[0]: tool name must be a string, got a number')
  })
})
