// Terminal widths in the command line's text output: CJK takes two columns, an emoji sequence two,
// a combining mark none, and nothing is ever cut inside a character.
import { describe, expect, it } from 'vitest'
import { cut, displayWidth, table, wrap } from '../../bin/cli/format.js'
import { cli } from './cli.ts'

const FAMILY = '👩‍👩‍👧' // three emoji joined by two zero-width joiners: one picture
const FLAG = '🇫🇷' // two regional indicators
const HEART = '❤️' // a narrow symbol made an emoji by VS16
const E_ACUTE = 'e\u0301' // e and a combining acute accent

describe('displayWidth', () => {
  it('counts terminal columns, not UTF-16 units', () => {
    expect(displayWidth('weather')).toBe(7)
    expect(displayWidth('天气预报')).toBe(8)
    expect(displayWidth('ｗｅｂ')).toBe(6) // fullwidth Latin
    expect(displayWidth('カタカナ')).toBe(8)
    expect(displayWidth('한국어')).toBe(6)
    expect(displayWidth(`${FAMILY}${FLAG}${HEART}`)).toBe(6)
    expect(displayWidth('🚀')).toBe(2)
    expect(displayWidth('🌦')).toBe(1) // text presentation unless followed by VS16
    expect(displayWidth(`caf${E_ACUTE}`)).toBe(4)
    expect(displayWidth('a\u200bb\u0007')).toBe(2)
  })
})

describe('cut', () => {
  it('cuts to columns and never inside a character', () => {
    expect(cut('天气预报服务', 7)).toBe('天气预…')
    expect(displayWidth(cut('天气预报服务', 7))).toBeLessThanOrEqual(7)
    expect(cut(`ab${FAMILY}cd`, 4)).toBe('ab…') // the family does not fit beside the mark
    expect(cut(`ab${FAMILY}cd`, 5)).toBe(`ab${FAMILY}…`)
    expect(cut(`${E_ACUTE}${E_ACUTE}${E_ACUTE}`, 3)).toBe(`${E_ACUTE}${E_ACUTE}${E_ACUTE}`)
    expect(cut(`${E_ACUTE}${E_ACUTE}${E_ACUTE}`, 2)).toBe(`${E_ACUTE}…`)
    expect(cut('🚀'.repeat(10), 6)).toBe('🚀🚀…')
    expect(cut('short', 10)).toBe('short')
  })
})

describe('table and wrap', () => {
  it('align columns by the width they take on screen', () => {
    const lines = table([['tool', 'score', 'note'], ['天气', '1.000', 'x'], [`caf${E_ACUTE}`, '0.500', 'y'], [FLAG, '0.250', 'z']])
    expect(lines.map(line => displayWidth(line.slice(0, line.lastIndexOf(' '))))).toEqual([12, 12, 12, 12])
  })

  it('fill lines up to the width in columns', () => {
    const lines = wrap('天气 预报 服务 查询 城市', 11, '  ')
    expect(lines).toEqual(['  天气 预报', '  服务 查询', '  城市'])
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(11)
  })
})

describe('search output', () => {
  it('fits a table of CJK and emoji descriptions to 100 columns', () => {
    const catalog = [
      { name: 'forecast', description: `天气预报：${'查询城市未来七天的天气、气温和降水概率。'.repeat(8)}` },
      { name: 'forecast_emoji', description: `Weather forecast ${'🚀'.repeat(80)}` },
    ]
    const run = cli(['search', 'forecast weather 天气预报', '-c', '-'], JSON.stringify(catalog))
    expect(run.code).toBe(0)
    const rows = run.stdout.split('\n').filter(line => /^\d\s+\d+\.\d{3}\s/.test(line))
    expect(rows).toHaveLength(2)
    for (const row of rows) {
      expect(displayWidth(row)).toBeLessThanOrEqual(100)
      expect(row.endsWith('…')).toBe(true)
      expect(row).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/) // no lone high surrogate
    }
  })
})
