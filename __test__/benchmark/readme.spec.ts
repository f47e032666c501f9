import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { checkAblationTable } from '../../bench/report/ablation-table.mjs'
import { checkReadmeSection, END, START } from '../../bench/report/readme.mjs'

// The generated benchmark page (docs/benchmark.md) and the hand-written ablation table in
// docs/search.md, against the recorded results: what `pnpm run benchmark:check` checks.
const root = new URL('../../', import.meta.url)
const page = readFileSync(new URL('docs/benchmark.md', root), 'utf8')
const search = readFileSync(new URL('docs/search.md', root), 'utf8')
const results = JSON.parse(readFileSync(new URL('docs/benchmark-results.json', root), 'utf8'))

const dir = mkdtempSync(join(tmpdir(), 'dsh-tool-search-benchmark-page-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** `node bench/benchmark.mjs --check` with these arguments: its exit code and output. */
async function check(...args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['bench/benchmark.mjs', '--check', ...args], { cwd: root })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

/** The page with one token figure of its generated section changed. */
function drifted() {
  const total = results.tokens.rows[0].withoutPlugin.tokens.toLocaleString('en-US')
  const section = page.slice(page.indexOf(START), page.indexOf(END))
  return page.replace(section, section.replace(`| ${total} |`, `| ${total}0 |`))
}

describe('the benchmark page, docs/benchmark.md', () => {
  it('matches docs/benchmark-results.json (pnpm run benchmark:check)', async () => {
    const run = await check()
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('docs/benchmark.md and the ablation table in docs/search.md match docs/benchmark-results.json')
  })

  it('is reported as drifted when one token figure in it changes', () => {
    const edited = drifted()
    expect(edited).not.toBe(page)
    expect(checkReadmeSection(edited, results)).toEqual([expect.stringContaining('docs/benchmark.md has')])
  })

  it('fails pnpm run benchmark:check when it drifts', async () => {
    const edited = join(dir, 'benchmark.md')
    writeFileSync(edited, drifted())
    const run = await check('--page', edited)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('line ')
    expect(run.stdout).toContain('differs from docs/benchmark-results.json in 1 place(s)')
  })

  it('is reported as missing without its markers', () => {
    expect(checkReadmeSection(page.replace(START, ''), results)[0]).toContain('no section')
  })
})

describe('the ablation table in docs/search.md', () => {
  const shipped = search.split('\n').find((line) => line.startsWith('| shipped (R@5) |')) ?? ''

  it('has the recorded hybrid R@5 of every set and part in its shipped row', () => {
    expect(shipped).not.toBe('')
    expect(checkAblationTable(search, results)).toEqual([])
  })

  it('is reported when a figure of its shipped row differs from the recorded eval', async () => {
    // The shipped row with its "union held" cell (found by the header two lines above) changed.
    const lines = search.split('\n')
    const header = (lines[lines.indexOf(shipped) - 2] ?? '').split('|')
    const cells = shipped.split('|')
    cells[header.findIndex((cell) => cell.trim() === 'union held')] = ' 0.001 '
    const edited = search.replace(shipped, cells.join('|'))
    expect(edited).not.toBe(search)
    expect(checkAblationTable(edited, results)).toEqual([expect.stringContaining('union held')])
    const file = join(dir, 'search.md')
    writeFileSync(file, edited)
    const run = await check('--ablation-page', file)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('union held')
  })

  it('is reported as missing without its shipped row', () => {
    expect(checkAblationTable(search.replace(shipped, ''), results)[0]).toContain('no ablation table')
  })
})
