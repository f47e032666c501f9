/**
 * Which prebuilt native core serves this machine, and what to tell the user when it does not load.
 *
 * The core ships as one npm package per platform, named in the plugin's `optionalDependencies`
 * (`<plugin>-<platform key>`, beside the model package), and a package manager installs the one
 * matching the machine, or
 * none at all when it skips optional dependencies. The supported list is read from those
 * `optionalDependencies`, the list package managers install from, so the message names exactly
 * the platforms a user can get.
 */

import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MODEL_PACKAGE } from '../contract.ts'

/**
 * The plugin's package root: two directories up from `plugin/host/` and from the built `dist/host/`.
 * A path, not `new URL('..', import.meta.url)`, which Vite rewrites as a web asset under jsdom.
 */
const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/** What the message is made of; read from the machine and the manifest, or given by a test. */
export interface LoadContext {
  /** napi-rs's name for this machine, such as `linux-x64-gnu`. */
  readonly key: string
  /** The plugin's package name and version. */
  readonly plugin: { readonly name: string; readonly version: string }
  /** The platform keys with a prebuilt package, in manifest order. */
  readonly supported: readonly string[]
  /** The version of this machine's platform package where it is installed. */
  readonly installedVersion: string | undefined
  /** Where the plugin was installed from: the DSH profile holding it, when it is in one. */
  readonly profile: string | undefined
  /** `NAPI_RS_NATIVE_LIBRARY_PATH`, which makes the loader try that one file instead. */
  readonly overridePath: string | undefined
}

/** Facts about the running process that decide the platform key. */
export interface HostFacts {
  readonly platform: string
  readonly arch: string
  /** Whether the C library is musl rather than glibc (Linux only). */
  readonly musl: boolean
}

/**
 * napi-rs's key for a machine: `<platform>-<arch>`, with the C library on Linux and the MSVC ABI on
 * Windows (`linux-x64-gnu`, `linux-x64-musl`, `win32-x64-msvc`, `darwin-arm64`).
 */
export function platformKey(facts: HostFacts = hostFacts()): string {
  const base = `${facts.platform}-${facts.arch}`
  if (facts.platform === 'win32') return `${base}-msvc`
  if (facts.platform === 'linux') return `${base}-${facts.musl ? 'musl' : 'gnu'}`
  return base
}

function hostFacts(): HostFacts {
  return { platform: process.platform, arch: process.arch, musl: process.platform === 'linux' && isMusl() }
}

/** The loader's own test first (musl's ldd says so), then glibc's absence from a process report. */
function isMusl(): boolean {
  try {
    return readFileSync('/usr/bin/ldd', 'utf8').includes('musl')
  } catch {
    const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } }
    return report.header?.glibcVersionRuntime === undefined
  }
}

/** The context of this process: this machine, this package, where it is installed. */
function loadContext(): LoadContext {
  const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
    name: string
    version: string
    optionalDependencies?: Record<string, string>
  }
  const prefix = `${manifest.name}-`
  const key = platformKey()
  return {
    key,
    plugin: { name: manifest.name, version: manifest.version },
    supported: Object.keys(manifest.optionalDependencies ?? {})
      .filter(name => name.startsWith(prefix) && name !== MODEL_PACKAGE)
      .map(name => name.slice(prefix.length)),
    installedVersion: installedVersion(`${prefix}${key}`),
    profile: /[\\/]profiles[\\/]([^\\/]+)[\\/]node_modules[\\/]/.exec(PACKAGE_ROOT)?.[1],
    overridePath: process.env['NAPI_RS_NATIVE_LIBRARY_PATH'] || undefined,
  }
}

/** The version of a package as the plugin's loader would resolve it, or undefined when it is absent. */
function installedVersion(name: string): string | undefined {
  try {
    const file = createRequire(join(PACKAGE_ROOT, 'index.js')).resolve(`${name}/package.json`)
    return existsSync(file) ? String((JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version) : undefined
  } catch {
    return undefined
  }
}

/**
 * The one message for a core that did not load: this machine's platform key, the package that
 * serves it (or that none does), why it did not load, how to install it, and the supported list.
 * @param error - what loading threw: napi-rs's "Cannot find native binding" carries every attempt
 *   in its `cause` chain, and those say more than its own advice about npm.
 * @param context - the facts; this process's by default.
 */
export function describeLoadFailure(error: unknown, context: LoadContext = loadContext()): string {
  const { key, plugin, supported } = context
  const spec = `${plugin.name}-${key}@${plugin.version}`
  const list = `Prebuilt cores exist for ${supported.join(', ')}.`
  const lead = `the native search core did not load: this machine is ${key}`
  if (context.overridePath !== undefined) {
    return `${lead}, and NAPI_RS_NATIVE_LIBRARY_PATH names ${context.overridePath}, the one file the loader then tries, which failed (${reasonOf(error, context.overridePath)}). Unset it to use ${spec}. ${list}`
  }
  if (!supported.includes(key)) {
    return `${lead}, for which there is no prebuilt core (no package ${plugin.name}-${key} exists). ${list} A core built from a checkout of the plugin (\`pnpm run build:native\`) can be named with NAPI_RS_NATIVE_LIBRARY_PATH=<file.node>.`
  }
  const install = installCommand(spec, context.profile)
  const reason = reasonOf(error)
  if (context.installedVersion === undefined && reason === undefined) {
    return `${lead}, whose core is the package ${spec}, an optional dependency of the plugin that is not installed (package managers leave optional dependencies out when told to). Install it with: ${install}. ${list}`
  }
  const installed = context.installedVersion === undefined ? 'the core beside the plugin\'s loader' : `${plugin.name}-${key}@${context.installedVersion}`
  return `${lead}, and ${installed} is installed but failed to load (${reason ?? reasonOf(error, `${plugin.name}-${key}`)}). Reinstall ${spec} with: ${install}. ${list}`
}

function installCommand(spec: string, profile: string | undefined): string {
  return profile === undefined ? `npm install ${spec} (or your package manager's add) where the plugin is installed` : `dsh plugin --profile ${profile} add ${spec}`
}

/**
 * Why loading failed, as the first line of the first attempt that found a file and failed on it
 * ("Cannot find module" lines only say where nothing was). Without one: undefined, or, when the
 * caller knows what was there, the attempt that names it.
 */
function reasonOf(error: unknown, about?: string): string | undefined {
  const lines: string[] = []
  for (let cause = error, depth = 0; cause !== undefined && cause !== null && depth < 32; depth += 1) {
    const text = cause instanceof Error ? cause.message : String(cause)
    lines.push(text.split('\n')[0] ?? '')
    cause = cause instanceof Error ? cause.cause : undefined
  }
  // napi-rs chains the attempts last first, under its own summary.
  const attempts = lines.length > 1 ? lines.slice(1).reverse() : lines
  const found = attempts.find(line => !line.startsWith('Cannot find module'))
  if (found !== undefined || about === undefined) return found
  return attempts.find(line => line.includes(about)) ?? attempts[0]
}
