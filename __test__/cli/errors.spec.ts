import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli, fixture } from './cli.ts'

/** Every input error is one line on standard error, nothing on standard output, exit code 2. */
function expectInputError(args: string[], message: string, input?: string) {
  const run = cli(args, input)
  expect(run.stdout).toBe('')
  expect(run.stderr).toBe(`dsh-tool-search: ${message}\n`)
  expect(run.code).toBe(2)
}

describe('malformed catalogs', () => {
  it('names the file and the core\'s reason, for every command', () => {
    const invalid = fixture('invalid.json')
    const reason = `${invalid}: tool catalog is not valid JSON: expected ',' or '}' in an object at line 4, column 1`
    expectInputError(['search', 'weather', '-c', invalid], reason)
    expectInputError(['explain', 'weather', 'get_forecast', '-c', invalid], reason)
    expectInputError(['lint', '-c', invalid], reason)
  })

  it('rejects a catalog that is not a list of tools', () => {
    expectInputError(['lint', '-c', fixture('not-a-list.json')], `${fixture('not-a-list.json')}: tool catalog must be a JSON array of tools (or an object with a "tools" array), got an object`)
    expectInputError(['lint', '-c', '-'], 'standard input: tool at index 0 must be an object, got a number', '[1]')
  })

  it('rejects a tool without a name', () => {
    expectInputError(['lint', '-c', fixture('no-name.json')], `${fixture('no-name.json')}: tool at index 1 has no "name" string (it must be non-empty)`)
  })

  it('names an unreadable file, even among good ones', () => {
    expectInputError(['search', 'x', '-c', fixture('weather.json'), '-c', fixture('missing.json')], `cannot read catalog ${fixture('missing.json')}: no such file`)
    expectInputError(['lint', '-c', fixture('')], `cannot read catalog ${fixture('')}: it is a directory`)
    expectInputError(['lint', '-c', '-'], 'standard input: tool catalog is not valid JSON: unexpected end of JSON input at line 1, column 1', '')
  })

  it('checks the MCP server name as DSH does, and takes it only for given files', () => {
    expectInputError(['lint', '-c', fixture('weather-mcp.json'), '--mcp-server', 'my server'], '--mcp-server must be 1 to 32 characters of A-Z, a-z, 0-9, _ and - (DSH\'s rule for a server name), got \'my server\'')
    expectInputError(['lint', '--mcp-server', 'github'], '--mcp-server names the server of the files given with --catalog; the default catalog is named already')
  })
})

describe('usage errors', () => {
  it('rejects unknown commands and options, and missing or bad values', () => {
    expectInputError(['find', 'x'], 'unknown command \'find\' (commands: search, explain, lint, eval; see: dsh-tool-search --help)')
    expectInputError(['search', 'x', '--limt', '3'], 'unknown option \'--limt\' (see: dsh-tool-search search --help)')
    expectInputError(['search', 'x', '--catalog'], 'option \'-c, --catalog <value>\' argument missing (see: dsh-tool-search search --help)')
    expectInputError(['search', 'x', '--limit', 'many'], '--limit must be a whole number of at least 1, got \'many\' (see: dsh-tool-search search --help)')
    expectInputError(['search', 'x', '--limit', '2.5'], '--limit must be a whole number of at least 1, got \'2.5\' (see: dsh-tool-search search --help)')
  })

  it('checks the query as tool_search does', () => {
    expectInputError(['search', '  '], 'the query is empty (see: dsh-tool-search search --help)')
    expectInputError(['search', 'x'.repeat(4097)], 'the query is 4097 characters long; tool_search takes at most 4096 (see: dsh-tool-search search --help)')
  })

  it('shows the overview on standard error when no command is given', () => {
    const run = cli([])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(/^Usage: dsh-tool-search <command> \[options\]\n/)
  })
})

describe('help and version', () => {
  it('shows the overview', () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const run = cli(args)
      expect(run.code).toBe(0)
      expect(run.stdout).toMatch(/^Usage: dsh-tool-search <command> \[options\]\n/)
      expect(run.stdout).toMatch(/\n {2}search {3}rank the catalog's tools for a query, and say what tool_search loads\n {2}explain {2}.*\n {2}lint {5}/)
    }
  })

  it('shows each command\'s help, in every spelling', () => {
    for (const command of ['search', 'explain', 'lint', 'eval']) {
      const expected = cli([command, '--help']).stdout
      expect(expected).toMatch(new RegExp(`^Usage: dsh-tool-search ${command} `))
      expect(expected).toContain('--catalog FILE')
      expect(cli([command, '-h']).stdout).toBe(expected)
      expect(cli(['help', command]).stdout).toBe(expected)
      // Help wins over arguments the command would reject, not over options nobody knows.
      expect(cli([command, 'a', 'b', 'c', '--help']).code).toBe(0)
      expect(cli([command, '--help', '--bogus']).code).toBe(2)
    }
    expectInputError(['help', 'find'], 'unknown command \'find\' (commands: search, explain, lint, eval)')
  })

  it('lint\'s help documents the severities and exit codes', () => {
    const help = cli(['lint', '--help']).stdout
    expect(help).toContain('Exit code 1 when there are\nerrors, 0 when there are none (warnings alone do not fail), 2 when the catalog cannot be read\nor the arguments are wrong.')
    for (const check of ['self-search', 'no-description', 'duplicate-name', 'near-duplicate', 'short-description', 'undescribed-parameter', 'mcp-name']) {
      expect(help).toMatch(new RegExp(`\\n {2}${check} `))
    }
  })

  it('prints the package version', () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }
    for (const flag of ['--version', '-v']) {
      const run = cli([flag])
      expect(run.code).toBe(0)
      expect(run.stdout).toBe(`${version}\n`)
    }
  })
})
