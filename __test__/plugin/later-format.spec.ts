// What a later DSH's reader does with the logs this plugin writes, emulated from its source
// (__test__/support/later-hosts/session-format.ts and session-store.ts name it): a log written
// under the real rc.8 keeps its selection when DSH 0.1.5 or 0.1.7 opens it; what the readers
// refuse (the old spelling written on a later DSH, a settle without its start, a sub-call id
// twice) is refused, with their words; and a log written by plugin 0.2.0 or earlier, whose
// records are settles alone, cannot be opened there (a known limitation: no migration makes up
// the start).
import { describe, expect, it } from 'vitest'
import { Session } from '@deepseek-ai/dsh-session'
import { CODE_DISPATCH_EVENT, CODE_DISPATCH_START_EVENT, RECORD_ID_PREFIX } from '../../plugin/contract.ts'
import { appendLoggedCall } from '../../plugin/host/dsh/session-log.ts'
import { runCode, sdkTools } from '../support/code-runtime.ts'
import { NATIVE, type Harness, type HarnessOptions, type HostReshaping } from '../support/harness.ts'
import { dsh015, dsh017 } from '../support/later-hosts/session-hosts.ts'
import { FormatRefusal, migrateRc8Log, type FormatEvent } from '../support/later-hosts/session-format.ts'
import { openStored } from '../support/later-hosts/session-store.ts'
import { perTest } from '../support/per-test.ts'
import { reply, toolCall } from '../support/scripted-model.ts'

const WEATHER = 'mcp__weather__forecast'
const ASK_WEATHER = 'What will the weather forecast be in Paris this week?'
const ASK_MAIL = 'Please send an email to Ana about the report.'

const scope = perTest()

/** A turn holding `inside`, numbered from 0. */
function turn(inside: readonly Omit<FormatEvent, 'seq'>[], from = 0): FormatEvent[] {
  return [{ type: 'turn/start', data: { turn: 1 } }, ...inside, { type: 'turn/end', data: { turn: 1 } }].map((event, i) => ({ ...event, seq: from + i }))
}

const ids = (sub = 'r:1') => ({ rootCallId: 'r', parentCallId: 'r', subCallId: sub, name: 'tool_search', arguments: { query: 'q' } })
const start = (type: string, sub?: string) => ({ type, data: ids(sub) })
const settle = (type: string, sub?: string, extra: Record<string, unknown> = {}) => ({ type, data: { ...ids(sub), isError: false, content: [{ type: 'text', text: '{}' }], ...extra } })

const PTC = ['tool/ptc-dispatch-start', 'tool/ptc-dispatch'] as const
const CODE = [CODE_DISPATCH_START_EVENT, CODE_DISPATCH_EVENT] as const

/** What a reader says of `events`, or 'opens'. */
function verdict(open: () => unknown): string {
  try {
    open()
    return 'opens'
  } catch (error) {
    if (error instanceof FormatRefusal) return error.message
    throw error
  }
}

describe('the emulated readers', () => {
  it('open a pair in an open turn, in their own spelling, as the host wrote it or migrated from rc.8', () => {
    for (const format of [3, 4] as const) {
      expect(verdict(() => openStored(turn([start(PTC[0]), settle(PTC[1])]), format, 'this host'))).toBe('opens')
      expect(verdict(() => migrateRc8Log(turn([start(CODE[0]), settle(CODE[1])]), format))).toBe('opens')
    }
  })

  it('refuse the old spelling in a log a later DSH wrote', () => {
    const old = turn([start(CODE[0]), settle(CODE[1])])
    expect(verdict(() => openStored(old, 3, 'this host'))).toBe('format v3 contains unknown event type "tool/code-dispatch-start" at seq 1')
    expect(verdict(() => openStored(old, 4, 'this host'))).toBe('format v4 contains unknown event type "tool/code-dispatch-start" at seq 1')
  })

  it('refuse a settle without its start, a repeated sub-call id, a settle unlike its start, a pair outside a turn', () => {
    const cases: [FormatEvent[], string, string][] = [
      [turn([settle(PTC[1])]), 'tool/code-dispatch has no unique start', 'PTC dispatch has no unique start'],
      [turn([start(PTC[0]), settle(PTC[1]), start(PTC[0]), settle(PTC[1])]), 'tool/code-dispatch-start repeats subCallId', 'PTC dispatch repeats subCallId'],
      [turn([start(PTC[0]), settle(PTC[1], 'r:1', { arguments: { query: 'other' } })]), 'tool/code-dispatch does not match its start', 'PTC dispatch does not match its start'],
      // v3 checks the released rules over the old names (docs/dsh-versions.md, "Session log").
      [[{ ...start(PTC[0]), seq: 0 }, { ...settle(PTC[1]), seq: 1 }], 'tool/code-dispatch-start is outside an open turn', 'tool/ptc-dispatch-start is outside an open turn'],
    ]
    for (const [events, v3, v4] of cases) {
      expect(verdict(() => openStored(events, 3, 'this host'))).toBe(v3)
      expect(verdict(() => openStored(events, 4, 'this host'))).toBe(v4)
    }
    // Format v3 admits a dispatch with exactly its keys.
    expect(verdict(() => openStored(turn([start(PTC[0]), settle(PTC[1], 'r:1', { note: 1 })]), 3, 'this host'))).toMatch(/^tool\/ptc-dispatch at seq 2 has keys .* it must have exactly/)
  })

  it('refuse an rc.8 log holding a settle alone, naming the migration', () => {
    const lone = turn([settle(CODE[1])])
    expect(verdict(() => migrateRc8Log(lone, 3))).toBe('@deepseek-ai/dsh-session-format-v2-to-v3 refuses this format v2 Session: tool/code-dispatch has no unique start')
    expect(verdict(() => migrateRc8Log(lone, 4))).toBe('@deepseek-ai/dsh-session-format-v2-to-v3 refuses this format v2 Session: tool/code-dispatch has no unique start')
  })
})

