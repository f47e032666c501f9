// README.zh.md is kept in step with README.md as DSH keeps its bilingual documents
// (scripts/verify-translation-pairing.mjs, `pnpm run verify-translation-pairing`): the pair
// passes, each kind of drift fails it, both stay within 300 lines, and both settings tables give
// every setting of the contract with its default.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { SETTINGS, SETTING_KEYS } from '../../plugin/contract.ts'
import { blobHash, checkPair, pairStems, writeRecord } from '../../scripts/verify-translation-pairing.mjs'

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const PAIR = ['README.md', 'README.zh.md', 'README.i18n.yaml']
const copies: string[] = []
afterEach(() => {
  for (const copy of copies.splice(0)) rmSync(copy, { recursive: true, force: true })
})

/** The pair copied into a scratch repository, the Chinese side edited by `edit`, and confirmed again when `confirm`. */
function edited(edit: (chinese: string) => string, confirm: boolean): string {
  const root = mkdtempSync(join(tmpdir(), 'pairing-'))
  copies.push(root)
  for (const file of PAIR) copyFileSync(join(REPO, file), join(root, file))
  writeFileSync(join(root, 'README.zh.md'), edit(readFileSync(join(root, 'README.zh.md'), 'utf8')))
  if (confirm) writeRecord(root, 'README')
  return root
}

/** A settings table's rows: each key's default, as the page writes them. */
function settingsTable(page: string): Map<string, string> {
  const text = readFileSync(join(REPO, page), 'utf8')
  const rows = [...text.matchAll(/^\| `(\w+)` \| `([^`]*)` \|/gm)]
  return new Map(rows.map(row => [row[1] ?? '', row[2] ?? '']))
}

describe('README.zh.md and README.md', () => {
  it('are a pair in step: the recorded hashes are the files\', and the structure is the same', () => {
    expect(pairStems(REPO)).toContain('README')
    expect(checkPair(REPO, 'README')).toEqual([])
    const recorded = readFileSync(join(REPO, 'README.i18n.yaml'), 'utf8')
    for (const side of ['README.md', 'README.zh.md']) expect(recorded).toContain(`${side}: ${blobHash(readFileSync(join(REPO, side)))}`)
  })

  it('fail when one side changed and the pair was not confirmed again', () => {
    const root = edited(text => `${text}\n补一句。\n`, false)
    expect(checkPair(root, 'README')).toEqual([expect.stringMatching(/^README\.zh\.md changed since the pair was last confirmed .* --write README\.md$/)])
  })

  it('fail, even when confirmed, on a lost heading, a changed default, a changed example or a missing switcher', () => {
    const cases: [string, (text: string) => string, RegExp][] = [
      ['heading', text => text.replace('## 查询形式\n', ''), /differ in their headings/],
      ['default', text => text.replace('| `defaultLimit` | `5` |', '| `defaultLimit` | `8` |'), /differ in their code cells: .*`5`.*`8`/],
      ['example', text => text.replace('./run test   # every test', './run test   # 全部测试'), /differ in their code blocks/],
      ['switcher', text => text.replace('[English](README.md) | 中文', '中文'), /README\.zh\.md: the first line after the title must be \[English\]\(README\.md\) \| 中文/],
      ['anchor', text => text.replace('<a id="why-stable"></a>', ''), /lacks the anchors <a id="why-stable">/],
    ]
    for (const [what, edit, finding] of cases) {
      expect(checkPair(edited(edit, true), 'README'), what).toEqual(expect.arrayContaining([expect.stringMatching(finding)]))
    }
  })

  it('stay short enough to read: at most 300 lines each', () => {
    for (const page of ['README.md', 'README.zh.md']) expect(readFileSync(join(REPO, page), 'utf8').split('\n').length - 1, page).toBeLessThanOrEqual(300)
  })

  it('both list every setting of the contract with its default', () => {
    const contract = new Map(SETTING_KEYS.map((key) => {
      const fallback = SETTINGS[key].default
      return [key, Array.isArray(fallback) ? JSON.stringify(fallback) : String(fallback)]
    }))
    expect(settingsTable('README.md')).toEqual(contract)
    expect(settingsTable('README.zh.md')).toEqual(contract)
  })
})
