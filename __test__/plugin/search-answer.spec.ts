// What a tool_search call answers beyond ranked hits, on the real DSH runtime: `discover:` shows
// schemas and loads nothing, live and after a resume; a search that finds nothing strong loads
// nothing and says what to do next, with every field declared in the tool's output schema (DSH
// validates the value against it, so a stray field would fail the call).
import { describe, expect, it } from 'vitest'
import { DEFAULT_CORE_TOOLS } from '../../plugin/offer/core-tools.ts'
import { LEADER_SHARE } from '../../plugin/search/leaders.ts'
import { replaySelection } from '../../plugin/selection/result.ts'
import type { ToolSearchPayload } from '../../plugin/search/payload.ts'
import { CORE_FIXTURES, DEFERRED_FIXTURES, type FixtureTool } from '../support/fixtures.ts'
import { NATIVE, type Harness, type HarnessOptions } from '../support/harness.ts'
import { perTest } from '../support/per-test.ts'
import { reply, toolCall } from '../support/scripted-model.ts'
import { loggedBlocks, loggedDispatch, loggedResult } from '../support/session.ts'

const WEATHER = 'mcp__weather__forecast'

const scope = perTest()

function started(options: HarnessOptions = {}): Promise<Harness> {
  return scope.harness({ plugin: NATIVE, ...options })
}

function deferredOffered(harness: Harness, index = -1): string[] {
  return harness.model.toolNames(harness.model.requests.at(index))
    .filter(name => !DEFAULT_CORE_TOOLS.includes(name) && name !== 'tool_search' && name !== 'todo_write')
}

const payloadOf = (text: string) => JSON.parse(text) as ToolSearchPayload

describe('discover:<query>', () => {
  it('returns the matches with their full parameter schemas, and the next request offers nothing new', async () => {
    const h = await started()
    const { agent } = await h.agent('a')
    await h.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'discover: weather forecast', limit: 1 }), reply('ok'))
    const result = loggedResult(agent, 'c1')
    expect(result.isError).toBe(false)
    const payload = payloadOf(result.text)
    expect(Object.keys(payload)).toEqual(['schemaVersion', 'query', 'discover', 'tools'])
    expect(payload).toMatchObject({ schemaVersion: 1, query: 'discover: weather forecast', discover: true })
    expect(payload.tools.map(tool => tool.name)).toEqual([WEATHER])
    expect(payload.tools[0]?.parameters).toEqual(h.ctx.tools.get(WEATHER)?.parameters)
    expect(deferredOffered(h, 1)).toEqual([])
  })

  it('selects nothing on resume either, while a plain search in the same log does', async () => {
    const root = await scope.dir()
    const first = await started({ persistenceRoot: root })
    const { agent } = await first.agent('a1')
    await first.run(agent, 'look', toolCall('c1', 'tool_search', { query: 'DISCOVER:send email' }), toolCall('c2', 'tool_search', { query: 'weather forecast', limit: 1 }), reply('ok'))
    await first.ctx.sessions.flush(agent.session)
    await scope.close(first)
    const second = await started({ persistenceRoot: root })
    const { agent: resumed } = await second.resume('a1')
    await second.run(resumed, 'continue', reply('ok'))
    expect(deferredOffered(second)).toEqual([WEATHER])
  })

  it('selects nothing from inside run_code either', async () => {
    const h = await started({ mode: 'code' })
    const { agent } = await h.agent('a')
    await h.run(agent, 'look',
      toolCall('c1', 'run_code', { code: 'return await tools.tool_search({ query: "discover:weather" })', description: 'Look at the weather tool' }),
      reply('ok'))
    expect(payloadOf(loggedDispatch(agent, 'c1:code:1').text)).toMatchObject({ discover: true, tools: [{ name: WEATHER }] })
    expect(h.model.system()).not.toMatch(new RegExp(`^ {2}${WEATHER}: `, 'm'))
  })

  it('needs a query after the prefix', async () => {
    const h = await started()
    const { agent } = await h.agent('a')
    await h.run(agent, 'look', toolCall('c1', 'tool_search', { query: 'discover:  ' }), reply('ok'))
    const empty = loggedResult(agent, 'c1')
    expect(empty.isError).toBe(true)
    expect(empty.text).toContain('discover: needs a query after it')
  })
})

