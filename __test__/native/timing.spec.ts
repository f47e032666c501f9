// What a search answers is a function of the catalog, the query and the settings, never of how far
// the background worker has got with the transformer's vectors; and that work never holds up the
// process: a pending `ready()` holds no libuv thread, and a process with embedding in flight exits
// at once.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ToolIndex } from '../../index.js'

const ENTRY = new URL('../../index.js', import.meta.url).pathname
const BFCL = JSON.parse(readFileSync(new URL('../../bench/data/bfcl/bfcl-catalog.json', import.meta.url), 'utf8')) as { name: string; description: string; parameters?: unknown }[]
const QUERIES = readFileSync(new URL('../../bench/data/bfcl/bfcl-dev-queries.jsonl', import.meta.url), 'utf8')
  .split('\n').filter(Boolean).slice(0, 12).map(line => (JSON.parse(line) as { query: string }).query)

/** BFCL tools whose descriptions no other test or earlier run embedded: nothing is cached. */
function unseenCatalog(size = 1000): string {
  const salt = `${process.pid}-${Date.now()}-${Math.random()}`
  return JSON.stringify(BFCL.slice(0, size).map(tool => ({ ...tool, description: `${tool.description} (${salt})` })))
}

describe('answers that never depend on timing', () => {
  it('gives the searches made right after fromJson, at 1,000 new tools, exactly the hits they get after ready()', async () => {
    const index = ToolIndex.fromJson(unseenCatalog(), { ranking: 'hybrid' })
    let ready = false
    const settled = index.ready().then(() => { ready = true })
    const first = await index.searchAsync(QUERIES[0]!, 10)
    expect(ready, 'the worker was still embedding when the first search answered').toBe(false)
    const cold = [first, ...await Promise.all(QUERIES.slice(1).map(query => index.searchAsync(query, 10)))]
    await settled
    const warm = await Promise.all(QUERIES.map(query => index.searchAsync(query, 10)))
    expect(cold).toEqual(warm)
    expect(QUERIES.map(query => index.search(query, 10))).toEqual(warm)
  }, 120_000)
})

describe('a process with embedding in flight', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'dsh-tool-search-timing-'))
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))
  /** A file of new tools, and the child's code that indexes it (`index`). */
  const indexed = (name: string, size?: number): string => {
    const file = join(scratch, `${name}.json`)
    writeFileSync(file, unseenCatalog(size))
    return `
      import { readFileSync } from 'node:fs'
      const { ToolIndex } = await import(${JSON.stringify(ENTRY)})
      const index = ToolIndex.fromJson(readFileSync(${JSON.stringify(file)}, 'utf8'), { ranking: 'hybrid' })
    `
  }

  /** Milliseconds from the child's last line to its exit, and how it exited. */
  function exitAfter(script: string): Promise<{ ms: number; code: number | null; said: string }> {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, DSH_TOOL_SEARCH_CACHE: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let said = ''
    let spoke = 0
    child.stdout.on('data', (chunk: Buffer) => {
      said += chunk.toString()
      spoke = performance.now()
    })
    return new Promise((resolve) => {
      child.on('exit', code => resolve({ ms: performance.now() - spoke, code, said }))
    })
  }

  it('exits within a second on process.exit, with ready() pending', async () => {
    const { ms, code, said } = await exitAfter(`${indexed('exit')}
      let ready = false
      index.ready().then(() => { ready = true })
      const hits = await index.searchAsync('what is the weather in Paris', 3)
      console.log(JSON.stringify({ ready, hits: hits.length }))
      process.exit(0)
    `)
    expect(JSON.parse(said)).toEqual({ ready: false, hits: 3 })
    expect(code).toBe(0)
    expect(ms).toBeLessThan(1000)
  }, 60_000)

  it('ends within a second when it has nothing left to do, with the worker still embedding', async () => {
    const { ms, code, said } = await exitAfter(`${indexed('end')}
      const hits = await index.searchAsync('what is the weather in Paris', 3)
      console.log(JSON.stringify({ hits: hits.length }))
    `)
    expect(JSON.parse(said)).toEqual({ hits: 3 })
    expect(code).toBe(0)
    expect(ms).toBeLessThan(1000)
  }, 60_000)

  it('keeps a process that awaits ready() alive until the vectors are in place', () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', `${indexed('awaited', 40)}
      await index.ready()
      console.log('ready')
    `], { env: { ...process.env, DSH_TOOL_SEARCH_CACHE: '' }, encoding: 'utf8' })
    expect(out.trim()).toBe('ready')
  }, 60_000)
})
