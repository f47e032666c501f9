// Found tools stay usable through DSH's own compaction, under both loading modes, on the real
// packages as DSH's base bundle wires them: the tool-result pruner (which cuts the middle of a
// long result) and `/compact` (which summarizes the conversation away), live, on resume through
// DSH's JSONL persistence and in a fork.
//
// What the pruner does, read in dsh-compaction-tool-result-pruner: it appends a replacement
// `tool/result` (and a `compaction/prune` record) that replaces the original on the session's
// surface, the view the model is sent. The log keeps the original, which replay reads; a cut
// text carries the pruner's marker with raw newlines, which no JSON string holds, so it never
// parses as a payload and can neither add nor take away a name.
import type { Agent } from '@deepseek-ai/dsh-agent'
import { PRUNE_MARKER } from '@deepseek-ai/dsh-compaction-tool-result-pruner'
import { SessionId } from '@deepseek-ai/dsh-session'
import { describe, expect, it } from 'vitest'
import { CALL_TOOL_NAME } from '../../plugin/contract.ts'
import { selectionFromPayload } from '../../index.js'
import { CORE_FIXTURES, DEFERRED_FIXTURES, type FixtureTool } from '../support/fixtures.ts'
import { BUNDLE_PRUNER, type Harness } from '../support/harness.ts'
import { perTest } from '../support/per-test.ts'
import { reply, toolCall, type Step } from '../support/scripted-model.ts'

const WEATHER = 'mcp__weather__forecast'
type Loading = 'native' | 'stable'

/** A deferred tool whose definition alone is longer than the pruner lets a result be. */
const MANUAL: FixtureTool = {
  name: 'mcp__manual__lookup',
  description: `Look up a page of the weather station manual. ${'Every section of the manual is described here at length. '.repeat(200)}`,
  properties: { page: 'Page number.' },
}

/**
 * Under stable loading the definitions make a search result long enough for the bundle's own
 * budgets; a native result (names and summaries) never is, so it meets a user's tighter pruner.
 */
const PRUNER = { stable: BUNDLE_PRUNER, native: { thresholdChars: 300, headChars: 120, tailChars: 60 } } as const

const t = perTest()

/** Every `tool/result` text the log holds for one call, original first, its blocks joined by a newline. */
function loggedTexts(agent: Agent, callId: string): string[] {
  const texts: string[] = []
  for (const event of agent.session.events) {
    if (event.type !== 'tool/result') continue
    const block = event.data.message.content[0]
    if (block.toolCallId === callId) texts.push(block.content.map(part => (part.type === 'text' ? part.text : '')).join('\n'))
  }
  return texts
}

/** The step that runs the weather tool the way a model does under each loading. */
function callWeather(loading: Loading, id: string): Step {
  return loading === 'stable'
    ? toolCall(id, CALL_TOOL_NAME, { name: WEATHER, arguments: { city: 'Oslo' } })
    : toolCall(id, WEATHER, { city: 'Oslo' })
}

describe.each(['native', 'stable'] as const)('compaction under loading: %s', (loading) => {
  async function started(root: string): Promise<Harness> {
    return t.harness({
      plugin: { loading },
      persistenceRoot: root,
      compaction: PRUNER[loading],
      tools: [...CORE_FIXTURES, ...DEFERRED_FIXTURES, MANUAL],
    })
  }

  /**
   * Run the weather tool in a fork of the session's last completed turn (call `forked`), then
   * close the harness, resume the session in a new one and run it again there (call `resumed`).
   * @returns the harness the session was resumed in.
   */
  async function forkThenResume(h: Harness, agent: Agent, root: string, forked: string, resumed: string): Promise<Harness> {
    const forkPoint = agent.session.events.findLast(event => event.type === 'turn/end')?.seq
    const copy = h.ctx.sessions.fork(agent.session, forkPoint, SessionId('a1-copy'))
    const { agent: child } = await h.agent('child', { seed: copy.events, meta: { parentSession: agent.id, seedLength: copy.events.length } })
    await h.run(child, 'in the fork', callWeather(loading, forked), reply('done'))
    await h.ctx.sessions.flush(agent.session)
    await t.close(h)
    const again = await started(root)
    const { agent: back } = await again.resume('a1')
    await again.run(back, 'resumed', callWeather(loading, resumed), reply('done'))
    return again
  }

  it('the pruner cuts a search result on the surface only: the selection holds live, on resume and in a fork', async () => {
    const root = await t.dir()
    const h = await started(root)
    const { agent } = await h.agent('a1')
    await h.run(agent, 'weather and the manual', toolCall('c1', 'tool_search', { query: 'select:mcp__weather__forecast,mcp__manual__lookup' }), reply('ok'))
    const pruned = h.ctx.toolResultPruner.pruneSession(agent.session)
    expect(pruned.pruned.map(entry => entry.callId)).toContain('c1')

    const [original, cut] = loggedTexts(agent, 'c1')
    expect(cut).toContain(PRUNE_MARKER.trim())
    for (const block of cut!.split(PRUNE_MARKER)) expect(selectionFromPayload(block)).toEqual([])
    expect(selectionFromPayload(original!.split('\n')[0]!)).toEqual([WEATHER, MANUAL.name])

    // The model is sent the cut result from now on, and the found tool still runs.
    await h.run(agent, 'forecast', callWeather(loading, 'c2'), reply('done'))
    const sent = JSON.stringify(h.model.requests.at(-2)?.messages)
    expect(sent).toContain('tool result middle pruned')
    expect(h.log.calls).toEqual([{ name: WEATHER, args: { city: 'Oslo' } }])

    const again = await forkThenResume(h, agent, root, 'c3', 'c4')
    expect([...h.log.calls, ...again.log.calls].map(call => call.name)).toEqual([WEATHER, WEATHER, WEATHER])
    expect(again.ctx.toolSearch.agents().find(row => row.id === 'a1')?.found).toEqual([WEATHER, MANUAL.name])
  })

  it('/compact summarizes the search away: the found tool stays callable live, on resume and in a fork, and compaction changes no tools', async () => {
    const root = await t.dir()
    const h = await started(root)
    const { agent } = await h.agent('a1')
    await h.run(agent, 'weather', toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }), callWeather(loading, 'c2'), reply('sunny'))
    const before = JSON.stringify(h.model.requests.at(-1)?.tools)
    expect(await h.compact(agent, reply('The user asked for the weather; mcp__weather__forecast was found and called.'))).toMatch(/^Compacted \d+ history items/)

    await h.run(agent, 'weather again', callWeather(loading, 'c3'), reply('sunny again'))
    const [first, after] = h.model.requests.slice(-2)
    // The summary replaced the search: the model no longer reads its result.
    expect(JSON.stringify(first?.messages)).not.toContain('"schemaVersion\\":1')
    expect(JSON.stringify(after?.tools)).toBe(before)
    if (loading === 'native') expect(h.model.toolNames()).toContain(WEATHER)
    else expect(h.model.toolNames()).not.toContain(WEATHER)

    const again = await forkThenResume(h, agent, root, 'c4', 'c5')
    expect([...h.log.calls, ...again.log.calls].map(call => call.name)).toEqual([WEATHER, WEATHER, WEATHER, WEATHER])
  })
})