/** What an Agent is offered at its next step and what it has found, to compare one DSH with another. */
interface Seen { readonly sdk: string[]; readonly found: unknown }

async function seen(h: Harness, agent: Parameters<Harness['run']>[0]): Promise<Seen> {
  await h.run(agent, 'Go on.', reply('ok'))
  return { sdk: sdkTools(h.model.system()), found: h.ctx.toolSearch.agents().map(({ selected, prefetched, found }) => ({ selected, prefetched, found })) }
}

/** Plugin 0.2.0 and earlier wrote each record as a settle alone: drop the plugin's starts as they are appended. */
function settlesAlone(): HostReshaping {
  return {
    install() {
      const append = Object.getOwnPropertyDescriptor(Session.prototype, 'append') as PropertyDescriptor
      Object.defineProperty(Session.prototype, 'append', {
        ...append,
        value(this: Session, type: string, data: { rootCallId?: string }, ...rest: unknown[]) {
          if (type === CODE_DISPATCH_START_EVENT && data.rootCallId?.startsWith(RECORD_ID_PREFIX) === true) return undefined
          return (append.value as (...args: unknown[]) => unknown).call(this, type, data, ...rest)
        },
      })
      return () => { Object.defineProperty(Session.prototype, 'append', append) }
    },
  }
}

describe('a session written under the real rc.8', () => {
  const PLUGIN = { ...NATIVE, prefetch: 3, maxSelected: 2 }

  /** Record session a1 on rc.8 in Code Mode: a search inside run_code, two prefetches, an eviction. */
  async function recorded(reshape: readonly HostReshaping[] = []): Promise<{ root: string; live: Seen }> {
    const root = await scope.dir()
    const h = await scope.harness({ mode: 'code', plugin: PLUGIN, persistenceRoot: root, reshape })
    const { agent } = await h.agent('a1')
    await h.run(agent, 'Which repositories need attention?',
      runCode('c1', 'return (await tools.tool_search({ query: "github issue", limit: 1 })).tools.length'),
      reply('ok'))
    await h.run(agent, ASK_WEATHER, reply('ok'))
    await h.run(agent, ASK_MAIL, reply('ok'))
    const live = await seen(h, agent)
    await h.ctx.sessions.flush(agent.session)
    await scope.close(h)
    return { root, live }
  }

  const reopen = (root: string, options: HarnessOptions) => scope.harness({ mode: 'code', plugin: PLUGIN, persistenceRoot: root, ...options })

  it('keeps its selection when DSH 0.1.5 or 0.1.7 (emulated) opens it: migrated, checked, replayed', async () => {
    const { root, live } = await recorded()
    expect(live.sdk).toContain(WEATHER)
    for (const host of [dsh015('rc.8'), dsh017('rc.8')]) {
      const h = await reopen(root, { reshape: host.reshape })
      const { agent } = await h.resume('a1')
      // The resumed log holds rc.8's records under the ptc names now, and every one was paired.
      expect(agent.session.events.some(event => (event.type as string) === 'tool/ptc-dispatch-start')).toBe(true)
      expect(await seen(h, agent), host.name).toEqual(live)
      await scope.close(h)
    }
  })

  it('written by plugin 0.2.0 or earlier (settles alone): rc.8 reopens it, DSH 0.1.5 and 0.1.7 (emulated) refuse to', async () => {
    const { root, live } = await recorded([settlesAlone()])
    const rc8 = await reopen(root, {})
    const { agent } = await rc8.resume('a1')
    expect(await seen(rc8, agent)).toEqual(live)
    await scope.close(rc8)
    for (const host of [dsh015('rc.8'), dsh017('rc.8')]) {
      const h = await reopen(root, { reshape: host.reshape })
      await expect(h.resume('a1'), host.name).rejects.toThrow(/refuses this format v2 Session: tool\/code-dispatch has no unique start; source artifact remains unchanged/)
      await scope.close(h)
    }
  })
})

describe('DSH 0.1.7 (emulated) and a record in rc.8\'s spelling', () => {
  it('a log where a plugin appended tool/code-dispatch while running on it cannot be opened again', async () => {
    const host = dsh017()
    const root = await scope.dir()
    const h = await scope.harness({ plugin: NATIVE, persistenceRoot: root, reshape: host.reshape })
    const { agent } = await h.agent('a1', {
      setup: (agentCtx) => {
        agentCtx.on('agent/inbox/claimed', ({ agent: claimant }) => {
          appendLoggedCall(claimant.session, { root: `${RECORD_ID_PREFIX}test:1`, name: 'tool_search', arguments: {}, isError: false, content: [] }, { start: CODE[0], settle: CODE[1] })
        })
      },
    })
    await h.run(agent, 'hi', toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }), reply('ok'))
    await h.ctx.sessions.flush(agent.session)
    await scope.close(h)
    const again = await scope.harness({ plugin: NATIVE, persistenceRoot: root, reshape: host.reshape })
    await expect(again.resume('a1')).rejects.toThrow(/format v4 contains unknown event type "tool\/code-dispatch-start" at seq \d+/)
  })
})
