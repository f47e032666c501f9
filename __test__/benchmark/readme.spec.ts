import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { checkAblationTable } from '../../bench/report/ablation-table.mjs'
import { checkReadmeSection, END, START } from '../../bench/report/readme.mjs'

const root = new URL('../../', import.meta.url)
const readme = readFileSync(new URL('README.md', root), 'utf8')
const results = JSON.parse(readFileSync(new URL('docs/benchmark-results.json', root), 'utf8'))

describe('the README benchmark section', () => {
  it('matches docs/benchmark-results.json (pnpm run benchmark:check)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['bench/benchmark.mjs', '--check'], { cwd: root })
    expect(stdout).toContain('and ablation table match docs/benchmark-results.json')
  })

  it('is reported as drifted when one token figure in it changes', () => {
    const total = results.tokens.rows[0].withoutPlugin.tokens.toLocaleString('en-US')
    const section = readme.slice(readme.indexOf(START), readme.indexOf(END))
    const edited = readme.replace(section, section.replace(`| ${total} |`, `| ${total}0 |`))
    expect(edited).not.toBe(readme)
    expect(checkReadmeSection(edited, results)).toHaveLength(1)
  })

  it('is reported as missing without its markers', () => {
    expect(checkReadmeSection(readme.replace(START, ''), results)[0]).toContain('no section')
  })
})

describe('the README ablation table', () => {
  const shipped = readme.split('\n').find((line) => line.startsWith('| shipped (R@5) |')) ?? ''

  it('has the recorded hybrid R@5 of every set and part in its shipped row', () => {
    expect(shipped).not.toBe('')
    expect(checkAblationTable(readme, results)).toEqual([])
  })

  it('is reported when a figure of its shipped row differs from the recorded eval', () => {
    const union = results.eval.sets.find((set: { id: string }) => set.id === 'union').hybrid.held.r5.toFixed(3)
    const edited = readme.replace(shipped, shipped.replace(new RegExp(`\\| ${union} \\|$`), '| 0.001 |'))
    expect(edited).not.toBe(readme)
    expect(checkAblationTable(edited, results)).toEqual([expect.stringContaining('union held')])
  })

  it('is reported as missing without its shipped row', () => {
    expect(checkAblationTable(readme.replace(shipped, ''), results)[0]).toContain('no ablation table')
  })
})
