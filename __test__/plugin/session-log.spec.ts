// The session log through plugin/host/dsh/session-log.ts on the real DSH 0.1.0-rc.8: which
// dispatch spelling a host's vocabulary asks for, how the two read APIs are told apart, and the
// selection records the plugin writes, each a start and its settle inside the open turn, with a
// sub-call id no other dispatch of the log has.
import { KNOWN_SESSION_EVENT_TYPES, Session, SessionId } from '@deepseek-ai/dsh-session'
import { describe, expect, it } from 'vitest'
import { CODE_DISPATCH_EVENT, CODE_DISPATCH_START_EVENT, PTC_DISPATCH_EVENT, PTC_DISPATCH_START_EVENT } from '../../plugin/contract.ts'
import { appendLoggedCall, dispatchDialect, sessionEvents } from '../../plugin/host/dsh/session-log.ts'
import { NATIVE } from '../support/harness.ts'
import { perTest } from '../support/per-test.ts'
import { reply } from '../support/scripted-model.ts'

const scope = perTest()

const ASK_WEATHER = 'What will the weather forecast be in Paris this week?'
const ASK_MAIL = 'Please send an email to Ana about the report.'

interface Dispatch { readonly type: string; readonly seq: number; readonly data: Record<string, unknown> }

/** The dispatch events of a log, starts and settles, in order. */
function dispatches(events: readonly { type: string; seq: number; data: unknown }[]): Dispatch[] {
  return events.filter(event => event.type.startsWith('tool/code-dispatch') || event.type.startsWith('tool/ptc-dispatch'))
    .map(event => ({ type: event.type, seq: event.seq, data: event.data as Record<string, unknown> }))
}

describe('the dispatch spelling', () => {
  it('is code on rc.8, whose loader admits tool/code-dispatch and not tool/ptc-dispatch', () => {
    expect(KNOWN_SESSION_EVENT_TYPES.has(PTC_DISPATCH_EVENT)).toBe(false)
    expect(dispatchDialect()).toEqual({ start: CODE_DISPATCH_START_EVENT, settle: CODE_DISPATCH_EVENT })
  })

  it('is ptc where the vocabulary has the ptc names, and nothing is written where it has neither pair whole', () => {
    expect(dispatchDialect(new Set([PTC_DISPATCH_START_EVENT, PTC_DISPATCH_EVENT]))).toEqual({ start: PTC_DISPATCH_START_EVENT, settle: PTC_DISPATCH_EVENT })
    for (const known of [new Set<string>(), new Set([CODE_DISPATCH_EVENT]), new Set([CODE_DISPATCH_START_EVENT, CODE_DISPATCH_EVENT, PTC_DISPATCH_EVENT])]) {
      expect(() => dispatchDialect(known), [...known].join()).toThrow(/no selection record can be written/)
    }
  })
})

describe('reading a session', () => {
  it('takes snapshotEvents() where a session has it, else events', () => {
    const events = [{ type: 'turn/start' }]
    expect(sessionEvents({ snapshotEvents: () => events } as unknown as Session)).toBe(events)
    expect(sessionEvents({ events } as unknown as Session)).toBe(events)
    expect(sessionEvents({ events: [], snapshotEvents: () => events } as unknown as Session)).toBe(events)
    expect(() => sessionEvents({} as Session)).toThrow(/neither events nor snapshotEvents/)
  })
})

describe('the selection records on rc.8', () => {
  it('are each a start and its settle inside the open turn, alike but for the settle\'s outcome, with sub-call ids unique in the log', async () => {
    const harness = await scope.harness({ plugin: { ...NATIVE, prefetch: 3 }, invariants: true })
    const { agent } = await harness.agent('a')
    await harness.run(agent, ASK_WEATHER, reply('ok'))
    await harness.run(agent, ASK_MAIL, reply('ok'))
    const logged = dispatches(agent.session.events)
    expect(logged.map(event => event.type)).toEqual([CODE_DISPATCH_START_EVENT, CODE_DISPATCH_EVENT, CODE_DISPATCH_START_EVENT, CODE_DISPATCH_EVENT])
    for (let i = 0; i < logged.length; i += 2) {
      const [start, settle] = [logged[i], logged[i + 1]]
      expect(settle?.seq).toBe((start?.seq ?? 0) + 1)
      const { isError, content, ...same } = settle?.data ?? {}
      expect(same).toEqual(start?.data)
      expect(isError).toBe(false)
      expect(content).toEqual([{ type: 'text', text: expect.stringContaining('"schemaVersion":1') }])
      expect(start?.data.parentCallId).toBe(start?.data.rootCallId)
    }
    const ids = logged.filter(event => event.type === CODE_DISPATCH_START_EVENT).map(event => event.data.subCallId)
    expect(new Set(ids).size).toBe(2)
    // Inside the turn: between its start and its end.
    const types = agent.session.events.map(event => event.type)
    expect(logged[0]?.seq).toBeGreaterThan(types.indexOf('turn/start'))
    expect(logged[1]?.seq).toBeLessThan(types.indexOf('turn/end'))
  })

  it('two records under one root get two sub-call ids', () => {
    const session = Session.create(SessionId('detached'))
    const call = { root: 'dsh-tool-search:prefetch:m1', name: 'tool_search', arguments: {}, isError: false, content: [] }
    appendLoggedCall(session, call)
    appendLoggedCall(session, call)
    const ids = dispatches(session.events).map(event => event.data.subCallId)
    expect(ids).toEqual(['dsh-tool-search:prefetch:m1:0', 'dsh-tool-search:prefetch:m1:0', 'dsh-tool-search:prefetch:m1:2', 'dsh-tool-search:prefetch:m1:2'])
  })

  it('a fork\'s own records never reuse a sub-call id its inherited prefix holds', async () => {
    const harness = await scope.harness({ plugin: { ...NATIVE, prefetch: 3, maxSelected: 1 } })
    const { agent: parent } = await harness.agent('parent')
    await harness.run(parent, ASK_WEATHER, reply('ok'))
    const { agent: child } = await harness.fork('child', parent)
    await harness.run(child, ASK_WEATHER, reply('ok'))
    await harness.run(child, ASK_MAIL, reply('ok'))
    const starts = dispatches(child.session.events).filter(event => event.type === CODE_DISPATCH_START_EVENT)
    expect(starts.length).toBeGreaterThan(dispatches(parent.session.events).length / 2)
    const ids = starts.map(event => event.data.subCallId)
    expect(new Set(ids).size).toBe(ids.length)
  })
})
