// The command line where the native core does not load: the plugin's message on standard error,
// exit code 2, for every command; help and the version still answer.
import { spawnSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../bin/cli/main.js'
import { platformKey } from '../../plugin/host/platform.ts'
import { tempDir } from '../support/harness.ts'
import { PLATFORM_PACKAGE, missingCore } from '../support/missing-core.ts'

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'dsh-tool-search.js')

describe('the command line without its native core', () => {
  it('says why, names the platform package and exits 2 for every command', async () => {
    const missing = await missingCore()
    for (const argv of [['search', 'weather'], ['explain', 'weather', 'get_forecast'], ['lint']]) {
      const run = await main(argv, missing)
      expect(run).toEqual({ stderr: `dsh-tool-search: ${missing.error}`, code: 2 })
      expect(run.stderr).toContain(`${PLATFORM_PACKAGE}@`)
    }
    expect((await main(['--help'], missing)).code).toBe(0)
    expect((await main(['search', '--help'], missing)).code).toBe(0)
  })

  it('a corrupt binary, as the real loader meets it: one line, exit 2, no stack', async () => {
    const dir = await tempDir()
    const corrupt = join(dir, 'dsh-tool-search.node')
    writeFileSync(corrupt, 'not an ELF file')
    const run = spawnSync(process.execPath, [BIN, 'search', 'create a github issue'], {
      encoding: 'utf8',
      env: { ...process.env, NAPI_RS_NATIVE_LIBRARY_PATH: corrupt },
      timeout: 60_000,
    })
    rmSync(dir, { recursive: true, force: true })
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(new RegExp(`^dsh-tool-search: the native search core did not load: this machine is ${platformKey()}, and NAPI_RS_NATIVE_LIBRARY_PATH names ${corrupt}, .*\\(${corrupt}: .+\\)\\..*Prebuilt cores exist for .+\\.\\n$`))
    expect(run.status).toBe(2)
  })
})
