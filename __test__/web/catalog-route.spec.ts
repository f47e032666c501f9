import { request } from 'node:http'
import { setImmediate as macrotask } from 'node:timers/promises'
import WebServer from '@deepseek-ai/dsh-host-webserver'
import { afterEach, describe, expect, it } from 'vitest'
import { CATALOG_DESCRIPTION_CHARS, CATALOG_MAX_ROWS, CATALOG_ROUTE_PATH, type CatalogResponse } from '../../plugin/contract.ts'
import { TOOL_SEARCH_SETTINGS_NAMESPACE } from '../../plugin/host/settings.ts'
import { createHarness, type Harness, NATIVE } from '../support/harness.ts'
import { fixtureTool } from '../support/fixtures.ts'
import { PLATFORM_PACKAGE, missingCore } from '../support/missing-core.ts'
import { reply, toolCall } from '../support/scripted-model.ts'

let harness: Harness
afterEach(async () => { await harness.close() })

interface Answer {
  readonly status: number
  readonly headers: Record<string, string | string[] | undefined>
  readonly body: string
}

/** The real DSH web server on an OS-assigned loopback port, mounted after the plugin. */
async function serve(h: Harness): Promise<number> {
  await h.ctx.plugin(WebServer, { host: '127.0.0.1', port: 0 })
  return h.ctx.get('webServer')!.port
}

/** node:http rather than fetch: fetch may not set Host, which the route's fence reads. */
function ask(port: number, path: string, { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (chunk: string) => { body += chunk })
      res.on('end', () => { resolve({ status: res.statusCode ?? 0, headers: res.headers, body }) })
    })
    req.on('error', reject)
    req.end()
  })
}

async function catalog(port: number, path = CATALOG_ROUTE_PATH): Promise<CatalogResponse> {
  const answer = await ask(port, path)
  expect(answer.status).toBe(200)
  return JSON.parse(answer.body) as CatalogResponse
}