describe('a search that finds nothing strong', () => {
  it('loads nothing and gives the next move: groups, names spelled like the query, and select:', async () => {
    const h = await started()
    const { agent } = await h.agent('a')
    await h.run(agent, 'slack?', toolCall('c1', 'tool_search', { query: 'wether forcast' }), reply('ok'))
    const payload = payloadOf(loggedResult(agent, 'c1').text)
    expect(payload.tools).toEqual([])
    expect(payload.note).toMatch(/^No deferred tool matches this query; nothing was loaded\. .*select:name/)
    expect(payload.nearest?.[0]).toBe(WEATHER)
    expect(payload.groups?.map(group => group.name)).toEqual(['mcp__github', 'mcp__mail', 'mcp__postgres', 'mcp__weather'])
    expect(payload.otherTools).toBe(1)
    expect(deferredOffered(h)).toEqual([])
  })

  it('with no match at all, offers the nearest tools by meaning as candidates and loads none of them', async () => {
    const h = await started()
    const { agent } = await h.agent('a')
    await h.run(agent, 'q', toolCall('c1', 'tool_search', { query: 'a giraffe in the savanna', limit: 3 }), reply('ok'))
    const payload = payloadOf(loggedResult(agent, 'c1').text)
    expect(payload.tools).toEqual([])
    expect(payload.note).toMatch(/^No deferred tool matches this query \(the candidates are the nearest by meaning\); nothing was loaded\./)
    expect(payload.candidates).toHaveLength(3)
    expect(deferredOffered(h)).toEqual([])
  })

  it('shows weak matches as candidates without loading them, and select: then loads one', async () => {
    // "markdown" is only in the GitHub tool's body parameter, deep in its schema: a weak match.
    const h = await started()
    const { agent } = await h.agent('a')
    await h.run(agent, 'q', toolCall('c1', 'tool_search', { query: 'markdown for the nightly numbers' }), toolCall('c2', 'tool_search', { query: 'select:mcp__github__create_issue' }), reply('ok'))
    const weak = payloadOf(loggedResult(agent, 'c1').text)
    expect(weak.tools).toEqual([])
    expect(weak.note).toMatch(/^Only weak matches \(the candidates\); nothing was loaded\./)
    expect(weak.candidates?.map(hit => hit.name)).toContain('mcp__github__create_issue')
    expect(deferredOffered(h, 1)).toEqual([])
    expect(deferredOffered(h)).toEqual(['mcp__github__create_issue'])
  })

  it('a strong match is answered as before: the plain version-1 payload', async () => {
    const h = await started()
    const { agent } = await h.agent('a')
    await h.run(agent, 'w', toolCall('c1', 'tool_search', { query: 'weather forecast for Paris', limit: 1 }), reply('ok'))
    const payload = payloadOf(loggedResult(agent, 'c1').text)
    expect(Object.keys(payload)).toEqual(['schemaVersion', 'query', 'tools'])
    expect(payload.tools.map(tool => tool.name)).toEqual([WEATHER])
  })
})

