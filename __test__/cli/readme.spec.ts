import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cli, fixture } from './cli.ts'

/**
 * The README's command-line section shows real output. Each `$ dsh-tool-search ...` line in its
 * text blocks is run again here and must print what the README says (`$ echo $?`: its exit code),
 * so a ranking change that alters the output fails until the README is updated.
 */

const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8')
const SECTION = README.slice(README.indexOf('<!-- cli:start -->'), README.indexOf('<!-- cli:end -->'))

// The example catalogs (and requests) the README lints and measures, under the names it gives them.
const dir = mkdtempSync(join(tmpdir(), 'dsh-tool-search-readme-'))
copyFileSync(fixture('problems.json'), join(dir, 'tools.json'))
copyFileSync(fixture('mcp-dotted.json'), join(dir, 'drive-tools.json'))
copyFileSync(fixture('weather.json'), join(dir, 'weather.json'))
copyFileSync(fixture('weather-requests.jsonl'), join(dir, 'requests.jsonl'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Example { command: string; args: string[]; output: string; code: number | undefined }

function examples(): Example[] {
  const found: Example[] = []
  for (const [, block = ''] of SECTION.matchAll(/```text\n([\s\S]*?)```/g)) {
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

describe('the README\'s command-line examples', () => {
  const all = examples()

  it('are there to check', () => {
    expect(SECTION).not.toBe('')
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
