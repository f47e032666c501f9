// Packing plugins and installing them into a DSH profile the way a user does:
// `dsh plugin --profile headless add <tarball>`, which runs pnpm in
// $DSH_HOME/profiles/headless.
import { appendFileSync, existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import { findPackageJSON } from 'node:module'
import { dirname, join, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { run, runOk } from './processes.mjs'

export const PROFILE = 'headless'

/**
 * A packed package: its name, version, entry file, tarball and the files in it.
 * @typedef {{name: string, version: string, main: string, tarball: string, files: string[]}} Packed
 * @typedef {{bin: string, dir: string}} DshInstall the installed CLI (see dsh-install.mjs)
 * @typedef {Record<string, string | undefined> & {DSH_HOME: string}} HomeEnv a dsh run's environment, with its home
 */

/**
 * `pnpm pack` a package directory into `dest`; returns the tarball, its file list and entry.
 * @param {string} dir
 * @param {string} dest
 * @returns {Promise<Packed>}
 */
export async function pack(dir, dest) {
  const { stdout } = await runOk('pnpm', ['pack', '--json', '--pack-destination', dest], { cwd: dir, timeoutMs: 300_000 })
  // Lifecycle scripts (prepack) may print before the JSON document.
  const packed = JSON.parse(stdout.slice(stdout.indexOf('{')))
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  return { name: packed.name, version: packed.version, main: entryOf(manifest), tarball: packed.filename, files: packed.files.map((/** @type {{path: string}} */ file) => file.path) }
}

/**
 * The same description for a tarball made elsewhere (`--tarball`).
 * @param {string} tarball
 * @returns {Promise<Packed>}
 */
async function describeTarball(tarball) {
  const { stdout: list } = await runOk('tar', ['-tzf', tarball])
  const { stdout: text } = await runOk('tar', ['-xzOf', tarball, 'package/package.json'])
  const manifest = JSON.parse(text)
  return {
    name: manifest.name,
    version: manifest.version,
    main: entryOf(manifest),
    tarball,
    files: list.split('\n').filter(Boolean).map((path) => path.replace(/^package\//, '')),
  }
}

/** @param {{main?: string}} manifest */
function entryOf(manifest) {
  return (manifest.main ?? 'index.js').replace(/^\.\//, '')
}

/**
 * napi-rs's name for this machine's prebuilt binary: `npm/<key>/` holds its
 * package and `<binaryName>.<key>.node` the file, e.g. linux-x64-gnu.
 */
export function platformKey() {
  const base = `${process.platform}-${process.arch}`
  if (process.platform === 'win32') return `${base}-msvc`
  if (process.platform !== 'linux') return base
  const report = /** @type {{header: {glibcVersionRuntime?: string}}} */ (process.report.getReport())
  return report.header.glibcVersionRuntime ? `${base}-gnu` : `${base}-musl`
}

/**
 * Pack the plugin from the built repository (or describe an already packed
 * `tarball`) and find where its native binary will come from. The plugin
 * tarball carries no binary: it names one package per platform in
 * optionalDependencies, and pnpm installs the one matching this machine.
 * Until those packages are on the registry, the locally built npm/<platform>
 * package is packed too, and `installIntoProfile` pins the optional
 * dependency to it, so the install still goes through the plugin's own
 * optionalDependencies. The semantic model package (model/, also an optional
 * dependency) is packed and pinned the same way.
 * @param {string} repo
 * @param {string} dest
 * @param {string} [tarball]
 */
export async function packPlugin(repo, dest, tarball) {
  const packed = tarball ? await describeTarball(tarball) : await pack(repo, dest)
  if (!packed.files.includes(packed.main)) {
    throw new Error(`${packed.tarball} lacks the plugin entry ${packed.main}; run \`pnpm run build\` before packing`)
  }
  const model = await packModel(repo, dest)
  const key = platformKey()
  if (packed.files.some((file) => file.endsWith(`.${key}.node`))) return { ...packed, model, native: { source: 'plugin tarball' } }
  const local = join(repo, 'npm', key)
  if (existsSync(join(local, 'package.json')) && readdirSync(local).some((file) => file.endsWith('.node'))) {
    const native = await pack(local, dest)
    if (!native.files.some((file) => file.endsWith(`.${key}.node`))) throw new Error(`${native.tarball} lacks its binary`)
    return { ...packed, model, native: { source: `npm/${key}, packed locally and pinned in the profile`, name: native.name, version: native.version, tarball: native.tarball } }
  }
  return { ...packed, model, native: { source: 'registry, through optionalDependencies', name: `${packed.name}-${key}` } }
}

/**
 * The semantic model package (model/), packed, or undefined when the checkout has no model file.
 * @param {string} repo
 * @param {string} dest
 */
async function packModel(repo, dest) {
  const dir = join(repo, 'model')
  if (!existsSync(join(dir, 'model.bin'))) return undefined
  const model = await pack(dir, dest)
  if (!model.files.includes('model.bin')) throw new Error(`${model.tarball} lacks model.bin`)
  return { name: model.name, version: model.version, tarball: model.tarball }
}

/**
 * `dsh plugin add` packed plugins one at a time, as a user adds them, into
 * `profile` (default the headless one), pinning a locally packed platform
 * package (see `packPlugin`) before the plugin that needs it. With `optional:
 * false` pnpm skips optional dependencies (`--no-optional`), as some users'
 * package managers do: the plugin then arrives without its platform package.
 * @param {DshInstall} dsh
 * @param {HomeEnv} env
 * @param {{tarball: string, native?: {name?: string, tarball?: string}, model?: {name: string, tarball: string}}[]} packages
 * @returns {Promise<{ms: number, bundles: string[]}>}
 */
export async function installIntoProfile(dsh, env, packages, profile = PROFILE, { optional = true } = {}) {
  /** @type {{ms: number, bundles: string[]}} */
  let installed = { ms: 0, bundles: [] }
  for (const pkg of packages) {
    const pins = /** @type {{name: string, tarball: string}[]} */ ([pkg.native, pkg.model].filter((dep) => dep?.tarball))
    if (optional && pins.length > 0) await pinProfileDependencies(dsh, env, profile, pins)
    const result = await runOk(dsh.bin, ['plugin', '--profile', profile, 'add', pkg.tarball, ...optional ? [] : ['--no-optional']], { env, timeoutMs: 300_000 })
    const manifest = JSON.parse(readFileSync(join(profileDir(env, profile), 'package.json'), 'utf8'))
    installed = { ms: installed.ms + result.ms, bundles: manifest.dsh?.profile?.bundles ?? [] }
  }
  return installed
}

/**
 * Pin dependencies of the profile to local tarballs with pnpm overrides in
 * the profile's pnpm-workspace.yaml, which dsh writes when it creates the
 * profile (`dsh plugin list` creates it without installing anything). Used
 * only for the plugin's platform and model packages while they are not on
 * the registry: pnpm still reaches them through the plugin's
 * optionalDependencies, and still applies the platform package's os/cpu/libc
 * fields.
 * @param {DshInstall} dsh
 * @param {HomeEnv} env
 * @param {string} profile
 * @param {{name: string, tarball: string}[]} pins
 */
async function pinProfileDependencies(dsh, env, profile, pins) {
  const file = join(profileDir(env, profile), 'pnpm-workspace.yaml')
  if (!existsSync(file)) await runOk(dsh.bin, ['plugin', '--profile', profile, 'list'], { env })
  const current = readFileSync(file, 'utf8')
  if (/^overrides:/m.test(current)) throw new Error(`${file} already has overrides; expected dsh's fresh profile`)
  // JSON strings are valid YAML scalars, whatever the path contains.
  const lines = pins.map(({ name, tarball }) => `  ${JSON.stringify(name)}: ${JSON.stringify(`file:${tarball}`)}\n`).join('')
  appendFileSync(file, `${current.endsWith('\n') ? '' : '\n'}overrides:\n${lines}`)
}

/**
 * How the plugin's platform package landed in the profile: installed at all,
 * which version, whether the profile lists it itself (it should not: it must
 * come through the plugin's optionalDependencies), and whether the installed
 * plugin carries a binary of its own (it should not either).
 * @param {HomeEnv} env
 * @param {string} pluginName
 * @param {string} nativeName
 */
export function nativeInstall(env, pluginName, nativeName, profileName = PROFILE) {
  const modules = join(profileDir(env, profileName), 'node_modules')
  const manifestFile = join(modules, nativeName, 'package.json')
  const profile = JSON.parse(readFileSync(join(profileDir(env, profileName), 'package.json'), 'utf8'))
  const plugin = JSON.parse(readFileSync(join(modules, pluginName, 'package.json'), 'utf8'))
  return {
    installed: existsSync(manifestFile),
    version: existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')).version : undefined,
    binaries: existsSync(manifestFile) ? readdirSync(dirname(manifestFile)).filter((file) => file.endsWith('.node')) : [],
    optionalRange: plugin.optionalDependencies?.[nativeName],
    listedByProfile: Object.hasOwn({ ...profile.dependencies, ...profile.optionalDependencies }, nativeName),
    pluginOwnBinaries: readdirSync(join(modules, pluginName)).filter((file) => file.endsWith('.node')),
  }
}

/**
 * The profile's folder in a home.
 * @param {HomeEnv} env
 */
export function profileDir(env, profile = PROFILE) {
  return join(env.DSH_HOME, 'profiles', profile)
}

/**
 * The composed profile rows that mount `packageName` by its bare name, from
 * `dsh --dump-config` (composes the patch layers without booting). Also
 * makes dsh heal $DSH_HOME/profiles/node_modules, which `peerResolution` reads.
 * @param {DshInstall} dsh
 * @param {HomeEnv} env
 * @param {string} packageName
 * @param {string} patchFile
 */
export async function rowsLoading(dsh, env, packageName, patchFile) {
  const { stdout } = await runOk(dsh.bin, ['--profile', PROFILE, '--patch', patchFile, '--dump-config'], { env })
  const rows = []
  for (const match of stdout.matchAll(/^- id: (\S+)\n\s+name: '?([^'\n]+?)'?$/gm)) {
    if (match[2] === packageName) rows.push(match[1])
  }
  return rows
}

/**
 * Where each `@deepseek-ai/*` package an installed plugin declares or imports
 * resolves from the plugin's own directory, with Node's ESM resolver. DSH's
 * profile pnpm settings (autoInstallPeers: false) leave peers uninstalled, so
 * they must come from the fallback dsh maintains in
 * $DSH_HOME/profiles/node_modules: one symlink per package of the DSH
 * installation's dependency closure.
 * @param {HomeEnv} env
 * @param {string} packageName
 * @param {string} dshDir
 */
export function peerResolution(env, packageName, dshDir) {
  const installed = join(profileDir(env), 'node_modules', packageName)
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'))
  const declared = (/** @type {string} */ name) => manifest.peerDependencies?.[name] !== undefined ? 'peerDependencies'
    : manifest.dependencies?.[name] !== undefined ? 'dependencies' : 'undeclared'
  const names = new Set([
    ...Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }),
    ...importedPackages(installed),
  ].filter((name) => name.startsWith('@deepseek-ai/')))
  const dshReal = realpathSync(dshDir)
  const store = join(dshDir, 'node_modules', '.pnpm')
  const shared = sharedByDsh(store)
  const base = pathToFileURL(join(installed, 'package.json'))
  return [...names].sort().map((name) => {
    const entry = {
      name,
      declaredIn: declared(name),
      range: manifest.peerDependencies?.[name] ?? manifest.dependencies?.[name],
      sharedByDsh: shared.has(name),
    }
    let found
    try {
      found = findPackageJSON(name, base)
    } catch (error) {
      return { ...entry, resolved: false, error: /** @type {Error} */ (error).message.split('\n')[0] }
    }
    if (found === undefined) return { ...entry, resolved: false, error: `${name} has no package.json` }
    const real = realpathSync(found)
    return {
      ...entry,
      resolved: true,
      version: JSON.parse(readFileSync(found, 'utf8')).version,
      via: dirname(found),
      real: dirname(real),
      fromDshInstall: real.startsWith(dshReal + sep),
      // More than one copy in the DSH store would mean the plugin and DSH
      // could load different module instances of the same package.
      copiesInDshStore: existsSync(store)
        ? readdirSync(store).filter((dir) => dir.startsWith(`${name.replace('/', '+')}@`)).length
        : undefined,
    }
  })
}

/**
 * The @deepseek-ai packages DSH's own packages mostly take as peer
 * dependencies: services and registries that must be one instance per
 * process (cordis, dsh-tools, ...). The rest, such as schemastery, DSH's
 * packages mostly bundle as plain dependencies, so a plugin may too.
 * @param {string} store
 */
function sharedByDsh(store) {
  const votes = new Map()
  const scope = join(store, 'node_modules', '@deepseek-ai')
  for (const dir of existsSync(scope) ? readdirSync(scope) : []) {
    const file = join(scope, dir, 'package.json')
    if (!existsSync(file)) continue
    const manifest = JSON.parse(readFileSync(file, 'utf8'))
    for (const name of Object.keys(manifest.peerDependencies ?? {})) votes.set(name, (votes.get(name) ?? 0) + 1)
    for (const name of Object.keys(manifest.dependencies ?? {})) votes.set(name, (votes.get(name) ?? 0) - 1)
  }
  return new Set([...votes].filter(([, vote]) => vote > 0).map(([name]) => name))
}

/**
 * Bare package names imported by a package's own JavaScript files.
 * @param {string} dir
 * @returns {Set<string>}
 */
function importedPackages(dir) {
  /** @type {Set<string>} */
  const names = new Set()
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!/\.(m?js|cjs)$/.test(file) || file.split(sep).includes('node_modules')) continue
    const source = readFileSync(join(dir, file), 'utf8')
    for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]((?:@[^/'"]+\/)?[^/'"]+)/g)) {
      if (match[1] !== undefined) names.add(match[1])
    }
  }
  return names
}

/**
 * Import the plugin by its bare name from the profile directory, as DSH's
 * loader does. In rc.8 headless a failed import surfaces only as "could not
 * be resolved (see the error(s) logged above)" with nothing logged, so this
 * is where the real error (e.g. a missing native binding) becomes visible.
 * @param {HomeEnv} env
 * @param {string} packageName
 */
export async function importFromProfile(env, packageName) {
  const result = await run(process.execPath, ['--input-type=module', '-e', 'await import(process.argv[1])', packageName], {
    cwd: profileDir(env),
    env,
    timeoutMs: 60_000,
  })
  return { ok: result.code === 0, error: result.stderr.split('\n').filter((line) => !/^\s+at |^\s+\.\.\. \d+ lines/.test(line)).join('\n').trim() }
}

/**
 * Whether pnpm put any @deepseek-ai package into the profile itself.
 * @param {HomeEnv} env
 */
export function profileOwnDshPackages(env) {
  const scope = join(profileDir(env), 'node_modules', '@deepseek-ai')
  return existsSync(scope) ? readdirSync(scope) : []
}
