import { describe, expect, it } from 'vitest'
import { cli, cliJson, fixture } from './cli.ts'

interface Finding {
  tool: string
  severity: 'error' | 'warning'
  check: string
  message: string
  [detail: string]: unknown
}

interface LintJson {
  catalog: string
  tools: number
  top: number
  errors: number
  warnings: number
  findings: Finding[]
}

const PROBLEMS = fixture('problems.json')

function lint(...args: string[]) {
  return cliJson<LintJson>(['lint', ...args])
}

describe('lint', () => {
  it('passes a clean catalog with exit code 0', () => {
    const run = cli(['lint', '-c', fixture('weather.json')])
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(`no problems in 4 tools (${fixture('weather.json')})\n`)
    expect(lint('-c', fixture('weather-openai.json')).json).toMatchObject({ tools: 4, top: 5, errors: 0, warnings: 0, findings: [] })
  })

  it('fails a catalog with errors with exit code 1, and lists every finding with its severity', () => {
    const { code, json } = lint('-c', PROBLEMS)
    expect(code).toBe(1)
    expect(json).toMatchObject({ catalog: PROBLEMS, tools: 5, top: 5, errors: 3, warnings: 3 })
    expect(json.findings.map(f => [f.tool, f.severity, f.check])).toEqual([
      ['send_email', 'error', 'duplicate-name'],
      ['send_email', 'warning', 'undescribed-parameter'],
      ['send_email', 'warning', 'near-duplicate'],
      ['do_it', 'error', 'self-search'],
      ['do_it', 'warning', 'short-description'],
      ['archive', 'error', 'no-description'],
    ])
  })

  it('gives each finding its details', () => {
    const findings = lint('-c', PROBLEMS).json.findings
    const find = (check: string) => findings.find(f => f.check === check)
    expect(find('duplicate-name')).toMatchObject({ positions: [1, 5] })
    expect(find('undescribed-parameter')).toMatchObject({ parameters: ['subject', 'attachments[].path'] })
    expect(find('near-duplicate')).toMatchObject({ other: 'send_mail' })
    for (const share of find('near-duplicate')!['shares'] as number[]) expect(share).toBeGreaterThanOrEqual(0.8)
    expect(find('self-search')).toMatchObject({ rank: null, above: [] })
    expect(find('short-description')).toMatchObject({ words: 2 })
  })

  it('reports a tool that its own description ranks below the top N, with the tools ahead of it', () => {
    const { code, json } = lint('-c', PROBLEMS, '--top', '1')
    expect(code).toBe(1)
    expect(json.findings.find(f => f.tool === 'send_mail')).toMatchObject({
      severity: 'error',
      check: 'self-search',
      rank: 2,
      above: ['send_email'],
      message: 'searching its own description ranks it 2nd, outside the top 1 tool_search returns; ahead of it: send_email',
    })
  })

  it('prints findings grouped by tool, then a tally', () => {
    const run = cli(['lint', '-c', PROBLEMS])
    expect(run.code).toBe(1)
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe('send_email')
    expect(lines[1]).toMatch(/^ {2}error {4}duplicate-name {9}2 tools have this name \(catalog positions 1, 5\)/)
    expect(lines).toContain('archive')
    expect(lines.at(-1)).toBe(`3 errors and 3 warnings in 5 tools (${PROBLEMS})`)
  })

  it('warns about names DSH\'s MCP bridge rewrites, and exits 0 on warnings alone', () => {
    const server = lint('-c', fixture('mcp-dotted.json'), '--mcp-server', 'drive')
    expect(server.code).toBe(0)
    expect(server.json).toMatchObject({ errors: 0, warnings: 2 })
    expect(server.json.findings[0]).toMatchObject({
      tool: 'mcp__drive__files_read_fd0bdd71e57a',
      severity: 'warning',
      check: 'mcp-name',
      written: 'mcp__drive__files.read',
      registered: 'mcp__drive__files_read_fd0bdd71e57a',
    })
    const bare = lint('-c', fixture('mcp-dotted.json'))
    expect(bare.json.findings[0]).toMatchObject({ tool: 'files.read', check: 'mcp-name', registered: null })
  })

  it('lints the default catalog without errors', () => {
    const { code, json } = lint()
    expect(code).toBe(0)
    expect(json.tools).toBe(51)
    expect(json.errors).toBe(0)
    // The GitHub server's one-line descriptions and undescribed parameters are real warnings.
    expect(json.findings.some(f => f.tool === 'mcp__github__merge_pull_request' && f.check === 'short-description')).toBe(true)
  })

  it('rejects a bad --top and stray arguments with exit code 2', () => {
    expect(cli(['lint', '--top', '0']).stderr).toBe('dsh-tool-search: --top must be a whole number of at least 1, got \'0\' (see: dsh-tool-search lint --help)\n')
    const stray = cli(['lint', 'tools.json'])
    expect(stray.code).toBe(2)
    expect(stray.stderr).toBe('dsh-tool-search: unexpected argument \'tools.json\' (see: dsh-tool-search lint --help)\n')
  })
})
