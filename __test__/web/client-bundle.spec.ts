// @vitest-environment jsdom
// The browser bundle as DSH's module loader receives it: built by scripts/bundle-client.mjs, run
// as a classic script, answering only the loader's module table.

import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { en, zh } from '../../plugin/client/locales.ts'

// Paths, not `new URL(x, import.meta.url)`: Vite rewrites that form into an asset URL.
const root = resolve(import.meta.dirname, '../..')
const nodeRequire = createRequire(import.meta.url)

interface LoaderEntry {
  id: string
  factory: (require: (id: string) => unknown) => { inject: string[]; apply: (ctx: unknown) => void }
}

let dir: string
let text: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dsh-tool-search-bundle-'))
  const out = join(dir, 'client.js')
  await promisify(execFile)(process.execPath, [join(root, 'scripts', 'bundle-client.mjs'), '--out', out])
  text = await readFile(out, 'utf8')
}, 60_000)
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

/** Run the bundle as the page does and return what it handed to the loader. */
function load(): LoaderEntry[] {
  const entries: LoaderEntry[] = []
  // A classic script: `window` is the only way in, as on the page.
  // oxlint-disable-next-line typescript/no-implied-eval -- running the built bundle is the test
  new Function('window', text)({ __ModuleLoader__: { load: (entry: LoaderEntry) => { entries.push(entry) } } })
  return entries
}

describe('the client bundle', () => {
  it('registers one lazy factory under the package name and takes only platform modules from require', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { name: string }
    expect(text.startsWith('window.__ModuleLoader__.load({')).toBe(true)
    const entries = load()
    expect(entries.map(entry => entry.id)).toEqual([pkg.name])
    const asked: string[] = []
    const module = entries[0]!.factory((id) => {
      asked.push(id)
      if (!['react', 'react/jsx-runtime'].includes(id)) throw new Error(`require("${id}") missed the module table`)
      return nodeRequire(id) as unknown
    })
    expect([...new Set(asked)].sort()).toEqual(['react', 'react/jsx-runtime'])
    expect(module.inject).toEqual(['slots', 'locale', 'connection', 'settingsScope'])
    expect(typeof module.apply).toBe('function')
  })

  it('inlines its stylesheet once per page, tagged with the package name', () => {
    const run = () => load()[0]!.factory(id => nodeRequire(id) as unknown)
    run()
    run()
    const tags = document.head.querySelectorAll('style[data-plugin="@anionex/dsh-tool-search"]')
    expect(tags).toHaveLength(1)
    expect(tags[0]?.textContent).toContain('var(--dsw-alias-border-l2)')
  })

  it('registers its copy and its card under the settings namespace when applied', () => {
    const module = load()[0]!.factory(id => nodeRequire(id) as unknown)
    const calls: unknown[][] = []
    let inject: (() => Record<string, unknown>) | undefined
    const ctx = {
      effect: (execute: () => unknown) => { execute() },
      get: () => ({ api: { settings: { mutate: () => Promise.reject(new Error('unused')) } } }),
      settingsScope: {
        bind: (spec: unknown) => {
          calls.push(['bind', spec])
          return { getSnapshot: () => ({ status: 'loading', writable: false, mode: 'host' }), subscribe: () => () => undefined, set: () => Promise.resolve() }
        },
        describe: () => ({ acceptView: () => undefined }),
      },
      locale: { register: (ns: string, dicts: Record<string, unknown>) => { calls.push(['locale', ns, Object.keys(dicts)]); return () => undefined } },
      slots: {
        inject: (slot: string, callback: () => unknown) => { calls.push(['inject', slot]); callback(); return () => undefined },
        register: (options: { name: string; key: string; locale: string; inject: () => Record<string, unknown> }) => {
          calls.push(['register', options.name, options.key, options.locale])
          inject = options.inject
          return () => undefined
        },
      },
    }
    module.apply(ctx)
    expect(calls).toEqual([
      ['locale', 'settings.toolSearch', ['en', 'zh']],
      ['bind', { namespace: 'tool-search' }],
      ['inject', 'settings.plugin.item'],
      ['register', 'settings.plugin.item', 'tool-search', 'settings.toolSearch'],
    ])
    // DSH's client rules: plain callbacks, and live state only as a bare source in `hooks`.
    const { hooks, ...members } = inject!() as { hooks: Record<string, { getSnapshot: () => { status: string }; subscribe: unknown }> }
    expect(Object.keys(hooks)).toEqual(['toolSearchCard'])
    expect(hooks['toolSearchCard']!.getSnapshot().status).toBe('loading')
    expect(typeof hooks['toolSearchCard']!.subscribe).toBe('function')
    expect(Object.entries(members).filter(([, value]) => typeof value !== 'function')).toEqual([])
  })
})

describe('the client module\'s copy and declaration', () => {
  it('has every English string in Chinese, with the same placeholders', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map(match => match[1]).sort()
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort())
    for (const [key, text] of Object.entries(en)) expect([key, placeholders(zh[key as keyof typeof en])]).toEqual([key, placeholders(text)])
  })

  it('is declared in package.json as DSH expects', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, { default: string }>
      files: string[]
      dsh: { bundle?: unknown; client?: { platform?: string } }
    }
    expect(pkg.exports['./client']?.default).toBe('./dist/client.js')
    expect(pkg.files).toContain('dist')
    expect(pkg.dsh.client?.platform).toBe('web')
    expect(pkg.dsh.bundle).toEqual({ patch: './cordis.patch.yml' })
  })
})
