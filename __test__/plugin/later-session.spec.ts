// The plugin's session scenarios on later DSH lines, each emulated on the real rc.8 packages
// (__test__/support/later-hosts/, which name their sources): 0.1.3 (the Session API without
// `events`), 0.1.5 (also format v3's vocabulary and store, PTC) and 0.1.7 (format v4: also tool
// results first-class). Search, prefetch, maxSelected, fork and resume run through each, and every
// resume reopens the log through the emulated store, which refuses what that DSH's reader
// refuses: a record in the old spelling, a settle without its start, a sub-call id seen twice.
import { describe, expect, it } from 'vitest'
import type { Config } from '../../plugin/host/config.ts'
import { DEFERRED_NAMES } from '../support/fixtures.ts'
import { NATIVE, type Harness, type HarnessOptions } from '../support/harness.ts'
import { dsh013, dsh015, dsh017, type LaterHost } from '../support/later-hosts/session-hosts.ts'
import { perTest } from '../support/per-test.ts'
import { reply, toolCall } from '../support/scripted-model.ts'

const WEATHER = 'mcp__weather__forecast'
const MAIL = 'mcp__mail__send_email'
const ASK_WEATHER = 'What will the weather forecast be in Paris this week?'
const ASK_MAIL = 'Please send an email to Ana about the report.'

const scope = perTest()

/** The deferred fixture tools a request offered, sorted. */
function deferredOffered(h: Harness, request = h.model.requests.at(-1)): string[] {
  return h.model.toolNames(request).filter(name => DEFERRED_NAMES.includes(name)).sort()
}

/** The dispatch event types of a log, in order (the test reads the log as DSH's own code would). */
function dispatchTypes(agent: Parameters<Harness['run']>[0]): string[] {
  return agent.session.events.map(event => event.type as string).filter(type => type.includes('-dispatch'))
}

/** The spelling a host's records must have: rc.8's up to 0.1.3, ptc from 0.1.5. */
function spelling(host: LaterHost): string {
  return host.name.startsWith('DSH 0.1.3') ? 'code' : 'ptc'
}

const HOSTS = [dsh013(), dsh015(), dsh017()]

describe.each(HOSTS)('$name', (host) => {
  const on = (plugin: Partial<Config>, options: HarnessOptions = {}) => scope.harness({ ...options, reshape: host.reshape, plugin: { ...NATIVE, ...plugin } })

  /** Close `live` and open the same persisted sessions in a fresh harness of the same host. */
  async function restart(live: Harness, root: string, plugin: Partial<Config>): Promise<Harness> {
    await scope.close(live)
    return on(plugin, { persistenceRoot: root })
  }

  it('a search selects, and a resumed Agent is offered what it found', async () => {
    const root = await scope.dir()
    const live = await on({}, { persistenceRoot: root })
    const { agent } = await live.agent('a1')
    await live.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }), reply('ok'))
    expect(deferredOffered(live)).toEqual([WEATHER])
    await live.ctx.sessions.flush(agent.session)
    const resumed = await restart(live, root, {})
    const { agent: again } = await resumed.resume('a1')
    await resumed.run(again, 'and tomorrow?', reply('ok'))
    expect(deferredOffered(resumed)).toEqual([WEATHER])
  })

  it('prefetch and maxSelected write records in the host\'s spelling, each a start and its settle, which its store reopens twice', async () => {
    const plugin = { prefetch: 3, maxSelected: 1 }
    const root = await scope.dir()
    const live = await on(plugin, { persistenceRoot: root })
    const { agent } = await live.agent('a1')
    await live.run(agent, ASK_WEATHER, reply('ok'))
    await live.run(agent, ASK_MAIL, reply('ok'))
    // The third turn evicts the tool used longest ago, the weather.
    await live.run(agent, 'Thanks.', reply('ok'))
    expect(deferredOffered(live)).toEqual([MAIL])
    const kind = spelling(host)
    const pair = [`tool/${kind}-dispatch-start`, `tool/${kind}-dispatch`]
    expect(dispatchTypes(agent)).toEqual([...pair, ...pair, ...pair])
    await live.ctx.sessions.flush(agent.session)

    const resumed = await restart(live, root, plugin)
    const { agent: again } = await resumed.resume('a1')
    expect(resumed.ctx.toolSearch.agents()).toMatchObject([{ id: 'a1', selected: 1 }])
    // A call of the dropped tool brings it back through a record written in the resumed log.
    await resumed.run(again, 'Go on.', toolCall('c5', WEATHER, { city: 'Oslo' }), reply('ok'))
    expect(deferredOffered(resumed)).toEqual([MAIL, WEATHER])
    await resumed.ctx.sessions.flush(again.session)

    const third = await restart(resumed, root, plugin)
    await third.resume('a1')
    expect(third.ctx.toolSearch.agents()).toMatchObject([{ id: 'a1', selected: 2, prefetched: 1 }])
  })

  it('a fork starts from what its copied prefix selected, writes records of its own, and its log, inherited records and all, reopens', async () => {
    const plugin = { prefetch: 3, maxSelected: 1 }
    const root = await scope.dir()
    const live = await on(plugin, { persistenceRoot: root })
    const { agent: parent } = await live.agent('parent')
    await live.run(parent, ASK_WEATHER, reply('ok'))
    const { agent: child } = await live.fork('child', parent)
    await live.run(parent, ASK_MAIL, reply('ok'))
    await live.run(child, ASK_MAIL, reply('ok'))
    expect(deferredOffered(live)).toEqual([MAIL, WEATHER])
    // The child's next turn evicts the weather, which it inherited.
    await live.run(child, 'Thanks.', reply('ok'))
    expect(deferredOffered(live)).toEqual([MAIL])
    for (const agent of [child, parent]) await live.ctx.sessions.flush(agent.session)

    const resumed = await restart(live, root, plugin)
    await resumed.resume('child')
    await resumed.resume('parent')
    expect(resumed.ctx.toolSearch.agents()).toMatchObject([{ id: 'child', selected: 1 }, { id: 'parent', selected: 2 }])
  })
})
