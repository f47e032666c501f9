// Everything the plugin keeps for one Agent lives in its record, and forgetting the Agent is one
// call: the record's disposal empties every module's slot and removes the Agent's listeners.
// Which slots a run fills is read by watching the record's writes, so a module that kept its
// cache anywhere else would leave its name out of the list, and one the disposal missed would
// still answer after it.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Context } from '@deepseek-ai/cordis'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as ToolSearch from '../../plugin/index.ts'
import { AgentRecord, RecordSlot } from '../../plugin/host/agent-record.ts'
import { AgentState } from '../../plugin/selection/agent-state.ts'
import { runCode } from '../support/code-runtime.ts'
import { NATIVE } from '../support/harness.ts'
import { perTest } from '../support/per-test.ts'
import { reply, toolCall } from '../support/scripted-model.ts'

const t = perTest()
afterEach(() => { vi.restoreAllMocks() })

const emptyRecord = (): AgentRecord => new AgentRecord({} as Agent, new AgentState({ selected: [], prefetched: [], dropped: [] }))

/** The listeners of the two Agent-scoped events the plugin adds per Agent. */
function listenerCount(ctx: Context): number {
  const hooks = ctx.events._hooks
  return (hooks['system-prompt/assemble']?.length ?? 0) + (hooks['tools/result']?.length ?? 0)
}

/** Watch every write to a record; `of` gives an Agent's record and the slots written to it. */
function watchRecords() {
  const set = vi.spyOn(AgentRecord.prototype, 'set')
  return (agent: Agent): { record: AgentRecord; slots: RecordSlot<unknown>[] } => {
    const written = (set.mock.contexts as AgentRecord[]).flatMap((record, i) => (record.agent === agent ? [{ record, slot: set.mock.calls[i]![0] }] : []))
    const [first] = written
    if (first === undefined) throw new Error(`nothing was kept for ${agent.id}`)
    expect(new Set(written.map(({ record }) => record)).size).toBe(1)
    return { record: first.record, slots: [...new Set(written.map(({ slot }) => slot))] }
  }
}

const names = (slots: readonly RecordSlot<unknown>[]): string[] => slots.map(slot => slot.name).sort()
const held = (record: AgentRecord, slots: readonly RecordSlot<unknown>[]): string[] => names(slots.filter(slot => record.get(slot) !== undefined))

describe('an Agent record', () => {
  it('empties every slot and runs every disposer once when disposed, and keeps nothing written after', () => {
    const record = emptyRecord()
    const a = new RecordSlot<string>('a')
    const b = new RecordSlot<number[]>('b')
    const disposed: string[] = []
    record.set(a, 'text')
    record.set(b, [1])
    record.onDispose(() => { disposed.push('first') })
    record.onDispose(() => { disposed.push('second') })
    expect(record.get(a)).toBe('text')
    record.dispose()
    record.dispose()
    expect(disposed).toEqual(['first', 'second'])
    expect([record.get(a), record.get(b)]).toEqual([undefined, undefined])
    // An async step that finishes after the Agent was forgotten writes into nothing.
    record.set(a, 'late')
    expect(record.get(a)).toBeUndefined()
  })

  it('tells a message of a new turn from another of the same turn', () => {
    const record = emptyRecord()
    expect(record.turn).toBeUndefined()
    expect([record.claim(1), record.claim(1), record.claim(2)]).toEqual([true, false, true])
    expect(record.turn).toBe(2)
  })
})

describe('forgetting an Agent', () => {
  /** The slots a stable-loading run with prefetch and `defer: auto` fills (every per-Agent cache but the SDK text). */
  const STABLE_SLOTS = ['catalog index', 'deferred size', 'definitions owed', 'last assembly', 'offered weight', 'outline', 'registered tools', 'schemas last offered', 'turn deferral']

  it('is one call on agent/disposed: every cache the run kept for it goes, and only its own', async () => {
    const recordOf = watchRecords()
    const h = await t.harness({ plugin: { loading: 'stable', prefetch: 3, defer: 'auto', autoMinTokens: 0 } })
    const base = listenerCount(h.ctx)
    const { agent: other } = await h.agent('other')
    await h.run(other, 'hi', reply('ok'))
    const handle = await h.agent('a')
    const { agent } = handle
    await h.run(agent, 'What will the weather forecast be in Paris this week?', toolCall('c1', 'tool_search', { query: 'github issue' }), reply('ok'))

    const { record, slots } = recordOf(agent)
    expect(names(slots)).toEqual(STABLE_SLOTS)
    // The owed definitions were given with the step's messages; everything else is still kept.
    expect(held(record, slots)).toEqual(STABLE_SLOTS.filter(name => name !== 'definitions owed'))
    const forgotten = vi.spyOn(record, 'dispose')

    await handle.dispose()
    expect(forgotten).toHaveBeenCalledTimes(1)
    expect(held(record, slots)).toEqual([])
    expect(listenerCount(h.ctx)).toBe(base + 2)
    expect(h.ctx.toolSearch.agents().map(row => row.id)).toEqual([other.id])
    const kept = recordOf(other)
    expect(held(kept.record, kept.slots)).not.toEqual([])
  })

  it('is one call per Agent on plugin unload, the Code Mode SDK text among what goes', async () => {
    const recordOf = watchRecords()
    const h = await t.harness({ plugin: false, mode: 'code' })
    const fiber = h.ctx.plugin(ToolSearch, NATIVE)
    await fiber
    const base = listenerCount(h.ctx)
    const { agent } = await h.agent('a')
    await h.run(agent, 'weather?', runCode('c1', 'return (await tools.tool_search({ query: "weather forecast" })).tools.length'), reply('ok'))
    const { record, slots } = recordOf(agent)
    expect(names(slots)).toContain('Code Mode SDK')
    expect(held(record, slots)).toEqual(names(slots))

    await fiber.dispose()
    expect(held(record, slots)).toEqual([])
    expect(listenerCount(h.ctx)).toBe(base)
  })
})

describe('the plugin\'s sources', () => {
  it('keep nothing keyed by an Agent outside its record (a Map of records is the one index)', async () => {
    const root = join(import.meta.dirname, '../../plugin')
    const files = (await readdir(root, { recursive: true })).filter(file => file.endsWith('.ts') && !file.startsWith('client'))
    const keyedByAgent: string[] = []
    for (const file of files) {
      const text = await readFile(join(root, file), 'utf8')
      for (const match of text.matchAll(/(?:WeakMap|Map)<Agent\b[^>]*>/g)) keyedByAgent.push(`${file}: ${match[0]}`)
    }
    expect(keyedByAgent).toEqual(['host/agents.ts: Map<Agent, AgentRecord>'])
  })
})
