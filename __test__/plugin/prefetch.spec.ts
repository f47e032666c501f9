// Prefetch on the real DSH runtime: the best deferred tools for a user's message are offered on
// the model's first request about it, recorded in the session as a selection record, replayed by
// resume (through DSH's JSONL persistence) and by fork, counted per Agent, and checked by DSH's
// own invariant companions.
import { readdir } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { CallId, createUserMessage, type StreamChunk } from '@deepseek-ai/dsh-llm'
import { SessionId } from '@deepseek-ai/dsh-session'
import { DEFAULT_CORE_TOOLS } from '../../plugin/offer/core-tools.ts'
import type { Config } from '../../plugin/host/config.ts'
import { TOOL_SEARCH_SETTINGS_NAMESPACE } from '../../plugin/host/settings.ts'
import { NATIVE, type Harness, type HarnessOptions } from '../support/harness.ts'
import { perTest } from '../support/per-test.ts'
import { reply, toolCall } from '../support/scripted-model.ts'

const WEATHER = 'mcp__weather__forecast'
const MAIL = 'mcp__mail__send_email'
const ASK_WEATHER = 'What will the weather forecast be in Paris this week?'
const ASK_MAIL = 'Please send an email to Ana about the report.'

const scope = perTest()

function harnessWith(plugin: Partial<Config>, options: HarnessOptions = {}): Promise<Harness> {
  return scope.harness({ ...options, plugin: { ...NATIVE, ...plugin } })
}

/** The deferred tools a request offered. */
function deferredOffered(harness: Harness, index = -1): string[] {
  const names = harness.model.toolNames(harness.model.requests.at(index))
  return names.filter(name => !DEFAULT_CORE_TOOLS.includes(name) && name !== 'tool_search' && name !== 'todo_write').sort()
}

/** The selection records (prefetches) in an Agent's log. */
function records(events: readonly { type: string; data: unknown }[]): { rootCallId: string; name: string; content: { text: string }[] }[] {
  return events
    .filter(event => event.type === 'tool/code-dispatch')
    .map(event => event.data as { rootCallId: string; name: string; content: { text: string }[] })
    .filter(data => data.rootCallId.startsWith('dsh-tool-search:prefetch:'))
}

