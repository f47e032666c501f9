// The guarded load of the native core (plugin/host/native.ts) and the message a user gets when it fails
// (plugin/host/platform.ts). The real napi-rs loader is made to fail through its own override variable,
// in a fresh module instance; the other failures are the loader's results, injected.
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { MODEL_PACKAGE } from '../../plugin/contract.ts'
import { loadNative } from '../../plugin/host/native.ts'
import { describeLoadFailure, platformKey, type LoadContext } from '../../plugin/host/platform.ts'

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string
  napi: { targets: string[] }
  optionalDependencies: Record<string, string>
}
const SUPPORTED = ['linux-x64-gnu', 'linux-arm64-gnu', 'linux-x64-musl', 'darwin-arm64', 'darwin-x64', 'win32-x64-msvc']
const PACKAGE = '@anionex/dsh-tool-search'

/** napi-rs's error when no attempt found a binary: a summary, then the attempts, last first. */
function notFound(...attempts: string[]): Error {
  const error = new Error('Cannot find native binding. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828).')
  error.cause = attempts.reduce<Error | null>((previous, message) => Object.assign(new Error(message), { cause: previous }), null)
  return error
}

function context(change: Partial<LoadContext> = {}): LoadContext {
  return {
    key: 'linux-x64-gnu',
    plugin: { name: PACKAGE, version: '0.2.0' },
    supported: SUPPORTED,
    installedVersion: undefined,
    profile: 'web',
    overridePath: undefined,
    ...change,
  }
}

const saved = process.env['NAPI_RS_NATIVE_LIBRARY_PATH']
afterEach(() => {
  if (saved === undefined) delete process.env['NAPI_RS_NATIVE_LIBRARY_PATH']
  else process.env['NAPI_RS_NATIVE_LIBRARY_PATH'] = saved
})

describe('loading the native core', () => {
  it('loads this machine\'s core through the generated loader', async () => {
    const load = await loadNative()
    expect(load.error).toBeUndefined()
    expect(load.core?.ToolIndex.fromJson('[{"name":"get_weather"}]').search('weather', 1).map(hit => hit.name)).toEqual(['get_weather'])
  })

  it('turns the loader\'s throw at import into a result, with the message naming why', async () => {
    process.env['NAPI_RS_NATIVE_LIBRARY_PATH'] = '/nonexistent/dsh-tool-search.node'
    // A query string makes a fresh instance of napi-rs's loader (binding.js, which the entry
    // index.js imports), which runs its search again.
    const load = await loadNative(() => import('../../binding.js?no-binary' as string) as Promise<Record<string, unknown>>)
    expect(load.core).toBeUndefined()
    expect(load.error).toContain('NAPI_RS_NATIVE_LIBRARY_PATH names /nonexistent/dsh-tool-search.node')
    expect(load.error).toContain(`this machine is ${platformKey()}`)
    expect(load.error).not.toContain('npm has a bug')
  })

  it('refuses a binary of another plugin version that lacks what this one calls', async () => {
    const load = await loadNative(() => Promise.resolve({ ToolIndex: class { static fromJson() {} }, selectionFromEvents: () => [], selectionFromPayload: () => [] }))
    expect(load.error).toContain('the binary has no ToolIndex.fromJsonAsync, readCatalog, selectionFromResult, ToolIndex.decideAsync, ToolIndex.strongHitsAsync: it belongs to another version of the plugin')
  })

  it('reads the supported platforms from the manifest\'s optionalDependencies, at the plugin\'s version', async () => {
    const load = await loadNative(() => Promise.reject(notFound('Cannot find module \'./x.node\'')))
    const keys = Object.keys(manifest.optionalDependencies).filter(name => name !== MODEL_PACKAGE).map(name => name.slice(`${PACKAGE}-`.length))
    expect(keys).toHaveLength(manifest.napi.targets.length)
    expect(load.error).toContain(`Prebuilt cores exist for ${keys.join(', ')}.`)
    expect(load.error).toContain(`${PACKAGE}-${platformKey()}@${manifest.version}`)
  })
})

describe('the message for a core that did not load', () => {
  it('a missing platform package: the key, the package, how to install it into the profile, the list', () => {
    const text = describeLoadFailure(notFound('Cannot find module \'./dsh-tool-search.linux-x64-gnu.node\'', `Cannot find module '${PACKAGE}-linux-x64-gnu'`), context())
    expect(text).toBe('the native search core did not load: this machine is linux-x64-gnu, whose core is the package '
      + '@anionex/dsh-tool-search-linux-x64-gnu@0.2.0, an optional dependency of the plugin that is not installed (package managers '
      + 'leave optional dependencies out when told to). Install it with: dsh plugin --profile web add @anionex/dsh-tool-search-linux-x64-gnu@0.2.0. '
      + 'Prebuilt cores exist for linux-x64-gnu, linux-arm64-gnu, linux-x64-musl, darwin-arm64, darwin-x64, win32-x64-msvc.')
  })

  it('outside a DSH profile, the install line is the package manager\'s', () => {
    expect(describeLoadFailure(notFound('Cannot find module \'x\''), context({ profile: undefined })))
      .toContain('Install it with: npm install @anionex/dsh-tool-search-linux-x64-gnu@0.2.0 (or your package manager\'s add) where the plugin is installed.')
  })

  it('an installed package that fails (corrupt, wrong libc, another version): its version and the first real reason', () => {
    const text = describeLoadFailure(notFound(
      'Cannot find module \'./dsh-tool-search.linux-x64-musl.node\'',
      '/p/node_modules/@anionex/dsh-tool-search-linux-x64-musl/dsh-tool-search.linux-x64-musl.node: invalid ELF header\nRequire stack: ...',
    ), context({ key: 'linux-x64-musl', installedVersion: '0.1.0' }))
    expect(text).toContain('this machine is linux-x64-musl, and @anionex/dsh-tool-search-linux-x64-musl@0.1.0 is installed but failed to load '
      + '(/p/node_modules/@anionex/dsh-tool-search-linux-x64-musl/dsh-tool-search.linux-x64-musl.node: invalid ELF header). '
      + 'Reinstall @anionex/dsh-tool-search-linux-x64-musl@0.2.0 with: dsh plugin --profile web add @anionex/dsh-tool-search-linux-x64-musl@0.2.0.')
    expect(text).not.toContain('Require stack')
  })

  it('a platform without a prebuilt core: says so, lists the supported ones, and how to use a core built from source', () => {
    const text = describeLoadFailure(notFound('Cannot find module \'x\''), context({ key: 'freebsd-x64' }))
    expect(text).toContain('this machine is freebsd-x64, for which there is no prebuilt core (no package @anionex/dsh-tool-search-freebsd-x64 exists). Prebuilt cores exist for linux-x64-gnu,')
    expect(text).toContain('NAPI_RS_NATIVE_LIBRARY_PATH=<file.node>')
    expect(text).not.toContain('dsh plugin')
  })

  it('platform keys follow napi-rs: the C library on Linux, the MSVC ABI on Windows', () => {
    expect(platformKey({ platform: 'linux', arch: 'x64', musl: false })).toBe('linux-x64-gnu')
    expect(platformKey({ platform: 'linux', arch: 'arm64', musl: true })).toBe('linux-arm64-musl')
    expect(platformKey({ platform: 'win32', arch: 'x64', musl: false })).toBe('win32-x64-msvc')
    expect(platformKey({ platform: 'darwin', arch: 'arm64', musl: false })).toBe('darwin-arm64')
  })
})
