// The events the plugin hands to the native replay: only the types it reads, with every long
// text that is not a payload cut, so a long session's output never has to be serialized whole;
// and the same selection as the whole log.
import { readFileSync } from 'node:fs'
import { constants } from 'node:buffer'
import { describe, expect, it } from 'vitest'
import { selectionFromEvents } from '../../index.js'
import { replaySelection } from '../../plugin/selection/result.ts'

const recorded = (name: string) => JSON.parse(readFileSync(new URL(`../../fuzz/sessions/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>[]
const whole = (events: readonly unknown[]) => selectionFromEvents(JSON.stringify(events))

/** Deterministic choices for the edited logs. */
function random(seed: number): (n: number) => number {
  let state = seed
  return (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    return (state >>> 8) % n
  }
}

describe('replaySelection', () => {
  it('selects what the whole log selects, for real sessions and for edited, shuffled and broken ones', () => {
    const garbage: unknown[] = [null, 7, 'tool/result', [], {}, { type: 'tool/call' }, { type: 'tool/call', data: 'x' },
      { type: 'tool/result', data: { message: { content: 'x' } } }, { type: 'tool/result', data: { message: { content: [null, 1] } } },
      { type: 'tool/call', data: { callId: 5, name: 'tool_search' } }, { type: 'tool/code-dispatch', data: null }]
    for (const session of ['native', 'code']) {
      const events = recorded(session)
      expect(replaySelection(events)).toEqual(whole(events))
      expect(replaySelection(events).selected.length).toBeGreaterThan(0)
      const pick = random(session.length)
      for (let round = 0; round < 200; round += 1) {
        // Cut, shuffle, reuse call ids and mix in garbage.
        const edited: unknown[] = events.slice(0, pick(events.length + 1)).map((event) => {
          if (event['type'] !== 'tool/call' || pick(4) !== 0) return event
          return { ...event, data: { ...(event['data'] as object), callId: pick(2) === 0 ? 'c1' : 'c2', name: pick(2) === 0 ? 'bash' : 'tool_search' } }
        })
        for (let i = pick(4); i > 0; i -= 1) edited.splice(pick(edited.length + 1), 0, garbage[pick(garbage.length)])
        if (pick(3) === 0) edited.reverse()
        expect(replaySelection(edited)).toEqual(whole(edited))
      }
    }
  })

  it('replays a log whose whole JSON would not fit in one JavaScript string', () => {
    const output = 'x'.repeat(100_000_000)
    const bash = (id: string) => [
      { type: 'tool/call', data: { callId: id, name: 'bash', arguments: output } },
      { type: 'tool/result', data: { message: { content: [{ type: 'tool-result', toolCallId: id, content: [{ type: 'text', text: output }] }] } } },
    ]
    const events = [...recorded('native'), ...bash('b1'), ...bash('b2'), ...bash('b3')]
    expect(() => JSON.stringify(events)).toThrow(RangeError)
    expect(6 * output.length).toBeGreaterThan(constants.MAX_STRING_LENGTH)
    const before = whole(recorded('native'))
    // The three bash calls succeeded, so bash is the tool used last.
    expect(replaySelection(events)).toEqual({ ...before, lastUsed: [...before.lastUsed.filter(name => name !== 'bash'), 'bash'] })
  })
})
