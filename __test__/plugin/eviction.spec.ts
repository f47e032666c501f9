// maxSelected on the real DSH runtime: which tools leave an Agent's selection and when, how they
// come back, and that resume and fork rebuild the same set from the session's records. DSH's
// invariant companions of the session, agent, agent loop and tool runtime watch every run.
import { rm } from 'node:fs/promises'
import * as AgentInvariant from '@deepseek-ai/dsh-agent/invariant'
import * as AgentLoopInvariant from '@deepseek-ai/dsh-agent-loop/invariant'
import InvariantRegistry from '@deepseek-ai/dsh-invariants'
import * as SessionInvariant from '@deepseek-ai/dsh-session/invariant'
import { SessionId } from '@deepseek-ai/dsh-session'
import * as ToolsInvariant from '@deepseek-ai/dsh-tools/invariant'
import { afterEach, describe, expect, it } from 'vitest'
import type { Config } from '../../plugin/host/config.ts'
import { DEFERRED_NAMES } from '../support/fixtures.ts'
import { createHarness, tempDir, type Harness, NATIVE } from '../support/harness.ts'
import { reply, toolCall } from '../support/scripted-model.ts'
import { changeSettings } from '../support/settings.ts'

const WEATHER = 'mcp__weather__forecast'
const GITHUB = 'mcp__github__create_issue'
const POSTGRES = 'mcp__postgres__query'
const MAIL = 'mcp__mail__send_email'

/** What each test leaves to close: harnesses first, then the folders they wrote to. */
const teardown: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const step of teardown.splice(0).reverse()) await step()
})

async function harnessWith(plugin: Partial<Config>, persistenceRoot?: string): Promise<Harness> {
  const harness = await createHarness({ plugin: { ...NATIVE, ...plugin }, settings: true, ...(persistenceRoot === undefined ? {} : { persistenceRoot }) })
  teardown.push(() => harness.close())
  await harness.ctx.plugin(InvariantRegistry, { enabled: true })
  for (const companion of [SessionInvariant, AgentInvariant, AgentLoopInvariant, ToolsInvariant]) await harness.ctx.plugin(companion)
  return harness
}

/** The deferred fixture tools a request offered, sorted. */
function deferredOffered(h: Harness, request = h.model.requests.at(-1)): string[] {
  return h.model.toolNames(request).filter(name => DEFERRED_NAMES.includes(name)).sort()
}

/** The plugin's selection records in an Agent's session: their root call ids and payloads. */
function records(agent: Parameters<Harness['run']>[0]): { root: string; payload: unknown }[] {
  return agent.session.events.flatMap((event) => {
    if (event.type !== 'tool/code-dispatch') return []
    const data = event.data as { rootCallId: string; content: { text?: string }[] }
    return [{ root: data.rootCallId, payload: JSON.parse(data.content[0]?.text ?? 'null') as unknown }]
  })
}

/** One search that finds exactly one tool. */
const search = (id: string, query: string) => toolCall(id, 'tool_search', { query, limit: 1 })

/**
 * A first turn that selects weather, GitHub and Postgres, calling weather between: the least
 * recently used of the three is then GitHub.
 */
async function threeToolsTurn(h: Harness, agent: Parameters<Harness['run']>[0]): Promise<void> {
  await h.run(agent, 'a few things',
    search('c1', 'weather forecast'),
    search('c2', 'github issue'),
    toolCall('c3', WEATHER, { city: 'Paris' }),
    search('c4', 'sql query postgres'),
    reply('ok'))
}

