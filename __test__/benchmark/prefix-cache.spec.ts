import { describe, expect, it } from 'vitest'
import { cachedPrefixes } from '../../bench/cost/measured/prefix-cache.mjs'
import { requestSegments, Tokenizer } from '../../bench/cost/measured/request-tokens.mjs'
import { fillerText, fillerTokens } from '../../bench/cost/measured/session-plugin/filler.js'

// o200k_base, through the benchmark's own tokenizer (gpt-tokenizer is the bench package's dependency).
const countTokens = (text: string) => new Tokenizer().count(text)

/** A segment of `length` tokens, all `id`: segments of different ids share no token. */
const run = (id: number, length: number) => Array.from({ length }, () => id)
const figures = (requests: number[][][], unit: number) => cachedPrefixes(requests.map(prompt => ({ prompt })), { unit }).map(({ input, shared, cached }) => [input, shared, cached])

describe('the cached prefix of a request', () => {
  it('is nothing for the first request of a session', () => {
    expect(figures([[run(1, 500), run(2, 100)]], 64)).toEqual([[600, 0, 0]])
  })

  it('counts the prefix shared with the request before in whole units, dropping a partial one', () => {
    const system = run(1, 130)
    const first = [system, run(2, 70)]
    // 200 shared tokens are three whole units of 64 and 8 tokens of a fourth.
    expect(figures([first, [...first, run(3, 50)]], 64)).toEqual([[200, 0, 0], [250, 200, 192]])
    expect(figures([first, [...first, run(3, 50)]], 1)[1]).toEqual([250, 200, 200])
    expect(figures([first, [...first, run(3, 50)]], 200)[1]).toEqual([250, 200, 200])
    expect(figures([first, [...first, run(3, 50)]], 201)[1]).toEqual([250, 200, 0])
  })

  it('includes the reply the request before got, which the next request carries as its next message', () => {
    const prompt = [run(1, 300), run(2, 100)]
    const reply = run(3, 250)
    const next = [...prompt, run(3, 250), run(4, 1000)]
    const [, second] = cachedPrefixes([{ prompt, reply }, { prompt: next }], { unit: 1 })
    expect(second).toEqual({ input: 1650, shared: 650, cached: 650 })
    // Without the reply left in the cache, only the earlier prompt is shared.
    expect(figures([prompt, next], 1)[1]).toEqual([1650, 400, 400])
    // A reply is never part of the input of its own request.
    expect(cachedPrefixes([{ prompt, reply }], { unit: 1 })[0]).toEqual({ input: 400, shared: 0, cached: 0 })
  })

  it('caches less than one unit as nothing', () => {
    const first = [run(1, 63), run(2, 10)]
    expect(figures([first, [run(1, 63), run(3, 10)]], 64)[1]).toEqual([73, 63, 0])
    expect(figures([[run(1, 64), run(2, 10)], [run(1, 64), run(3, 10)]], 64)[1]).toEqual([74, 64, 64])
  })

  it('ends at the first tool that changed, keeping the tokens the two definitions start with', () => {
    const system = run(1, 100)
    const [readTool, grepTool] = [run(2, 40), run(3, 40)]
    // A found tool inserted between the two: its definition starts like grep's for 5 tokens.
    const found = [...run(3, 5), ...run(4, 35)]
    const [user, result, later] = [run(5, 20), run(6, 300), run(7, 300)]
    const session = [
      [system, readTool, grepTool, user],
      [system, readTool, grepTool, user, result],
      [system, readTool, found, grepTool, user, result, later],
      [system, readTool, found, grepTool, user, result, later, run(8, 10)],
    ]
    expect(figures(session, 1)).toEqual([
      [200, 0, 0],
      [500, 200, 200],
      [840, 145, 145], // system, read, and 5 tokens of the inserted definition
      [850, 840, 840],
    ])
    expect(figures(session, 64).map(([, , cached]) => cached)).toEqual([0, 192, 128, 832])
  })

  it('matches the longest prefix of any earlier request, not only the last one', () => {
    const a = [run(1, 300), run(2, 300)]
    const b = [run(1, 300), run(3, 300)] // a different branch after the system prompt
    const c = [...a, run(4, 100)] // back on a's branch
    expect(figures([a, b, c], 64)).toEqual([[600, 0, 0], [600, 300, 256], [700, 600, 576]])
  })

  it('compares segments by their tokens, whichever arrays hold them', () => {
    expect(figures([[[1, 2, 3], [4, 5]], [[1, 2, 3], [4, 5], [6]]], 1)[1]).toEqual([6, 5, 5])
  })

  it('takes a cache unit of one token or more only', () => {
    expect(() => cachedPrefixes([], { unit: 0 })).toThrow(/whole number/)
    expect(() => cachedPrefixes([], { unit: 64 })).not.toThrow()
    expect(() => cachedPrefixes([], { unit: 1.5 })).toThrow(/whole number/)
  })
})

describe('a DSH request laid out for the cache', () => {
  const tool = (name: string) => ({ type: 'function', function: { name, description: `The ${name} tool.`, parameters: { type: 'object', properties: {} } } })
  const system = { role: 'system', content: 'You are a coding agent. '.repeat(40) }
  const user = { role: 'user', content: 'Task 1 of 1: read the notes.' }

  it('puts the system prompt, then the tools, then the conversation', () => {
    const tokenizer = new Tokenizer()
    const { segments, toolsTokens } = requestSegments({ messages: [system, user], tools: [tool('read'), tool('grep')] }, tokenizer)
    expect(segments).toHaveLength(4)
    expect(segments[0]).toHaveLength(countTokens(system.content))
    expect(toolsTokens).toBe(countTokens(JSON.stringify(tool('read'))) + countTokens(JSON.stringify(tool('grep'))))
  })

  it('keeps the system prompt and the tools before a found one cached when the tools change', () => {
    const tokenizer = new Tokenizer()
    const before = requestSegments({ messages: [system, user], tools: [tool('read'), tool('grep')] }, tokenizer)
    const after = requestSegments({ messages: [system, user], tools: [tool('read'), tool('web_search'), tool('grep')] }, tokenizer)
    const [, second] = cachedPrefixes([{ prompt: before.segments }, { prompt: after.segments }], { unit: 1 })
    const kept = countTokens(system.content) + countTokens(JSON.stringify(tool('read')))
    // Past the read tool, the two next definitions share their opening JSON up to the name.
    expect(second?.shared).toBeGreaterThan(kept)
    expect(second?.shared).toBeLessThan(kept + countTokens(JSON.stringify(tool('grep'))))
  })
})

describe('the filler text of measured sessions', () => {
  it('has as many o200k tokens as it promises, whatever its seed and length', () => {
    for (let i = 0; i < 60; i++) {
      const words = 1 + ((i * 97) % 1200)
      expect(countTokens(fillerText(`seed ${i}`, words))).toBe(fillerTokens(words))
    }
  })

  it('is the same text for the same seed', () => {
    expect(fillerText('a', 50)).toBe(fillerText('a', 50))
    expect(fillerText('a', 50)).not.toBe(fillerText('b', 50))
  })
})
