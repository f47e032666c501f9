// Installs the DSH CLI the E2E runs against, with pnpm, following the recipe
// in shared/DSH.md: npm cannot resolve @deepseek-ai/dsh@0.1.0-rc.8, and two
// registry inconsistencies need pnpm settings (see WORKSPACE below).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { runOk } from './processes.mjs'

export const DSH_VERSION = '0.1.0-rc.8'

const MANIFEST = JSON.stringify({
  name: 'dsh-tool-search-e2e-dsh',
  private: true,
  dependencies: { '@deepseek-ai/dsh': DSH_VERSION },
}, null, 2) + '\n'

// cordis-plugin-hmr 1.0.19 dropped HmrService.registerConfig, which the rc.8
// launcher calls: pin 1.0.17. pnpm refuses to finish (ERR_PNPM_IGNORED_BUILDS)
// unless every dependency with an install script is allowed or denied.
const WORKSPACE = `overrides:
  '@deepseek-ai/cordis-plugin-hmr': 1.0.17
allowBuilds:
  '@deepseek-ai/dsh-subprocess-local': true
  node-pty: true
  protobufjs: true
  koffi: false
  '@google/genai': false
`

// The headless bundle disables the `hmr` row, and the rc.8 launcher then stops
// with "user patch-layer watching requires the Cordis HMR service". Every dsh
// run passes this overlay with --patch to turn the row back on.
export const HMR_PATCH = `- id: hmr
  disabled: false
  config:
    root: []
`

const STAMP = '.e2e-recipe'

/**
 * Install DSH into `dir`, or reuse an install there made from the same recipe.
 * @param {string} dir
 * @returns {Promise<{dir: string, bin: string, reused: boolean, ms: number}>}
 */
export async function installDsh(dir, { timeoutMs = 600_000 } = {}) {
  const started = performance.now()
  const recipe = MANIFEST + WORKSPACE
  const bin = join(dir, 'node_modules', '.bin', 'dsh')
  const stamp = join(dir, STAMP)
  if (existsSync(bin) && existsSync(stamp) && readFileSync(stamp, 'utf8') === recipe) {
    return { dir, bin, reused: true, ms: Math.round(performance.now() - started) }
  }
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), MANIFEST)
  writeFileSync(join(dir, 'pnpm-workspace.yaml'), WORKSPACE)
  await runOk('pnpm', ['install', '--reporter=append-only'], { cwd: dir, timeoutMs })
  if (!existsSync(bin)) throw new Error(`pnpm install finished but ${bin} is missing`)
  writeFileSync(stamp, recipe)
  return { dir, bin, reused: false, ms: Math.round(performance.now() - started) }
}