describe('a confident search under stable loading loads its leaders', () => {
  const REFUND = 'mcp__shop__refund_order'
  const CURRENCY = 'mcp__finance__convert_currency'
  const STOCK = 'mcp__finance__stock_quote'
  const MONEY: readonly FixtureTool[] = [
    { name: REFUND, description: 'Refund an order to the customer\'s original payment method.', properties: { order: 'Order id.' } },
    { name: CURRENCY, description: 'Convert an amount of money from one currency to another.', properties: { amount: 'Amount.', to: 'Target currency.' } },
    { name: STOCK, description: 'Get the latest price of a stock by its ticker symbol.', properties: { ticker: 'Ticker symbol.' } },
  ]
  const withMoney = (options: HarnessOptions = {}) =>
    started({ tools: [...CORE_FIXTURES, ...DEFERRED_FIXTURES, ...MONEY], plugin: { loading: 'stable' }, ...options })
  const MONEY_BACK = { query: 'give my customer their money back', limit: 3 }
  /** The search's JSON block, and its definitions block. */
  const searched = (agent: Parameters<typeof loggedBlocks>[0], id: string) => {
    const [selection, definitions] = loggedBlocks(agent, id)
    return { payload: payloadOf(selection!), definitions: definitions ?? '' }
  }
  const selected = (agent: { session: { events: Parameters<typeof replaySelection>[0] } }) => [...replaySelection(agent.session.events).selected].sort()

  it('shows a hit far below the best as a candidate, defines and selects the rest, and replay selects the same', async () => {
    const root = await scope.dir()
    const first = await withMoney({ persistenceRoot: root })
    const { agent } = await first.agent('a1')
    await first.run(agent, 'refund', toolCall('c1', 'tool_search', MONEY_BACK), reply('ok'))
    const { payload, definitions } = searched(agent, 'c1')
    // The currency converter scores close to the refund tool ("money"); the third hit, whichever
    // tool the ranking puts there, far below both.
    expect(payload.tools.map(tool => tool.name).sort()).toEqual([CURRENCY, REFUND])
    expect(payload.candidates).toHaveLength(1)
    const far = payload.candidates![0]!
    expect(far.score).toBeLessThan(LEADER_SHARE * payload.tools[0]!.score)
    expect(payload.note).toMatch(/select:name/)
    expect(definitions).toContain(REFUND)
    expect(definitions).toContain(CURRENCY)
    expect(definitions).not.toContain(far.name)
    expect(selected(agent)).toEqual([CURRENCY, REFUND])
    await first.ctx.sessions.flush(agent.session)
    await scope.close(first)
    const second = await withMoney({ persistenceRoot: root })
    const { agent: resumed } = await second.resume('a1')
    expect(selected(resumed)).toEqual([CURRENCY, REFUND])
  })

  it('loads every tool select: names', async () => {
    const h = await withMoney()
    const { agent } = await h.agent('a')
    await h.run(agent, 'q', toolCall('c1', 'tool_search', { query: `select:${STOCK},${REFUND},${WEATHER}` }), reply('ok'))
    const { payload } = searched(agent, 'c1')
    expect(payload.tools.map(tool => tool.name)).toEqual([STOCK, REFUND, WEATHER])
    expect(payload).not.toHaveProperty('candidates')
    expect(selected(agent)).toEqual([STOCK, REFUND, WEATHER].sort())
  })

  it('loads the tool a search names exactly alone and shows every other hit', async () => {
    const h = await withMoney()
    const { agent } = await h.agent('a')
    await h.run(agent, 'q', toolCall('c1', 'tool_search', { query: STOCK, limit: 3 }), reply('ok'))
    const { payload } = searched(agent, 'c1')
    // The exact name asks for one tool: it loads alone, whatever the others score; the next two
    // hits are shown, not loaded.
    expect(payload.tools.map(tool => tool.name)).toEqual([STOCK])
    expect(payload.candidates).toHaveLength(2)
    expect(payload.candidates!.map(hit => hit.name)).not.toContain(STOCK)
    expect(selected(agent)).toEqual([STOCK])
  })

  it('is stable loading\'s alone: under native every confident hit loads, as each search re-bills the conversation', async () => {
    const h = await withMoney({ plugin: NATIVE })
    const { agent } = await h.agent('a')
    await h.run(agent, 'refund', toolCall('c1', 'tool_search', MONEY_BACK), reply('ok'))
    const payload = payloadOf(loggedResult(agent, 'c1').text)
    // The same three hits as under stable, the one far below the best included.
    const loaded = payload.tools.map(tool => tool.name).sort()
    expect(loaded).toHaveLength(3)
    expect(loaded).toEqual(expect.arrayContaining([CURRENCY, REFUND]))
    expect(payload).not.toHaveProperty('candidates')
    expect(deferredOffered(h).sort()).toEqual(loaded)
  })
})
