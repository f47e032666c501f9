// Installs the DSH CLI the E2E runs against, with pnpm: npm cannot resolve
// @deepseek-ai/dsh@0.1.0-rc.8, and two registry inconsistencies need pnpm
// settings (see WORKSPACE below).
//
// Env DSH_VERSION picks another release of @deepseek-ai/dsh (default the
// tested one); docs/dsh-versions.md lists the versions the E2E passed on.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { run, tail } from './processes.mjs'

/** The release the E2E, the web check and the demo are tested on. */
export const TESTED_DSH_VERSION = '0.1.0-rc.8'
export const DSH_VERSION = process.env.DSH_VERSION || TESTED_DSH_VERSION

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
  const result = await run('pnpm', ['install', '--reporter=append-only'], { cwd: dir, timeoutMs })
  if (result.code !== 0) {
    const output = `${result.stdout}\n${result.stderr}`
    throw new Error(unpublishedDependency(output) ?? `pnpm install of @deepseek-ai/dsh@${DSH_VERSION} ${result.timedOut ? 'timed out' : `exited with ${result.code ?? result.signal}`} in ${dir}\n${tail(output)}`)
  }
  if (!existsSync(bin)) throw new Error(`pnpm install finished but ${bin} is missing`)
  writeFileSync(stamp, recipe)
  return { dir, bin, reused: false, ms: Math.round(performance.now() - started) }
}

/**
 * The plain reason when pnpm stops because the registry lacks a package the
 * release needs, as for DSH 0.1.5-rc.2: its launcher is published, but its
 * @deepseek-ai/* dependencies at ^0.1.5-rc.2 are not. pnpm names the first
 * one it meets; there is no point retrying or changing pnpm settings.
 * @param {string} output pnpm's output
 * @returns {string | undefined} one paragraph, or undefined for other failures
 */
export function unpublishedDependency(output) {
  const missing = /No matching version found for (@?[^@\s]+)@(\S+)/.exec(output)
  if (!missing) return undefined
  const [, name, range] = missing
  if (name === '@deepseek-ai/dsh') {
    return `DSH ${DSH_VERSION} cannot be installed: the registry has no @deepseek-ai/dsh@${range}. Set DSH_VERSION to one it has (npm view @deepseek-ai/dsh versions); the E2E is tested on ${TESTED_DSH_VERSION}.`
  }
  const parent = /installing the dependencies of (\S+)/.exec(output)?.[1] ?? `@deepseek-ai/dsh@${DSH_VERSION}`
  const latest = /The latest release of \S+ is "([^"]+)"/.exec(output)?.[1]
  return `DSH ${DSH_VERSION} cannot be installed: ${parent} depends on ${name}@${range}, and the registry has no version of ${name} in that range${latest ? ` (its latest is ${latest})` : ''}. `
    + 'The release\'s launcher was published without the packages it runs on, so no package manager can install it, whatever the machine or the plugin; '
    + `pnpm stops at the first missing one, and others may be missing too. The E2E is tested on DSH ${TESTED_DSH_VERSION}; set DSH_VERSION to a release whose packages are all published (see docs/dsh-versions.md).`
}
