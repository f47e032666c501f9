// Retrieval quality guards over every labelled set `pnpm eval` ranks (bench/data/README.md), for
// both rankings: every tool found first by its exact name; on BFCL, Recall@5 no lower than the
// seed ranking's; outside BFCL, the default (hybrid) ranking no worse than BM25F alone; a tool
// the query quotes (four characters of its Chinese description no other tool holds) first. The
// bilingual set's two languages are reported apart, pair by pair in the same parts.
// `pnpm eval` prints the full figures.
import { describe, expect, it } from 'vitest'
import { runEval } from '../../bench/eval.mjs'
import { RANKINGS, type Ranking } from '../../bench/lib/eval-figures.mjs'

const { sets } = await runEval()

function set(id: string) {
  const found = sets.find(candidate => candidate.id === id)
  if (found === undefined) throw new Error(`pnpm eval reports no set ${id}`)
  return found
}

function part(id: string, ranking: Ranking, name: 'all' | 'dev' | 'held') {
  const metrics = set(id)[ranking][name]
  if (metrics === undefined) throw new Error(`${id} has no ${name} part`)
  return metrics
}

describe('the labelled sets', () => {
  it('are all there, whole: six sources, their union, the bilingual set, the multi-step set and the written MCP requests in each language, and the literal phrases', () => {
    expect(sets.map(({ id, tools, lexical }) => [id, tools, lexical.all.requests])).toEqual([
      ['bfcl', 1437, 1150],
      ['bfcl-live', 528, 1350],
      ['tau2-bench', 42, 155],
      ['tooltalk', 28, 78],
      ['tau2-banking', 57, 54],
      ['agentdojo', 69, 97],
      ['union', 1725, 155 + 78 + 54 + 97],
      ['bilingual-en', 305, 195],
      ['bilingual-zh', 305, 195],
      ['bilingual-zh-over-en', 305, 162],
      ['multistep-en', 305, 748],
      ['multistep-zh', 305, 748],
      ['written-en', 1109, 1017],
      ['written-zh', 1109, 1017],
      ['written-zh-over-en', 1109, 1011],
      ['literal-alibabacloud-devops', 203, 46],
      ['literal-amap', 12, 12],
      ['literal-baidu-map', 10, 10],
      ['literal-cloudbase', 40, 40],
      ['literal-mcp-fetch', 1, 1],
      ['literal-antd', 4, 4],
      ['literal-howtocook', 5, 5],
      ['literal-own', 275, 118],
      ['literal-mixed', 1218, 118],
    ])
  })

  it('count AgentDojo as held in the union, as it is held out whole', () => {
    const union = part('union', 'lexical', 'held').requests
    const held = ['tau2-bench', 'tooltalk', 'tau2-banking'].reduce((sum, id) => sum + part(id, 'lexical', 'held').requests, 0)
    expect(union).toBe(held + part('agentdojo', 'lexical', 'all').requests)
  })

  it('split the bilingual set by pair: each part holds the same requests in both languages', () => {
    for (const name of ['dev', 'held'] as const) {
      expect(part('bilingual-zh', 'lexical', name).requests).toBe(part('bilingual-en', 'lexical', name).requests)
    }
    expect(part('bilingual-en', 'lexical', 'held').requests).toBe(55)
  })
})

describe.each(RANKINGS)('the %s ranking', ranking => {
  it.each(sets.map(({ id }) => id))('finds every tool of %s first by its exact name', id => {
    expect(set(id)[ranking].exactNameR1).toBe(1)
  })

  it('keeps BFCL dev Recall@5 at or above the seed ranking on all requests and on the held part', () => {
    expect(part('bfcl', ranking, 'all').r5).toBeGreaterThanOrEqual(0.899)
    expect(part('bfcl', ranking, 'held').r5).toBeGreaterThanOrEqual(0.899)
  })

  it('keeps the BFCL live check set at or above the seed ranking', () => {
    // The seed ranking, reproduced in the first commit, scores R@5 0.835 and NDCG@10 0.728 here.
    expect(part('bfcl-live', ranking, 'all').r5).toBeGreaterThanOrEqual(0.835)
    expect(part('bfcl-live', ranking, 'all').ndcg10).toBeGreaterThanOrEqual(0.728)
  })
})

describe('the default ranking outside BFCL', () => {
  // Hybrid may trail BM25F alone by at most one request's worth: 1/n of the n requests compared,
  // the smallest loss that is a whole request rather than part of one (a single label of a
  // four-label request falling from 5th to 6th moves a mean by a quarter of that). Less is the
  // resolution of a small set, not a ranking that is worse.
  const compared = [
    ...['tau2-bench', 'tooltalk', 'tau2-banking', 'agentdojo'].map(id => ({ id, name: 'all' as const })),
    { id: 'union', name: 'dev' as const },
    { id: 'union', name: 'held' as const },
    ...['written-en', 'written-zh'].map(id => ({ id, name: 'dev' as const })),
  ]

  it.each(compared)('is no worse than BM25F alone at Recall@5 on $id ($name)', ({ id, name }) => {
    const lexical = part(id, 'lexical', name)
    expect(part(id, 'hybrid', name).r5).toBeGreaterThanOrEqual(lexical.r5 - 1 / lexical.requests)
  })
})

describe('literal phrases in the default ranking', () => {
  // Before the phrase rule (docs/search.md, "A phrase only one tool holds") the blend ranked
  // such a tool first for 39% to 63% of them; the issue that asked for it set the bar at 95%.
  it.each(['literal-own', 'literal-mixed'])('rank the quoted tool first for at least 95%% of %s on both parts', id => {
    for (const name of ['dev', 'held'] as const) expect(part(id, 'hybrid', name).r1).toBeGreaterThanOrEqual(0.95)
  })
})

describe('Chinese requests in the default ranking', () => {
  // The glossary reads a Chinese request's words in English (docs/search.md, "A Chinese query"):
  // without it the bilingual set's Chinese requests reach R@5 0.236 on either part, with it 0.638
  // on the dev part its choices were made on and 0.582 on the held part.
  it.each(['dev', 'held'] as const)('find their tools through the glossary on the %s part', name => {
    expect(part('bilingual-zh', 'hybrid', name).r5).toBeGreaterThanOrEqual(0.5)
    expect(part('bilingual-zh', 'hybrid', name).r5).toBeGreaterThan(part('bilingual-zh', 'lexical', name).r5 + 0.25)
  })
})
