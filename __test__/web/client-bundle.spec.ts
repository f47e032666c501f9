// @vitest-environment jsdom
// The browser bundle as DSH's module loader receives it: built by scripts/bundle-client.mjs, run
// as a classic script, alone (DSH 0.1.0-rc.8 serves one script per plugin) or inside a combo script
// (DSH 0.1.7 serves several bundles as one, EMULATED in support/later-client.ts), answering only
// the loader's module table.

import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { Script, runInNewContext } from 'node:vm'
import type { Plugin } from '@deepseek-ai/cordis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROW_CONFIG_KEY } from '../../plugin/client/card-slots.ts'
import { LOCALE_NS, en, zh } from '../../plugin/client/locales.ts'
import { PACKAGE_NAME, SETTINGS_NAMESPACE } from '../../plugin/contract.ts'
import { clientPage } from './support/client-page.ts'
import { LATER_CONFIG_SLOTS, comboScript } from './support/later-client.ts'

// Paths, not `new URL(x, import.meta.url)`: Vite rewrites that form into an asset URL.
const root = resolve(import.meta.dirname, '../..')
const nodeRequire = createRequire(import.meta.url)

interface LoaderEntry {
  id: string
  factory: (require: (id: string) => unknown) => { inject: string[]; apply: (ctx: unknown) => void }
}

/** The module table's answer for the modules the bundle asks for. */
const fromTable = (id: string): unknown => nodeRequire(id) as unknown

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
    // Only services every DSH release's page has: one that never appears would keep the module from running.
    expect(module.inject).toEqual(['slots', 'locale'])
    expect(typeof module.apply).toBe('function')
  })

  it('inlines its stylesheet once per page, tagged with the package name', () => {
    const run = () => load()[0]!.factory(fromTable)
    run()
    run()
    const tags = document.head.querySelectorAll('style[data-plugin="@anionex/dsh-tool-search"]')
    expect(tags).toHaveLength(1)
    expect(tags[0]?.textContent).toContain('var(--dsw-alias-border-l2)')
  })

  it('registers its copy, and its card in the slot each DSH generation declares for it, when applied', async () => {
    const pages = [
      { slots: ['settings.plugin.item'], holds: ['settings.plugin.item', SETTINGS_NAMESPACE] }, // 0.1.0-rc.8
      { slots: LATER_CONFIG_SLOTS, holds: ['plugins.row.config', ROW_CONFIG_KEY] }, // 0.1.7, emulated
    ] as const
    for (const { slots, holds: [slot, key] } of pages) {
      const page = clientPage()
      page.slots.declareKeyed(...slots)
      const fiber = await page.root.plugin(load()[0]!.factory(fromTable) as unknown as Plugin)
      expect(Object.keys(page.locale.namespaces.get(LOCALE_NS) ?? {})).toEqual(['en', 'zh'])
      expect(slots.map(name => page.slots.keys(name))).toEqual(slots.map(name => (name === slot ? [key] : [])))
      // DSH's client rules: plain callbacks, and live state only as a bare source in `hooks`.
      const { hooks, ...members } = page.slots.entry(slot, key)!.inject() as unknown as { hooks: Record<string, { getSnapshot: () => { status: string }; subscribe: unknown }> }
      expect(Object.keys(hooks)).toEqual(['toolSearchCard'])
      // This page offers no settings service: the card reads none.
      expect(hooks['toolSearchCard']!.getSnapshot().status).toBe('unavailable')
      expect(typeof hooks['toolSearchCard']!.subscribe).toBe('function')
      expect(Object.entries(members).filter(([, value]) => typeof value !== 'function')).toEqual([])
      await fiber.dispose()
    }
  })

  it('runs inside a combo script, as DSH 0.1.7 serves bundles, between a strict neighbour and one ending in a source-map comment', () => {
    const strict = '"use strict";\nwindow.__ModuleLoader__.load({ id: "strict-neighbour", factory: () => ({}) })'
    const mapped = 'window.__ModuleLoader__.load({ id: "mapped-neighbour", factory: () => ({}) })\n//# sourceMappingURL=client.js.map'
    const combo = comboScript([strict, text, mapped], 'plugins/??a/client.js.map')
    // A classic script, and one that declares nothing at its top level a neighbour could collide with.
    expect(() => new Script(combo)).not.toThrow()
    expect(() => new Script(comboScript([text, text], 'client.js.map'))).not.toThrow()
    const entries: LoaderEntry[] = []
    runInNewContext(combo, { window: { __ModuleLoader__: { load: (entry: LoaderEntry) => { entries.push(entry) } } } })
    expect(entries.map(entry => entry.id)).toEqual(['strict-neighbour', PACKAGE_NAME, 'mapped-neighbour'])
    // The neighbour's directive makes the whole combo strict: the factory still runs.
    const module = entries[1]!.factory(fromTable)
    expect(typeof module.apply).toBe('function')
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