describe('maxSelected', () => {
  it('lets the selection grow within a turn and drops the least recently used at the next user message', async () => {
    const h = await harnessWith({ maxSelected: 2 })
    const { agent } = await h.agent('a')
    await threeToolsTurn(h, agent)
    // Nothing leaves mid-turn: the last request of the turn offers all three.
    expect(deferredOffered(h)).toEqual([GITHUB, POSTGRES, WEATHER].sort())

    await h.run(agent, 'next', reply('ok'))
    expect(deferredOffered(h)).toEqual([POSTGRES, WEATHER].sort())
    expect(records(agent)).toEqual([{ root: expect.stringMatching(/^dsh-tool-search:evict:/), payload: { schemaVersion: 1, query: '', tools: [], deselect: [GITHUB] } }])

    // Within the limit nothing more leaves.
    await h.run(agent, 'and again', reply('ok'))
    expect(deferredOffered(h)).toEqual([POSTGRES, WEATHER].sort())
    expect(records(agent)).toHaveLength(1)
  })

  it('counts a call as a use: the tool called last stays, the one found longer ago leaves', async () => {
    const h = await harnessWith({ maxSelected: 1 })
    const { agent } = await h.agent('a')
    await h.run(agent, 'two', search('c1', 'weather forecast'), search('c2', 'github issue'), toolCall('c3', WEATHER, { city: 'Oslo' }), reply('ok'))
    await h.run(agent, 'next', reply('ok'))
    expect(deferredOffered(h)).toEqual([WEATHER])
  })

  it('brings a dropped tool back when the model calls it or searches for it by name', async () => {
    const h = await harnessWith({ maxSelected: 2 })
    const { agent } = await h.agent('a')
    await threeToolsTurn(h, agent)
    await h.run(agent, 'file it', toolCall('c5', GITHUB, { repo: 'o/r', title: 't' }), reply('ok'))
    // Hidden, it still ran; from the next step on it is offered again.
    expect(h.log.calls.map(call => call.name)).toContain(GITHUB)
    expect(deferredOffered(h)).toEqual([GITHUB, POSTGRES, WEATHER].sort())
    expect(records(agent).map(record => record.root)).toEqual([expect.stringMatching(/^dsh-tool-search:evict:/), expect.stringMatching(/^dsh-tool-search:recall:/)])

    // The next turn evicts again (weather is now the least recently used), and an exact-name
    // search finds it back.
    await h.run(agent, 'weather again?', toolCall('c6', 'tool_search', { query: WEATHER, limit: 1 }), reply('ok'))
    expect(deferredOffered(h, h.model.requests.at(-2))).toEqual([GITHUB, POSTGRES].sort())
    expect(deferredOffered(h)).toEqual([GITHUB, POSTGRES, WEATHER].sort())
  })

  it('applies a changed limit at the next user message', async () => {
    const h = await harnessWith({})
    const { agent } = await h.agent('a')
    await threeToolsTurn(h, agent)
    await changeSettings(h, { maxSelected: 1 })
    await h.run(agent, 'next', reply('ok'))
    expect(deferredOffered(h)).toEqual([POSTGRES])
    await changeSettings(h, {})
    await h.run(agent, 'more', search('c9', 'send an email'), reply('ok'))
    expect(deferredOffered(h)).toEqual([MAIL, POSTGRES].sort())
  })
})

/**
 * The three-tools turn and an evicting one under `maxSelected: 2` (GitHub leaves), then `more`
 * live turns, persisted by DSH's JSONL store; resumed in a new harness.
 */
async function resumedAfterEviction(more: (h: Harness, agent: Parameters<Harness['run']>[0]) => Promise<void>) {
  const root = await tempDir()
  teardown.push(() => rm(root, { recursive: true, force: true }))
  const live = await harnessWith({ maxSelected: 2 }, root)
  const { agent } = await live.agent('a1')
  await threeToolsTurn(live, agent)
  await live.run(agent, 'next', reply('ok'))
  await more(live, agent)
  await live.ctx.sessions.flush(agent.session)
  await live.close()
  const resumed = await harnessWith({ maxSelected: 2 }, root)
  const { agent: again } = await resumed.resume('a1')
  return { resumed, again }
}

describe('maxSelected and the session log', () => {
  it('a resumed Agent is offered the set after the eviction, and evicts on as the live one would', async () => {
    const { resumed, again } = await resumedAfterEviction(async (live, agent) => {
      await live.run(agent, 'file it', toolCall('c5', GITHUB, { repo: 'o/r', title: 't' }), reply('ok'))
    })
    await resumed.run(again, 'continue', reply('ok'))
    // The log holds the eviction of GitHub and its recall; at this turn weather, used longest
    // ago, leaves, exactly as it would have for the live Agent.
    expect(deferredOffered(resumed)).toEqual([GITHUB, POSTGRES].sort())
  })

  it('a resumed Agent brings back a tool the log shows evicted when the model calls it', async () => {
    const { resumed, again } = await resumedAfterEviction(async () => {})
    await resumed.run(again, 'file it', toolCall('c5', GITHUB, { repo: 'o/r', title: 't' }), reply('ok'))
    // GitHub left at the second turn; called after the resume, it is selected again and recorded.
    expect(deferredOffered(resumed, resumed.model.requests.at(-2))).toEqual([POSTGRES, WEATHER].sort())
    expect(deferredOffered(resumed)).toEqual([GITHUB, POSTGRES, WEATHER].sort())
    expect(records(again).map(record => record.root).at(-1)).toMatch(/^dsh-tool-search:recall:/)
  })

  it('a forked Agent is offered the set its copied prefix ends with', async () => {
    const h = await harnessWith({ maxSelected: 2 })
    const { agent: parent } = await h.agent('parent')
    await threeToolsTurn(h, parent)
    await h.run(parent, 'next', reply('ok'))
    const forkPoint = parent.session.events.findLast(event => event.type === 'turn/end')?.seq
    await h.run(parent, 'mail', search('c9', 'send an email'), reply('ok'))

    const copy = h.ctx.sessions.fork(parent.session, forkPoint, SessionId('parent-copy'))
    const { agent: child } = await h.fork('child', parent, copy.events)
    await h.run(child, 'continue', reply('ok'))
    expect(deferredOffered(h)).toEqual([POSTGRES, WEATHER].sort())
  })
})
