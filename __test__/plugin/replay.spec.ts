import { rm } from 'node:fs/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { SessionId } from '@deepseek-ai/dsh-session'
import { createHarness, tempDir, type Harness, NATIVE } from '../support/harness.ts'
import { reply, toolCall } from '../support/scripted-model.ts'

const WEATHER = 'mcp__weather__forecast'
const GITHUB = 'mcp__github__create_issue'

const open: Harness[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.close()
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function harnessAt(persistenceRoot?: string): Promise<Harness> {
  const harness = await createHarness({ plugin: NATIVE, ...(persistenceRoot === undefined ? {} : { persistenceRoot }) })
  open.push(harness)
  return harness
}

describe('rebuilding the selection when an Agent attaches', () => {
  it('a resumed Agent is offered what it had found, without searching again', async () => {
    const root = await tempDir()
    dirs.push(root)
    const first = await harnessAt(root)
    const { agent } = await first.agent('a1')
    await first.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast' }), reply('ok'))
    await first.ctx.sessions.flush(agent.session)
    await first.close()
    open.splice(open.indexOf(first), 1)

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
    const { agent: child } = await harness.agent('child', {
      seed: copy.events,
      meta: { parentSession: parent.id, seedLength: copy.events.length },
    })
    expect(child.session.events.filter(event => event.type === 'tool/call')).toHaveLength(1)
    await harness.run(child, 'continue', reply('ok'))
    expect(harness.model.toolNames()).toContain(WEATHER)
    expect(harness.model.toolNames()).not.toContain(GITHUB)
  })
})
