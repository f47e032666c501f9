// selectionFromEvents through the addon, on session events shaped as DSH 0.1.x logs them,
// selectionFromPayload, the rule replay applies to each result text, and selectionFromResult, the
// same reading of one live result.
import { describe, expect, it } from 'vitest'
import { selectionFromEvents, selectionFromPayload, selectionFromResult } from '../../index.js'

const payload = (...names: string[]) => JSON.stringify({ schemaVersion: 1, query: 'q', tools: names.map((name) => ({ name, description: '', score: 1 })) })
const call = (callId: string, name: string) => ({ type: 'tool/call', seq: 1, time: 0, data: { turn: 1, step: 1, callId, name, arguments: '{}' } })
const result = (callId: string, texts: string[], extra: object = {}) => ({
  type: 'tool/result', seq: 2, time: 0,
  data: { turn: 1, step: 1, ...extra, message: { id: 'm', role: 'user', source: { kind: 'tool' }, content: [{ type: 'tool-result', toolCallId: callId, content: texts.map((text) => ({ type: 'text', text })) }] } },
})
const dispatch = (name: string, isError: boolean, text: string) => ({
  type: 'tool/code-dispatch', seq: 3, time: 0,
  data: { rootCallId: 'r', parentCallId: 'r', subCallId: 'r:code:1', name, arguments: {}, isError, content: [{ type: 'text', text }] },
})
const replay = (events: unknown[]) => selectionFromEvents(JSON.stringify(events)).selected

describe('selectionFromEvents', () => {
  it('collects successful searches, native and inside run_code, in first-seen order', () => {
    const events = [
      call('c1', 'tool_search'), result('c1', [payload('b', 'a')]),
      dispatch('tool_search', false, payload('c', 'a')),
      call('c2', 'tool_search'), result('c2', ['not json', payload('d')]),
    ]
    expect(replay(events)).toEqual(['b', 'a', 'c', 'd'])
  })

  it('skips failures, other tools, orphans and foreign payloads', () => {
    const events = [
      call('c1', 'tool_search'), result('c1', [payload('blocked')], { error: { name: 'E', code: 'BLOCKED' } }),
      call('c2', 'bash'), result('c2', [payload('from_bash')]),
      result('orphan', [payload('orphan')]),
      call('c3', 'tool_search'), result('c3', [JSON.stringify({ schemaVersion: 2, tools: [{ name: 'v2' }] })]),
      dispatch('tool_search', true, payload('failed_in_code')),
      { type: 'tool/result', data: 'garbage' }, null, 42,
    ]
    expect(replay(events)).toEqual([])
  })

  it('rejects text that is not an event list, with a clear message', () => {
    expect(() => selectionFromEvents('{"type": "tool/call"}')).toThrow('session events must be a JSON array, got an object')
    expect(() => selectionFromEvents('[{"type"')).toThrow(/^session events are not valid JSON: /)
    expect(selectionFromEvents('[]')).toEqual({ selected: [], prefetched: [], dropped: [], lastUsed: [] })
  })

  it('gives the order tools were last used in, counting only calls that succeeded', () => {
    const events = [
      call('c1', 'tool_search'), result('c1', [payload('best', 'second')]),
      call('c2', 'second'), result('c2', ['done']),
      call('c3', 'best'), result('c3', ['Error: no'], { error: { name: 'E', code: 'FAILED' } }),
      dispatch('run_in_code', false, 'ran'), dispatch('failed_in_code', true, 'no'),
    ]
    expect(selectionFromEvents(JSON.stringify(events)).lastUsed).toEqual(['best', 'second', 'run_in_code'])
  })
})

describe('selectionFromResult', () => {
  const content = [{ type: 'text', text: payload('a', 'b') }, { type: 'text', text: payload('b', 'c') }]

  it('reads a live result as replay reads its logged copy: a failure selects nothing', () => {
    expect(selectionFromResult(JSON.stringify({ isError: false, content }))).toEqual(['a', 'b', 'c'])
    expect(selectionFromResult(JSON.stringify({ content }))).toEqual(['a', 'b', 'c'])
    expect(selectionFromResult(JSON.stringify({ isError: true, content }))).toEqual([])
    expect(selectionFromResult(JSON.stringify({ isError: false, error: { message: 'm' }, content }))).toEqual([])
    const events = [call('c1', 'tool_search'), result('c1', [payload('a', 'b'), payload('b', 'c')])]
    expect(replay(events)).toEqual(selectionFromResult(JSON.stringify({ isError: false, content })))
  })

  it('refuses what is not one result, with a clear message', () => {
    expect(() => selectionFromResult('[]')).toThrow('a tool result must be a JSON object, got an array')
    expect(() => selectionFromResult('{')).toThrow(/^a tool result is not valid JSON: /)
    expect(() => selectionFromResult(7 as unknown as string)).toThrow('tool result text must be a string, got a number')
  })
})

describe('selectionFromPayload', () => {
  it('selects the non-empty names of a version-1 payload once each, in order', () => {
    expect(selectionFromPayload(payload('b', 'a', 'b', 'c'))).toEqual(['b', 'a', 'c'])
    const odd = JSON.stringify({ schemaVersion: 1, query: 'q', tools: [{ name: '' }, { name: 7 }, 'x', { name: 'ok' }, { name: 's\uD800' }] })
    expect(selectionFromPayload(odd)).toEqual(['ok', 's\uFFFD'])
  })

  it('selects the tools only, never the candidates shown beside them', () => {
    const hit = (name: string) => ({ name, description: '', score: 0.1 })
    const shown = JSON.stringify({ schemaVersion: 1, query: 'q', tools: [hit('loaded')], note: 'n', candidates: [hit('shown'), hit('also_shown')] })
    expect(selectionFromPayload(shown)).toEqual(['loaded'])
  })

  it('selects nothing from text that is not such a payload', () => {
    for (const text of ['', 'not json', '[]', '{"tools":[{"name":"a"}]}', JSON.stringify({ schemaVersion: 2, tools: [{ name: 'a' }] }),
      JSON.stringify({ schemaVersion: '1', tools: [{ name: 'a' }] }), payload('a').slice(0, -1)]) {
      expect(selectionFromPayload(text)).toEqual([])
    }
  })

  it('is the rule replay applies to every persisted result', () => {
    const texts = [payload('a', 'b'), 'Error: no', payload('b', 'c'), JSON.stringify({ schemaVersion: 2, tools: [{ name: 'd' }] })]
    const events = texts.flatMap((text, i) => [call(`c${i}`, 'tool_search'), result(`c${i}`, [text])])
    expect(replay(events)).toEqual([...new Set(texts.flatMap((text) => selectionFromPayload(text)))])
    expect(replay(events)).toEqual(['a', 'b', 'c'])
  })
})
