/**
 * Runs the real command line in a child process, as a user's shell would: `node bin/dsh-tool-search.js`.
 * DSH_TOOL_SEARCH_TEST_NODE picks another Node (the CLI supports Node 20 and later).
 */

import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'dsh-tool-search.js')
const NODE = process.env['DSH_TOOL_SEARCH_TEST_NODE'] ?? process.execPath

export interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export function cli(args: readonly string[], input?: string, cwd?: string): Run {
  const result = spawnSync(NODE, [BIN, ...args], { encoding: 'utf8', input: input ?? '', timeout: 60_000, ...cwd === undefined ? {} : { cwd } })
  if (result.error) throw result.error
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** Runs with `--json` added and parses standard output. */
export function cliJson<T>(args: readonly string[]): { code: number | null; json: T } {
  const run = cli([...args, '--json'])
  return { code: run.code, json: JSON.parse(run.stdout) as T }
}

export function fixture(name: string): string {
  return join(import.meta.dirname, 'fixtures', name)
}