describe('prefetch from the user\'s message', () => {
  it('offers the tool a message asks for on its first request, though the model never searches', async () => {
    const harness = await harnessWith({ prefetch: 3 }, { invariants: true })
    const { agent } = await harness.agent('a')
    await harness.run(agent, ASK_WEATHER, reply('sunny'))
    expect(deferredOffered(harness, 0)).toEqual([WEATHER])
    expect(harness.model.requests).toHaveLength(1)
    // The next message brings its own tool and keeps the earlier one.
    await harness.run(agent, ASK_MAIL, reply('sent'))
    expect(deferredOffered(harness)).toEqual([MAIL, WEATHER])
  })

  it('records each prefetch in the session, outside the model\'s history', async () => {
    const harness = await harnessWith({ prefetch: 3 }, { invariants: true })
    const { agent } = await harness.agent('a')
    await harness.run(agent, ASK_WEATHER, reply('sunny'))
    const [record, ...more] = records(agent.session.events)
    expect(more).toEqual([])
    expect(record?.name).toBe('tool_search')
    const payload = JSON.parse(record?.content[0]?.text ?? '{}') as { schemaVersion: number; query: string; tools: { name: string }[] }
    expect(payload).toMatchObject({ schemaVersion: 1, query: ASK_WEATHER })
    expect(payload.tools.map(tool => tool.name)).toEqual([WEATHER])
    // Log-only: the request carries the user's message and nothing of the record.
    expect(JSON.stringify(harness.model.requests[0]?.messages)).not.toContain('dsh-tool-search:prefetch')
    // Appended before the message is logged, inside the open turn.
    const types = agent.session.events.map(event => event.type)
    expect(types.indexOf('tool/code-dispatch')).toBeGreaterThan(types.indexOf('turn/start'))
    expect(types.indexOf('tool/code-dispatch')).toBeLessThan(types.indexOf('user/message'))
  })

  it('loads nothing, and records nothing, for a message with no confident match, or when it is off', async () => {
    const harness = await harnessWith({ prefetch: 3 })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'Thanks, that is all for now.', reply('ok'))
    expect(deferredOffered(harness)).toEqual([])
    expect(records(agent.session.events)).toEqual([])

    const off = await harnessWith({})
    const { agent: other } = await off.agent('b')
    await off.run(other, ASK_WEATHER, reply('ok'))
    expect(deferredOffered(off)).toEqual([])
    expect(records(other.session.events)).toEqual([])
  })

  it('leaves out what the Agent can already call, and what neverSearch hides', async () => {
    const harness = await harnessWith({ prefetch: 3, alwaysVisible: [MAIL], neverSearch: [WEATHER] })
    const { agent } = await harness.agent('a')
    await harness.run(agent, `${ASK_WEATHER} ${ASK_MAIL}`, reply('ok'))
    expect(records(agent.session.events)).toEqual([])
    expect(deferredOffered(harness)).toEqual([MAIL])
  })

  it('is counted per Agent in the view the card reads', async () => {
    const harness = await harnessWith({ prefetch: 3 })
    const { agent } = await harness.agent('a')
    await harness.agent('b')
    await harness.run(agent, ASK_WEATHER, toolCall('c1', 'tool_search', { query: 'send email' }), reply('ok'))
    expect(harness.ctx.toolSearch.agents()).toMatchObject([{ id: 'a', selected: 2, prefetched: 1 }, { id: 'b', selected: 0, prefetched: 0 }])
  })

  it('follows a live change of the setting at the next message', async () => {
    const harness = await harnessWith({}, { settings: true })
    const { agent } = await harness.agent('a')
    await harness.run(agent, ASK_WEATHER, reply('ok'))
    expect(deferredOffered(harness)).toEqual([])
    await harness.ctx.settings.replace(TOOL_SEARCH_SETTINGS_NAMESPACE, { prefetch: 2 })
    // Settings watchers run on a queued continuation after the write commits.
    await new Promise(resolve => setTimeout(resolve, 0))
    await harness.run(agent, ASK_MAIL, reply('ok'))
    expect(deferredOffered(harness)).toEqual([MAIL])
  })

  it('a resumed session, persisted by DSH\'s JSONL store, is offered what its prefetches loaded', async () => {
    const root = await scope.dir()
    const first = await harnessWith({ prefetch: 3 }, { persistenceRoot: root, invariants: true })
    const { agent } = await first.agent('a1')
    await first.run(agent, ASK_WEATHER, reply('ok'))
    await first.ctx.sessions.flush(agent.session)
    await scope.close(first)
    expect((await readdir(root, { recursive: true })).some(path => path.endsWith('session.jsonl.zstd'))).toBe(true)

    // Prefetch off after the restart: what comes back is the log's, not a new prefetch.
    const second = await harnessWith({}, { persistenceRoot: root, invariants: true })
    const { agent: resumed } = await second.resume('a1')
    expect(second.ctx.toolSearch.agents()).toMatchObject([{ id: 'a1', selected: 1, prefetched: 1 }])
    await second.run(resumed, 'and tomorrow?', reply('ok'))
    expect(deferredOffered(second)).toEqual([WEATHER])
  })

  it('a fork is offered what the copied prefix prefetched, and nothing prefetched after the fork point', async () => {
    const harness = await harnessWith({ prefetch: 3 }, { invariants: true })
    const { agent: parent } = await harness.agent('parent')
    await harness.run(parent, ASK_WEATHER, reply('ok'))
    const forkPoint = parent.session.events.findLast(event => event.type === 'turn/end')?.seq
    await harness.run(parent, ASK_MAIL, reply('ok'))
    const copy = harness.ctx.sessions.fork(parent.session, forkPoint, SessionId('parent-copy'))
    const { agent: child } = await harness.fork('child', parent, copy.events)
    await harness.run(child, 'continue', reply('ok'))
    expect(deferredOffered(harness)).toEqual([WEATHER])
  })

  it('works in Code Mode: the prefetched tool is declared in the SDK of the first request', async () => {
    const harness = await harnessWith({ prefetch: 3 }, { mode: 'code', invariants: true })
    const { agent } = await harness.agent('a')
    await harness.run(agent, ASK_WEATHER, reply('ok'))
    expect(harness.model.toolNames()).toEqual(['run_code'])
    expect(harness.model.system()).toMatch(new RegExp(`^ {2}${WEATHER}: `, 'm'))
    expect(harness.model.system()).not.toMatch(new RegExp(`^ {2}${MAIL}: `, 'm'))
  })
})

describe('the selection record under DSH\'s invariant companions', () => {
  it('the companions are live: the same record appended outside a turn is refused', async () => {
    const harness = await harnessWith({}, { invariants: true })
    const { agent } = await harness.agent('a')
    const root = CallId('dsh-tool-search:prefetch:outside')
    expect(() => agent.session.append('tool/code-dispatch', {
      rootCallId: root, parentCallId: root, subCallId: CallId(`${root}:1`), name: 'tool_search', arguments: {}, isError: false, content: [],
    })).toThrow(/outside any open turn/)
  })

  it('a steer claimed at a later step of the same turn is prefetched too, inside the turn', async () => {
    const harness = await harnessWith({ prefetch: 2 }, { invariants: true })
    const { agent } = await harness.agent('a')
    const steer = createUserMessage({ content: [{ type: 'text', text: ASK_MAIL }], source: { kind: 'user' } })
    await harness.run(agent, ASK_WEATHER, (request) => {
      // The model's first step is under way: the user adds to the request.
      expect(request.tools?.map(tool => tool.name)).toContain(WEATHER)
      agent.steer(steer)
      return toolCall('c1', 'bash', { command: 'true' }) as StreamChunk[]
    }, reply('done'))
    expect(records(agent.session.events)).toHaveLength(2)
    expect(deferredOffered(harness)).toEqual([MAIL, WEATHER])
  })
})
