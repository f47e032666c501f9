// The bilingual labelled set (bench/data/bilingual/README.md): its file keeps the shape and rules
// the README states, and `pnpm eval` reads it as two sets, one per language, whose requests of
// one pair share a part.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { isHeldBack } from '../../bench/lib/eval-metrics.mjs'
import { evalSets } from '../../bench/lib/eval-sets.mjs'

interface Line { id: string; pair: string; lang: 'en' | 'zh'; query: string; relevant: string[] }

const root = new URL('../../', import.meta.url)
const lines: Line[] = readFileSync(new URL('bench/data/bilingual/queries.jsonl', root), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map(line => JSON.parse(line))
const pairs = new Map<string, Line[]>()
for (const line of lines) pairs.set(line.pair, [...(pairs.get(line.pair) ?? []), line])

const sets = evalSets()
const english = sets.find(set => set.id === 'bilingual-en')
const chinese = sets.find(set => set.id === 'bilingual-zh')
const HAN = /\p{Script=Han}/u

describe('the bilingual set', () => {
  it('has at least 160 pairs, each one request in English and one in Chinese with the same labels', () => {
    expect(pairs.size).toBeGreaterThanOrEqual(160)
    for (const [pair, both] of pairs) {
      expect(both.map(line => line.lang).sort(), pair).toEqual(['en', 'zh'])
      expect(both[0]?.relevant, pair).toEqual(both[1]?.relevant)
    }
  })

  it('names each request <pair>-<lang>, with no other fields and no request written twice', () => {
    for (const line of lines) {
      expect(Object.keys(line).sort()).toEqual(['id', 'lang', 'pair', 'query', 'relevant'])
      expect(line.id).toBe(`${line.pair}-${line.lang}`)
    }
    expect(new Set(lines.map(line => line.id)).size).toBe(lines.length)
    expect(new Set(lines.map(line => line.query)).size).toBe(lines.length)
  })

  it('writes the Chinese requests in Chinese and the English ones without Chinese characters', () => {
    for (const line of lines) expect(HAN.test(line.query), line.id).toBe(line.lang === 'zh')
  })

  it('labels every request with one to three distinct tools of its catalog', () => {
    const names = new Set(english?.catalog.map(tool => tool.name))
    for (const line of lines) {
      expect(line.relevant.length, line.id).toBeGreaterThanOrEqual(1)
      expect(line.relevant.length, line.id).toBeLessThanOrEqual(3)
      expect(new Set(line.relevant).size, line.id).toBe(line.relevant.length)
      for (const name of line.relevant) expect(names.has(name), `${line.id}: ${name}`).toBe(true)
    }
  })

  it('has at least 20 pairs for the tools of a server that describes them in Chinese', () => {
    const howtocook = JSON.parse(readFileSync(new URL('catalogs/mcp/howtocook.json', root), 'utf8')) as { tools: { description: string }[] }
    expect(howtocook.tools.every(tool => HAN.test(tool.description))).toBe(true)
    const served = [...pairs.values()].filter(([line]) => line?.relevant.some(name => name.startsWith('mcp__howtocook__')))
    expect(served.length).toBeGreaterThanOrEqual(20)
  })

  it('is read by pnpm eval as one set per language over one catalog, a pair in one part by the hash of its id', () => {
    expect(english?.catalog).toBe(chinese?.catalog)
    for (const [set, lang] of [[english, 'en'], [chinese, 'zh']] as const) {
      expect(set?.requests.map(request => request.id)).toEqual(lines.filter(line => line.lang === lang).map(line => line.id))
      for (const request of set?.requests ?? []) {
        const pair = request.id.replace(/-(en|zh)$/, '')
        expect(request.part, request.id).toBe(isHeldBack(pair) ? 'held' : 'dev')
      }
    }
  })
})
