// One reader of the session log: a call DSH records as failed, with `isError` on its result and
// an `error` on its event, selects nothing and counts as no use, in the live Agent that made it
// and in the copies DSH rebuilds from the log (resumed and forked), which therefore select and
// evict alike. The failures are made the way a DSH policy makes them, by a `tools/execute` wrapper
// that turns a finished call into a failure and keeps its content.
import { rm } from 'node:fs/promises'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { afterEach, describe, expect, it } from 'vitest'
import { selectionFromPayload } from '../../index.js'
import { createHarness, tempDir, type Harness, NATIVE } from '../support/harness.ts'
import { reply, toolCall } from '../support/scripted-model.ts'

const WEATHER = 'mcp__weather__forecast'
const GITHUB = 'mcp__github__create_issue'
const POSTGRES = 'mcp__postgres__query'
/** What the wrapper records on a failed call's event, as DSH records a HarnessError's. */
const FAILURE = { name: 'HarnessError', code: 'TIMED_OUT' }

const teardown: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const step of teardown.splice(0).reverse()) await step()
})

async function harness(root: string): Promise<Harness> {
  const h = await createHarness({ plugin: { ...NATIVE, maxSelected: 1 }, persistenceRoot: root, invariants: true })
  teardown.push(() => h.close())
  // A timeout policy's shape: the call ran, and its result is replaced by a failure that keeps
  // the content (here, for a search, a payload that would select were the failure ignored).
  h.ctx.on('tools/execute', async (exec, next) => {
    const result = await next()
    if (!exec.callId.startsWith('fail-')) return result
    return { isError: true, error: { message: 'the call timed out', info: FAILURE }, content: result.content }
  })
  return h
}

/**
 * The weather tool is found, then GitHub; then a search for Postgres and a call of the weather
 * tool both fail. Were either failure read as a success, Postgres would be selected, or the
 * weather tool would be the one used last.
 */
async function firstTurn(h: Harness, agent: Agent): Promise<void> {
  await h.run(agent, 'a few things',
    toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }),
    toolCall('c2', 'tool_search', { query: 'github issue', limit: 1 }),
    toolCall('fail-c3', 'tool_search', { query: 'sql query postgres', limit: 1 }),
    toolCall('fail-c4', WEATHER, { city: 'Paris' }),
    reply('ok'))
}

/** The tools an Agent has selected, as the plugin's view reports them. */
function found(h: Harness, agent: Agent): string[] {
  return [...(h.ctx.toolSearch.agents().find(row => row.id === agent.id)?.found ?? [])].sort()
}

/** The deferred tools the Agent's last request offered. */
function offered(h: Harness): string[] {
  return h.model.toolNames(h.model.requests.at(-1)).filter(name => [WEATHER, GITHUB, POSTGRES].includes(name)).sort()
}

/** What each eviction record in the Agent's log drops. */
function evictions(agent: Agent): unknown[] {
  return agent.session.events.flatMap((event) => {
    if (event.type !== 'tool/code-dispatch' || !event.data.rootCallId.startsWith('dsh-tool-search:evict:')) return []
    const text = event.data.content[0]
    return text?.type === 'text' ? [(JSON.parse(text.text) as { deselect: unknown }).deselect] : []
  })
}

describe('the session log has one reader', () => {
  it('a failed call selects nothing and uses nothing, live, resumed and forked', async () => {
    const root = await tempDir()
    teardown.push(() => rm(root, { recursive: true, force: true }))
    const live = await harness(root)
    const { agent } = await live.agent('live')
    await firstTurn(live, agent)
    const { agent: persisted } = await live.agent('persisted')
    await firstTurn(live, persisted)

    // Both failures are in the log as DSH writes one: the flag on the result, the error on the event.
    for (const id of ['fail-c3', 'fail-c4']) {
      const event = agent.session.events.find(e => e.type === 'tool/result' && e.data.message.content[0]?.toolCallId === id)
      expect(event?.type === 'tool/result' && { isError: event.data.message.content[0]?.isError, error: event.data.error }).toEqual({ isError: true, error: FAILURE })
    }
    const failedSearch = agent.session.events.find(e => e.type === 'tool/result' && e.data.message.content[0]?.toolCallId === 'fail-c3')
    const failedText = failedSearch?.type === 'tool/result' ? failedSearch.data.message.content[0]?.content[0] : undefined
    expect(failedText?.type === 'text' && selectionFromPayload(failedText.text)).toEqual([POSTGRES])

    const { agent: forked } = await live.fork('forked', agent)
    for (const copy of [agent, persisted, forked]) expect(found(live, copy)).toEqual([GITHUB, WEATHER].sort())

    // At the next user message maxSelected drops the tool used longest ago: the weather tool,
    // found first; its failed call did not count.
    for (const copy of [agent, forked]) {
      await live.run(copy, 'next', reply('ok'))
      expect(offered(live)).toEqual([GITHUB])
      expect(evictions(copy)).toEqual([[WEATHER]])
    }
    await live.ctx.sessions.flush(persisted.session)
    await live.close()

    const later = await harness(root)
    const { agent: resumed } = await later.resume('persisted')
    expect(found(later, resumed)).toEqual([GITHUB, WEATHER].sort())
    await later.run(resumed, 'next', reply('ok'))
    expect(offered(later)).toEqual([GITHUB])
    expect(evictions(resumed)).toEqual([[WEATHER]])
  })
})
