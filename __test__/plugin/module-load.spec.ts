/**
 * The built plugin (dist/index.js) loads where DSH's later releases changed their modules' exports:
 * `@deepseek-ai/dsh-settings` without `installSettingsSection`/`settingsNamespace` (0.1.2 on) and
 * `@deepseek-ai/dsh-llm` with `ToolCallId` for `CallId` (by 0.1.3). A child process links the
 * built plugin against those export surfaces (emulated by Node's module hooks over the real rc.8
 * modules: support/later-hosts/settings-exports-hooks.mjs), mounts it in an rc.8 DSH under each
 * generation's settings service (rc.8's real one; 0.1.2's and 0.1.7's emulated; none) and searches.
 */

import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = new URL('../../', import.meta.url)
const built = new URL('dist/index.js', root)
const child = fileURLToPath(new URL('../support/later-hosts/settings-module-load.ts', import.meta.url))
const probe = new URL('../support/later-hosts/settings-exports-probe.mjs', import.meta.url)

/** Run the child on `target`, reshaping the imports of modules under `scope`; its report. */
function loadReshaped(target: URL, scope: URL, settings = 'rc.8'): Record<string, unknown> {
  const run = spawnSync(process.execPath, ['--experimental-transform-types', '--no-warnings', child, target.href, scope.href], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, SETTINGS: settings } })
  const last = run.stdout.trim().split('\n').at(-1) ?? ''
  if (run.status !== 0 || !last.startsWith('{')) throw new Error(`the child exited ${String(run.status)}: ${run.stderr}`)
  return JSON.parse(last) as Record<string, unknown>
}

describe('the built plugin under later releases\' module exports (emulated)', () => {
  it.each(['rc.8', '0.1.2', '0.1.7', 'none'])('imports, activates, answers tool_search and follows a settings edit, with the settings service of %s', (settings) => {
    if (!existsSync(built)) throw new Error('dist/index.js is missing: run pnpm run build:plugin first')
    expect(loadReshaped(built, new URL('dist/', root), settings)).toEqual({
      imported: true,
      name: 'dsh-tool-search',
      before: { stated: '5', found: 4 },
      after: { stated: '2', found: 2 },
      warnings: [],
      errors: [],
      // rc.8's own plugins register their sections with `settings.register`, which 0.1.7's service lacks.
      hostErrors: settings === '0.1.7' ? ['TypeError: sctx.settings.register is not a function'] : [],
    })
  })

  it('fails a module that imports the removed names, as the plugin did before (the control)', () => {
    expect(loadReshaped(probe, probe)).toMatchObject({
      imported: false,
      error: expect.stringMatching(/^SyntaxError: The requested module '@deepseek-ai\/dsh-(settings|llm)' does not provide an export named '(installSettingsSection|settingsNamespace|CallId)'$/) as unknown,
    })
  })
})