describe('GET /tool-search/catalog', () => {
  it('answers JSON with no-store: each tool\'s name, short description, policy and selection count, nothing more', async () => {
    harness = await createHarness({ plugin: { ...NATIVE, alwaysVisible: ['web_search'], neverSearch: ['mcp__postgres__query'] } })
    const port = await serve(harness)
    const { agent: a } = await harness.agent('a')
    await harness.agent('b')
    await harness.run(a, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }), reply('ok'))

    const answer = await ask(port, CATALOG_ROUTE_PATH)
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(answer.headers['cache-control']).toBe('no-store')
    const body = JSON.parse(answer.body) as CatalogResponse
    expect(body).toMatchObject({ schemaVersion: 1, agents: 2, total: body.tools.length, truncated: false })
    expect(Object.keys(body).sort()).toEqual(['agentSelections', 'agents', 'schemaVersion', 'tools', 'total', 'truncated'])
    // Per Agent, counts, found names and weights only: no session id leaves the host.
    expect(body.agentSelections).toEqual([
      { selected: 1, prefetched: 0, loading: 'native', found: ['mcp__weather__forecast'], offeredTokens: expect.any(Number), allTokens: expect.any(Number), cacheBreaks: 1 },
      { selected: 0, prefetched: 0, loading: 'native', found: [] },
    ])
    expect(body.tools.map(({ name, policy, selectedBy }) => [name, policy, selectedBy])).toEqual([
      ['bash', 'core', 0],
      ['grep', 'core', 0],
      ['mcp__github__create_issue', 'deferred', 0],
      ['mcp__mail__send_email', 'deferred', 0],
      ['mcp__postgres__query', 'never', 0],
      ['mcp__weather__forecast', 'deferred', 1],
      ['read', 'core', 0],
      ['todo_write', 'core', 0],
      ['tool_search', 'search', 0],
      ['web_search', 'always', 0],
    ])
    for (const row of body.tools) expect(Object.keys(row).sort()).toEqual(['description', 'name', 'policy', 'selectedBy'])
    expect(body.tools.find(row => row.name === 'bash')?.description).toBe('Run a shell command in the workspace.')
    expect(answer.body).not.toMatch(/"parameters"|"properties"|"sessionId"|"id":/)
  })

  it('follows the settings: a policy change shows on the next GET', async () => {
    harness = await createHarness({ plugin: NATIVE, settings: true })
    const port = await serve(harness)
    expect((await catalog(port)).tools.find(row => row.name === 'web_search')?.policy).toBe('deferred')
    await harness.ctx.settings.mutate(TOOL_SEARCH_SETTINGS_NAMESPACE, [{ op: 'set', path: ['neverSearch'], value: ['web_search'] }])
    // Settings watchers run on a queued continuation after the write commits.
    await macrotask()
    expect((await catalog(port)).tools.find(row => row.name === 'web_search')?.policy).toBe('never')
  })

  it('refuses every other method with 405 and Allow: GET', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const port = await serve(harness)
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']) {
      const answer = await ask(port, CATALOG_ROUTE_PATH, { method })
      expect([method, answer.status, answer.headers.allow, answer.headers['cache-control']]).toEqual([method, 405, 'GET', 'no-store'])
    }
  })

  it('serves loopback pages only, like DSH\'s settings RPCs', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const port = await serve(harness)
    expect((await ask(port, CATALOG_ROUTE_PATH, { headers: { Host: `localhost:${port}` } })).status).toBe(200)
    expect((await ask(port, CATALOG_ROUTE_PATH, { headers: { Host: `evil.example:${port}` } })).status).toBe(403)
    expect((await ask(port, CATALOG_ROUTE_PATH, { headers: { 'Sec-Fetch-Site': 'cross-site' } })).status).toBe(403)
    expect((await ask(port, CATALOG_ROUTE_PATH, { headers: { Origin: 'http://evil.example' } })).status).toBe(403)
    expect((await ask(port, CATALOG_ROUTE_PATH, { headers: { Origin: `http://127.0.0.1:${port}` } })).status).toBe(200)
  })

  it('caps a huge catalog, says so, trims descriptions, and filters before the cap', async () => {
    harness = await createHarness({ plugin: NATIVE, tools: [] })
    const long = `Query ${'the warehouse '.repeat(40)}`
    for (let i = 0; i < 1200; i += 1) {
      harness.ctx.tools.register(fixtureTool({ name: `mcp__bulk__tool_${String(i).padStart(4, '0')}`, description: long }))
    }
    const port = await serve(harness)
    const all = await catalog(port)
    expect(all.total).toBe(1202) // with todo_write and tool_search
    expect(all.truncated).toBe(true)
    expect(all.tools).toHaveLength(CATALOG_MAX_ROWS)
    expect(all.tools[0]?.description.length).toBeLessThanOrEqual(CATALOG_DESCRIPTION_CHARS)
    expect(all.tools[0]?.description.endsWith('…')).toBe(true)

    const narrowed = await catalog(port, `${CATALOG_ROUTE_PATH}?filter=${encodeURIComponent('TOOL_119')}`)
    expect(narrowed).toMatchObject({ total: 10, truncated: false })
    expect(narrowed.tools.map(row => row.name)).toEqual(Array.from({ length: 10 }, (_, i) => `mcp__bulk__tool_119${i}`))
    expect((await ask(port, `${CATALOG_ROUTE_PATH}?filter=${'x'.repeat(201)}`)).status).toBe(400)
  })

  it('keeps a hostile catalog\'s response bounded: over-long names left out and counted, descriptions cut however they escape', async () => {
    harness = await createHarness({ plugin: NATIVE, tools: [] })
    const escaped = '\u0001\u0002"\\'.repeat(2000)
    for (let i = 0; i < 600; i += 1) {
      harness.ctx.tools.register(fixtureTool({ name: `mcp__${'x'.repeat(240)}__${String(i).padStart(4, '0')}`, description: escaped }))
    }
    harness.ctx.tools.register(fixtureTool({ name: `mcp__long__${'n'.repeat(100_000)}`, description: 'A tool no model API would accept.' }))
    const port = await serve(harness)
    const answer = await ask(port, CATALOG_ROUTE_PATH)
    expect(answer.status).toBe(200)
    const body = JSON.parse(answer.body) as CatalogResponse
    expect(body).toMatchObject({ total: 603, truncated: true })
    expect(body.tools).toHaveLength(CATALOG_MAX_ROWS)
    expect(body.tools.some(row => row.name.startsWith('mcp__long__'))).toBe(false)
    expect(Buffer.byteLength(answer.body)).toBeLessThan(1.5 * 2 ** 20)
    const long = await ask(port, `${CATALOG_ROUTE_PATH}?filter=mcp__long__`)
    expect(JSON.parse(long.body)).toMatchObject({ total: 1, truncated: true, tools: [] })
  })

  it('lists the default preset\'s standing view where the web profile mounts tools', async () => {
    harness = await createHarness({ plugin: NATIVE, tools: [] })
    const { agent } = await harness.agent('standing')
    agent.ctx.tools.register(fixtureTool({ name: 'preset_only_tool', description: 'Mounted by a preset.' }))
    expect(harness.ctx.tools.schemas().map(tool => tool.name)).not.toContain('preset_only_tool')
    // Stands in for DSH's roster: its standing view of the default preset is a scope key the
    // registry reads like an Agent's.
    harness.ctx.provide('agentPresets', { standingKeyFor: () => Promise.resolve(agent) })
    const port = await serve(harness)
    expect((await catalog(port)).tools.map(row => row.name)).toContain('preset_only_tool')
  })

  it('says why tool_search is off, and only then: no native core, or another plugin owning the name', async () => {
    harness = await createHarness({ plugin: NATIVE, core: await missingCore() })
    const missing = await catalog(await serve(harness))
    expect(missing.searchUnavailable).toMatch(/^the native search core did not load: this machine is /)
    expect(missing.searchUnavailable).toContain(PLATFORM_PACKAGE)
    expect(missing.tools.find(row => row.name === 'web_search')?.policy).toBe('deferred')
    await harness.close()

    harness = await createHarness({ plugin: false })
    const foreign = harness.ctx.tools.register(fixtureTool({ name: 'tool_search', description: 'Someone else\'s search.' }))
    await harness.ctx.plugin(await import('../../plugin/index.ts'), {})
    const port = await serve(harness)
    expect((await catalog(port)).searchUnavailable).toMatch(/^cannot register tool_search \(.+\)$/)
    foreign()
    await macrotask()
    expect((await catalog(port)).searchUnavailable).toBeUndefined()
  })
})
