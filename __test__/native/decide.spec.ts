// The decision of a `tool_search` call through the addon (`decideAsync`, and a prefetch's,
// `strongHitsAsync`): every query form decided by the core's one set of rules, each part of the
// decision what the separate calls it is made of give, and `explain` reading the query as the
// decision does.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ToolIndex, type SearchHit } from '../../index.js'

const github = readFileSync(new URL('../../catalogs/mcp/github.json', import.meta.url), 'utf8')
const FLOOR = 0.6
const RULES = { floor: FLOOR, leaderShare: 0.5 }
const QUERIES = [
  'open a pull request', 'list the issues of a repository', 'create_issue', 'select:get_issue,create_issue,nope', 'github +issue',
  'search code for a function. Then comment on the pull request.', 'wether forcast', 'get', '天气预报', 'zebra', 'select:nope',
]

async function hybrid(): Promise<ToolIndex> {
  const index = ToolIndex.fromJson(github, { ranking: 'hybrid' })
  await index.ready()
  return index
}

const names = (hits: readonly SearchHit[]) => hits.map(hit => hit.name)

describe('ToolIndex.decideAsync', () => {
  it('loads, shows and offers what the separate calls find, for every query form, lexical and hybrid', async () => {
    for (const index of [ToolIndex.fromJson(github, { ranking: 'lexical' }), await hybrid()]) {
      for (const query of QUERIES) {
        for (const exclude of [[], ['create_issue', 'list_issues']]) {
          const at = `${index.ranking} ${query} ${exclude.length}`
          const decision = await index.decideAsync(query, 5, { exclude, ...RULES })
          const hits = index.search(query, 5, { exclude, fill: false })
          // Every hit is loaded or shown, in rank order, or the search gives its next move.
          expect([...decision.loaded, ...decision.shown], at).toEqual(decision.nextMove === undefined ? hits : [])
          if (query.startsWith('select:')) {
            expect(decision.form, at).toBe('select')
            expect(decision.loaded, at).toEqual(hits)
          } else if (hits[0]?.name === query) {
            expect(names(decision.loaded), at).toEqual([query])
          } else if (hits.length > 0 && index.matchStrength(query, hits[0]!.name) >= FLOOR) {
            const best = hits[0]!.score
            expect(decision.loaded, at).toEqual(hits.filter((hit, rank) => rank === 0 || hit.score >= RULES.leaderShare * best))
          }
          if (decision.nextMove === undefined) continue
          expect(decision.nextMove.matched, at).toBe(hits.length > 0)
          if (query.startsWith('select:')) {
            expect(decision.nextMove, at).toEqual({ matched: false, candidates: [], nearest: [] })
            continue
          }
          const candidates = index.search(query, 5, { exclude })
          expect(decision.nextMove.candidates, at).toEqual(candidates)
          expect(decision.nextMove.nearest, at).toEqual(index.nearest(query, 5, { exclude: [...exclude, ...names(candidates)] }))
        }
      }
    }
  })

  it('agrees with explain on every query form: each hit it loads or shows is explained at its place, with its score, in the form it read', async () => {
    const forms = new Set<string>()
    for (const index of [ToolIndex.fromJson(github, { ranking: 'lexical' }), await hybrid()]) {
      for (const query of [...QUERIES, 'discover: open a pull request']) {
        const decision = await index.decideAsync(query, 5, { ...RULES, leaderShare: 0 })
        forms.add(decision.form)
        for (const [place, hit] of [...decision.loaded, ...decision.shown].entries()) {
          const at = `${index.ranking} ${query} ${hit.name}`
          const explained = index.explain(query, hit.name)
          expect(explained, at).not.toBeNull()
          expect(explained?.form, at).toBe(decision.form)
          expect(explained?.score, at).toBeCloseTo(hit.score, 6)
          expect(explained?.rank, at).toBe(place + 1)
        }
      }
    }
    expect([...forms].sort()).toEqual(['discover', 'plain', 'required', 'select'])
  })

  it('shows what the rest of a discover: query finds and loads nothing; explain ranks that rest too', async () => {
    const index = await hybrid()
    const shown = await index.decideAsync('Discover: open a pull request', 3, RULES)
    expect(shown).toEqual({ form: 'discover', loaded: [], shown: index.search('open a pull request', 3, { fill: false }) })
    expect(index.search('discover: open a pull request', 3)).toEqual(index.search('open a pull request', 3))
    const first = shown.shown[0]!.name
    expect(index.explain('discover: open a pull request', first)).toEqual({ ...index.explain('open a pull request', first), form: 'discover' })
    expect(index.explain('discover:create_issue', 'create_issue')).toMatchObject({ form: 'discover', exact: true, rank: 1 })
    expect(names((await index.decideAsync('discover:select:get_issue', 3, RULES)).shown)).toEqual(['get_issue'])
    const none = await index.decideAsync('discover:reqest', 3, RULES)
    expect(none.nextMove?.nearest).toEqual(index.nearest('reqest', 5, { exclude: names(none.nextMove!.candidates) }))
    const empty = 'tool_search: discover: needs a query after it, for example "discover:github issue"'
    await expect(index.decideAsync('discover:  ', 3, RULES)).rejects.toThrow(empty)
    expect(() => index.explain('DISCOVER:', 'get_me')).toThrow(empty)
  })

  it('cuts at the leader share it is given: 0 loads every confident hit', async () => {
    const index = await hybrid()
    const query = 'create a pull request review'
    const hits = index.search(query, 5, { fill: false })
    expect(index.matchStrength(query, hits[0]!.name)).toBeGreaterThanOrEqual(FLOOR)
    expect((await index.decideAsync(query, 5, { floor: FLOOR, leaderShare: 0 })).loaded).toEqual(hits)
    const cut = await index.decideAsync(query, 5, { floor: FLOOR, leaderShare: 1 })
    expect(cut.loaded).toEqual(hits.filter(hit => hit.score === hits[0]!.score))
    expect(cut.shown).toEqual(hits.slice(cut.loaded.length))
  })

  it('rejects missing and bad parameters with a message naming them', async () => {
    const index = ToolIndex.fromJson(github, { ranking: 'lexical' })
    // @ts-expect-error missing on purpose
    await expect(index.decideAsync('issue', 5)).rejects.toThrow('options must be an object with a floor, got none')
    // @ts-expect-error missing on purpose
    await expect(index.decideAsync('issue', 5, { leaderShare: 0 })).rejects.toThrow('floor must be a number, got none')
    // @ts-expect-error missing on purpose
    await expect(index.decideAsync('issue', 5, { floor: 1 })).rejects.toThrow('leaderShare must be a number, got none')
    await expect(index.decideAsync('issue', 5, { floor: Number.NaN, leaderShare: 0 })).rejects.toThrow('floor must be a number, got NaN')
    // @ts-expect-error wrong type on purpose
    await expect(index.decideAsync('issue', 5, { floor: 1, leaderShare: '0' })).rejects.toThrow('leaderShare must be a number, got a string')
    // @ts-expect-error missing on purpose
    await expect(index.strongHitsAsync('issue', 5, {})).rejects.toThrow('floor must be a number, got none')
    await expect(index.decideAsync('issue', 1.5, RULES)).rejects.toThrow(/limit must be a whole number/)
    await expect(index.strongHitsAsync('q'.repeat(4097), 5, { floor: FLOOR })).rejects.toThrow('query is 4097 characters long; the limit is 4096')
  })
})

describe('ToolIndex.strongHitsAsync', () => {
  it('loads each hit as strong as the floor, the exact name, every named tool, and nothing for discover:', async () => {
    const index = await hybrid()
    for (const query of QUERIES) {
      const hits = index.search(query, 5, { fill: false })
      const strong = query.startsWith('select:')
        ? hits
        : hits.filter((hit, rank) => (rank === 0 && hit.name === query) || index.matchStrength(query, hit.name) >= FLOOR)
      expect(await index.strongHitsAsync(query, 5, { floor: FLOOR }), query).toEqual(strong)
    }
    expect(await index.strongHitsAsync('discover: open a pull request', 5, { floor: 0 })).toEqual([])
  })
})
