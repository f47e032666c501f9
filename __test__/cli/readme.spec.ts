import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cli, fixture } from './cli.ts'

/**
 * The command-line examples in the README (both languages) and in docs/cli.md show real output. Each
 * `$ dsh-tool-search ...` line in the text blocks between a page's `cli` markers is run again
 * here and must print what the page says (`$ echo $?`: its exit code), so a ranking change that
 * alters the output fails until the text is updated.
 */

const ROOT = join(import.meta.dirname, '..', '..')
const PAGES = ['README.md', 'README.zh.md', 'docs/cli.md']

/** The text between a page's cli markers. */
function section(page: string): string {
  const text = readFileSync(join(ROOT, page), 'utf8')
  const start = text.indexOf('<!-- cli:start -->')
  const end = text.indexOf('<!-- cli:end -->', start)
  return start === -1 || end === -1 ? '' : text.slice(start, end)
}

// The example catalogs (and requests) the pages lint and measure, under the names they give them.
const dir = mkdtempSync(join(tmpdir(), 'dsh-tool-search-readme-'))
copyFileSync(fixture('problems.json'), join(dir, 'tools.json'))
copyFileSync(fixture('mcp-dotted.json'), join(dir, 'drive-tools.json'))
copyFileSync(fixture('weather.json'), join(dir, 'weather.json'))
copyFileSync(fixture('weather-requests.jsonl'), join(dir, 'requests.jsonl'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Example { command: string; args: string[]; output: string; code: number | undefined }

function examples(text: string): Example[] {
  const found: Example[] = []
  for (const [, block = ''] of text.matchAll(/```text\n([\s\S]*?)```/g)) {
    for (const chunk of block.split(/^(?=\$ )/m).filter(part => part.startsWith('$ '))) {
      const [line = '', ...output] = chunk.trimEnd().split('\n')
      const command = line.slice(2)
      if (command === 'echo $?') {
        found.at(-1)!.code = Number(output[0])
        continue
      }
      const args = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map(m => m[1] ?? m[2] ?? '').slice(1)
      found.push({ command, args, output: output.join('\n'), code: undefined })
    }
  }
  return found
}

for (const page of PAGES) {
  describe(`the command-line examples in ${page}`, () => {
    const text = section(page)
    const all = examples(text)

    it('are there to check', () => {
      expect(text).not.toBe('')
      expect(all.map(example => example.args[0])).toEqual(expect.arrayContaining(['search', 'explain', 'lint', 'eval']))
    })

    for (const example of all) {
      it(example.command, () => {
        const run = cli(example.args, undefined, dir)
        expect(run.stdout.trimEnd()).toBe(example.output)
        if (example.code !== undefined) expect(run.code).toBe(example.code)
      })
    }
  })
}
