import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { rowValues } from '../../plugin/host/config.ts'
import * as ToolSearch from '../../plugin/index.ts'

const root = new URL('../../', import.meta.url)

describe('the plugin module and its package wiring', () => {
  it('exports name, inject, Config and apply, and no default export (DSH\'s loader would drop inject)', () => {
    expect(ToolSearch.name).toBe('dsh-tool-search')
    expect(ToolSearch.inject).toEqual(['tools', 'systemPrompt', 'agents'])
    expect(typeof ToolSearch.apply).toBe('function')
    expect(rowValues(ToolSearch.Config({}))).toMatchObject({ defaultLimit: 5, alwaysVisible: [], neverSearch: [] })
    expect('default' in ToolSearch).toBe(false)
  })

  it('declares its bundle patch, which inserts the plugin row', async () => {
    const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as {
      name: string
      dsh?: { bundle?: { patch?: string } }
      exports: Record<string, { default: string }>
    }
    expect(pkg.exports['.']?.default).toBe('./dist/index.js')
    expect(pkg.dsh?.bundle?.patch).toBe('./cordis.patch.yml')
    const patch = await readFile(new URL(pkg.dsh?.bundle?.patch ?? '', root), 'utf8')
    expect(patch).toMatch(/^- insert:\n\s+- id: dsh-tool-search\n\s+name: '@anionex\/dsh-tool-search'\n/m)
    expect(patch).toContain(pkg.name)
  })
})
