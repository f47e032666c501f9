import { describe, expect, it } from 'vitest'
import { SessionId } from '@deepseek-ai/dsh-session'
import { NATIVE } from '../support/harness.ts'
import { perTest } from '../support/per-test.ts'
import { reply, toolCall } from '../support/scripted-model.ts'

const WEATHER = 'mcp__weather__forecast'
const GITHUB = 'mcp__github__create_issue'

const each = perTest()
const harnessAt = (persistenceRoot?: string) => each.harness({ plugin: NATIVE, ...(persistenceRoot === undefined ? {} : { persistenceRoot }) })

describe('rebuilding the selection when an Agent attaches', () => {
  it('a resumed Agent is offered what it had found, without searching again', async () => {
    const root = await each.dir()
    const first = await harnessAt(root)
    const { agent } = await first.agent('a1')
    await first.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast' }), reply('ok'))
    await first.ctx.sessions.flush(agent.session)
    await each.close(first)

    const second = await harnessAt(root)
    const { agent: resumed } = await second.resume('a1')
    expect(resumed.session.events.filter(event => event.type === 'tool/call')).toHaveLength(1)
    await second.run(resumed, 'and tomorrow?', reply('sunny'))
    expect(second.model.toolNames()).toContain(WEATHER)
    expect(second.model.toolNames()).not.toContain(GITHUB)
  })

  it('a forked Agent is offered what the copied prefix had found, and nothing found after the fork point', async () => {
    const harness = await harnessAt()
    const { agent: parent } = await harness.agent('parent')
    await harness.run(parent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast' }), reply('ok'))
    const forkPoint = parent.session.events.findLast(event => event.type === 'turn/end')?.seq
    await harness.run(parent, 'issue?', toolCall('c2', 'tool_search', { query: 'github issue' }), reply('ok'))

    // The store's fork cuts a completed-turn prefix; an Agent is then created on it with a seed,
    // as DSH's Web fork and subagent_fork do.
    const copy = harness.ctx.sessions.fork(parent.session, forkPoint, SessionId('parent-copy'))
    const { agent: child } = await harness.fork('child', parent, copy.events)
    expect(child.session.events.filter(event => event.type === 'tool/call')).toHaveLength(1)
    await harness.run(child, 'continue', reply('ok'))
    expect(harness.model.toolNames()).toContain(WEATHER)
    expect(harness.model.toolNames()).not.toContain(GITHUB)
  })
})
