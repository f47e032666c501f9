// The DSH installations the measured sessions run in, set up the way the profile E2E sets up
// its own (e2e/lib/dsh-install.mjs, e2e/lib/profile.mjs): DSH 0.1.0-rc.8 installed with pnpm, the
// plugins packed and added to the headless profile of a fresh DSH_HOME with `dsh plugin add`.
// Two homes: one with the session fixture alone (the "without the plugin" column), one with the
// session fixture and this plugin (every plugin column; its settings.yaml changes per column).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DSH_VERSION, HMR_PATCH, installDsh } from '../../../e2e/lib/dsh-install.mjs'
import { installIntoProfile, pack, packPlugin, profileDir } from '../../../e2e/lib/profile.mjs'
import { repoPath } from '../../lib/repo.mjs'

const SESSION_PLUGIN = repoPath('bench/cost/measured/session-plugin')

/**
 * @typedef {object} Profiles
 * @property {{bin: string, version: string}} dsh
 * @property {NodeJS.ProcessEnv} bare - the environment of the home without this plugin
 * @property {NodeJS.ProcessEnv} plugin - the environment of the home with it
 * @property {string} pluginSettingsFile - the plugin home's settings.yaml
 * @property {Record<string, {kind: string, choices?: readonly string[]}>} settings - the installed
 *   plugin's settings fields (its dist/contract.js), which say what a column may set
 * @property {string} hmrPatch - the `--patch` file every run passes (see HMR_PATCH)
 */

/**
 * @param {string} root - a scratch folder for the homes and the packed plugins.
 * @param {string} cache - a folder kept between runs for the DSH installation.
 * @param {NodeJS.ProcessEnv} env - the environment every dsh run gets (the vector cache).
 * @returns {Promise<Profiles>}
 */
export async function prepareProfiles(root, cache, env) {
  const dsh = await installDsh(join(cache, `dsh-${DSH_VERSION}`))
  const packs = join(root, 'packs')
  mkdirSync(packs, { recursive: true })
  const session = await pack(SESSION_PLUGIN, packs)
  const plugin = await packPlugin(repoPath('.'), packs)
  const home = (/** @type {string} */ name) => {
    const dshHome = join(root, `home-${name}`)
    rmSync(dshHome, { recursive: true, force: true })
    /** @type {NodeJS.ProcessEnv & {DSH_HOME: string}} */
    const homeEnv = { ...env, DSH_HOME: dshHome, DSH_TELEMETRY_DISABLED: '1' }
    // Native presentation, as the columns are compared in; Code Mode would move the tools into
    // the system prompt.
    delete homeEnv.DSH_TOOLS_MODE
    return homeEnv
  }
  const bare = home('bare')
  const withPlugin = home('plugin')
  await installIntoProfile(dsh, bare, [session])
  await installIntoProfile(dsh, withPlugin, [session, plugin])
  const contract = join(profileDir(withPlugin), 'node_modules', plugin.name, 'dist', 'contract.js')
  const { SETTINGS } = await import(pathToFileURL(contract).href)
  const hmrPatch = join(root, 'hmr-on.yml')
  writeFileSync(hmrPatch, HMR_PATCH)
  return {
    dsh: { bin: dsh.bin, version: DSH_VERSION },
    bare,
    plugin: withPlugin,
    pluginSettingsFile: join(/** @type {string} */ (withPlugin.DSH_HOME), 'settings.yaml'),
    settings: SETTINGS,
    hmrPatch,
  }
}
