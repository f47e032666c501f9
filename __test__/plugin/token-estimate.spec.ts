// The cheap token count's rules, one by one. How close it comes to o200k on real text is measured
// by bench/tokens/estimate-error.mjs; the benchmark prints its error on every catalog.
import { describe, expect, it } from 'vitest'
import { estimateTokens } from '../../plugin/offer/token-estimate.ts'

describe('estimateTokens', () => {
  it('counts runs: letters by nine, digits and punctuation by three, single spaces as nothing', () => {
    expect(estimateTokens('')).toBe(0)
    expect(estimateTokens('weather')).toBe(1)
    expect(estimateTokens('abcdefghij')).toBe(2)
    expect(estimateTokens('2026')).toBe(2)
    expect(estimateTokens('{"a":')).toBe(3)
    expect(estimateTokens('get weather now')).toBe(3)
    expect(estimateTokens('a\n\n  b')).toBe(3)
    expect(estimateTokens('mcp__github__create_issue')).toBe(6)
  })

  it('counts every other character as one, a surrogate pair as one character', () => {
    expect(estimateTokens('天气预报')).toBe(4)
    expect(estimateTokens('🌦🌦')).toBe(2)
    expect(estimateTokens('café')).toBe(2)
    expect(estimateTokens('\uD800x')).toBe(2)
  })
})
