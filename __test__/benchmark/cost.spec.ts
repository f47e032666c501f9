import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { bill, breakEvenStep, cumulativeByStep } from '../../bench/cost/billing.mjs'
import { checkCostSection, costSection, toolSurface } from '../../bench/cost/cost.mjs'
import { evictionPayback } from '../../bench/cost/eviction.mjs'
import { costParameters, DEFAULT_COST_PARAMETERS } from '../../bench/cost/parameters.mjs'
import { sessionRequests } from '../../bench/cost/session.mjs'
import { SETTINGS } from '../../plugin/contract.ts'

const results = JSON.parse(readFileSync(new URL('../../docs/benchmark-results.json', import.meta.url), 'utf8'))

// Prices of 1, 10 and 100 per million tokens make a request's cost read as hit + 10 * miss + 100 * output.
const prices = { cacheHit: 1, cacheMiss: 10, output: 100 }
const units = (dollars: number) => Math.round(dollars * 1e6)

const shape = { steps: 12, stepsPerTurn: 4, searchEveryTurns: 2, userTokens: 10, resultTokens: 100, outputTokens: 20, searchCallTokens: 5 }
const surface = { full: 5000, initial: 300, perTool: 200, hits: 3, deferred: 5, payload: 50 }

describe('the prefix-cache billing', () => {
  it('bills the first request uncached, then only what is new while the tools stay the same', () => {
    const billed = bill([
      { step: 1, toolsVersion: 0, toolsTokens: 1000, newTokens: 10, outputTokens: 20 },
      { step: 2, toolsVersion: 0, toolsTokens: 1000, newTokens: 100, outputTokens: 20 },
    ], prices)
    expect(billed.map(({ hit, miss }) => [hit, miss])).toEqual([[0, 1010], [1030, 100]])
    expect(billed.map(request => units(request.cost))).toEqual([1010 * 10 + 20 * 100, 1030 + 100 * 10 + 20 * 100])
  })

  it('bills the tools and the whole conversation uncached, once, when the tools change', () => {
    const billed = bill([
      { step: 1, toolsVersion: 0, toolsTokens: 1000, newTokens: 10, outputTokens: 20 },
      { step: 2, toolsVersion: 1, toolsTokens: 1200, newTokens: 100, outputTokens: 20 },
      { step: 3, toolsVersion: 1, toolsTokens: 1200, newTokens: 100, outputTokens: 20 },
    ], prices)
    expect(billed.map(({ hit, miss }) => [hit, miss])).toEqual([[0, 1010], [0, 1330], [1350, 100]])
  })

  it('adds up the requests of each step', () => {
    const billed = bill(sessionRequests({ ...shape, steps: 3 }, surface, { defer: true, prefetch: 0 }), prices)
    const totals = cumulativeByStep(billed, 3)
    expect(billed.map(request => request.step)).toEqual([1, 1, 2, 3])
    expect(totals[0]).toBeCloseTo((billed[0]?.cost ?? 0) + (billed[1]?.cost ?? 0), 12)
    expect(totals[2]).toBeCloseTo(billed.reduce((sum, request) => sum + request.cost, 0), 12)
  })
})

describe('the modelled session', () => {
  it('offers every tool throughout when nothing is deferred', () => {
    const requests = sessionRequests(shape, surface, { defer: false })
    expect(requests).toHaveLength(12)
    expect(new Set(requests.map(request => `${request.toolsVersion}:${request.toolsTokens}`))).toEqual(new Set(['0:5000']))
  })

  it('searches in a request of its own at the start of every other turn, until nothing is deferred', () => {
    const requests = sessionRequests(shape, surface, { defer: true, prefetch: 0 })
    // Turns start at steps 1, 5 and 9; turns 1 and 3 search. The second search finds the last 2 tools.
    const searches = requests.filter(request => request.outputTokens === shape.searchCallTokens)
    expect(searches.map(request => request.step)).toEqual([1, 9])
    expect(requests.find(request => request.step === 1 && request.outputTokens === shape.outputTokens)).toMatchObject({ toolsTokens: 900, newTokens: 50, toolsVersion: 1 })
    expect(requests.at(-1)).toMatchObject({ toolsTokens: 1300, toolsVersion: 2 })
    expect(sessionRequests({ ...shape, steps: 20 }, surface, { defer: true, prefetch: 0 }).filter(request => request.outputTokens === shape.searchCallTokens)).toHaveLength(2)
  })

  it('adds the prefetched tools at the first request of every turn, beside the searches', () => {
    const requests = sessionRequests(shape, surface, { defer: true, prefetch: 1 })
    const firstOfTurn = (step: number) => requests.find(request => request.step === step)
    expect(firstOfTurn(1)).toMatchObject({ toolsTokens: 500, toolsVersion: 1, outputTokens: shape.searchCallTokens })
    expect(firstOfTurn(5)).toMatchObject({ toolsTokens: 1300, toolsVersion: 3, outputTokens: shape.outputTokens })
    expect(requests.at(-1)).toMatchObject({ toolsTokens: 1300 })
  })
})

describe('an eviction', () => {
  it('is taken past the middle of the long session, in a turn without a search, and weighed against the schemas it drops', () => {
    const { steps: _, ...session } = shape
    const parameters = { prices: { ...DEFAULT_COST_PARAMETERS.prices, ...prices }, session: { ...session, stepsPerTurn: 5 }, sessionSteps: [10, 20], prefetch: 0 }
    const payback = evictionPayback(parameters, { initial: 300, perTool: 200, hits: 3, payload: 50 })
    // Step 11 starts a searching turn, so step 16. Before it: two searches (each a request of 10
    // in, 5 out, then the 50-token result and 20 out), one turn start without (10 in, 20 out) and
    // twelve ordinary steps (100 in, 20 out): 1,640 tokens of conversation; the tools are 300 +
    // 2 x 3 x 200. Billed uncached instead of cached: 900 tools left + 1,640 at 10 - 1 per token.
    expect(payback).toMatchObject({ steps: 20, step: 16, tools: 3, tokens: 600, paybackSteps: Math.ceil((2540 * 9) / 600) })
    expect(units(payback.cost)).toBe(2540 * 9)
  })
})

describe('the break-even step', () => {
  it('is the step from which the session stays cheaper, or null when it is not cheaper at the end', () => {
    expect(breakEvenStep([1, 2, 3], [2, 3, 4])).toBe(1)
    expect(breakEvenStep([3, 4, 5], [2, 4, 6])).toBe(3)
    // Cheaper at first, then a late search makes it dearer again.
    expect(breakEvenStep([1, 2, 9], [2, 3, 4])).toBeNull()
    expect(breakEvenStep([1, 5, 6], [2, 4, 7])).toBe(3)
  })
})

describe('the cost section of the recorded results', () => {
  interface SessionRow { steps: number; saved: { deferred: number }; breakEvenStep: { deferred: number | null } }
  const rows = new Map<string, { sessions: SessionRow[] }>(results.cost.rows.map((row: { id: string }) => [row.id, row]))
  const session = (id: string, steps: number) => rows.get(id)?.sessions.find(s => s.steps === steps)

  it('follows from the recorded token table and parameters', () => {
    expect(checkCostSection(results.tokens, results.cost)).toEqual([])
    expect(results.cost.rows.map((row: { id: string }) => row.id)).toEqual(results.tokens.rows.map((row: { id: string }) => row.id))
  })

  it('is reported as stale when one of its figures changes', () => {
    const edited = structuredClone(results.cost)
    edited.rows[0].sessions[0].cost.all += 0.01
    expect(checkCostSection(results.tokens, edited)).toHaveLength(1)
    expect(checkCostSection(results.tokens, undefined)[0]).toContain('no cost section')
  })

  it('has a catalog where deferring loses and one where it wins from the first step', () => {
    expect(session('synthetic-10', 50)?.saved.deferred).toBeLessThan(0)
    expect(session('synthetic-10', 50)?.breakEvenStep.deferred).toBeNull()
    expect(session('bfcl', 50)?.breakEvenStep.deferred).toBe(1)
  })

  it('reads a row\'s tool tokens as the session model needs them', () => {
    const row = results.tokens.rows.find((candidate: { id: string }) => candidate.id === 'dsh-headless')
    const read = toolSurface(row)
    expect(read.hits).toBe(row.withPlugin.afterSearch.hits.length)
    expect(read.initial + read.hits * read.perTool).toBeCloseTo(row.withPlugin.afterSearch.toolsTokens, 9)
    expect(read.deferred).toBe(row.tools - row.withPlugin.initial.offered + 1)
  })

  it('is where the default autoMinTokens comes from: the 50-step break-even, rounded up to ten thousand', () => {
    const long = results.cost.breakEvenDeferredTokens.sessions.find((entry: { steps: number }) => entry.steps === 50)?.tokens as number
    expect(SETTINGS.autoMinTokens.default).toBe(Math.ceil(long / 10_000) * 10_000)
  })

  it('is where the default maxSelected comes from: an eviction does not pay for itself within the long session', () => {
    expect(results.cost.eviction.paybackSteps).toBeGreaterThan(results.cost.eviction.steps)
    expect(SETTINGS.maxSelected.default).toBe(0)
  })

  it('puts the break-even catalog of a longer session above that of a shorter one', () => {
    const computed = costSection(results.tokens, DEFAULT_COST_PARAMETERS).breakEvenDeferredTokens.sessions
    const [short, long] = computed.map(({ tokens }) => tokens as number)
    expect(short).toBeGreaterThan(0)
    expect(long).toBeGreaterThan(short as number)
  })
})

describe('the parameters', () => {
  it('take prices and prefetch from the command line and name prices that were replaced', () => {
    const parameters = costParameters({ 'price-hit': '0.003', prefetch: '0' })
    expect(parameters.prices).toMatchObject({ cacheHit: 0.003, cacheMiss: DEFAULT_COST_PARAMETERS.prices.cacheMiss })
    expect(parameters.prices.name).toContain('cacheHit given on the command line')
    expect(parameters.prefetch).toBe(0)
    expect(costParameters({})).toEqual(DEFAULT_COST_PARAMETERS)
  })

  it('refuse what is not a price or a prefetch', () => {
    expect(() => costParameters({ 'price-miss': 'cheap' })).toThrow('--price-miss must be a price')
    expect(() => costParameters({ 'price-output': '-1' })).toThrow('--price-output')
    expect(() => costParameters({ prefetch: '11' })).toThrow('--prefetch must be a whole number from 0 to 10')
  })
})
