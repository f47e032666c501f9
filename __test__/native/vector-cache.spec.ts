// The transformer's tool vectors kept on disk between processes: a second process reads what the
// first embedded instead of embedding it again, ranks exactly as it did, and a damaged file or a
// directory it cannot write to changes nothing but the time.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { setVectorCache } from '../../index.js'

const ENTRY = new URL('../../index.js', import.meta.url).pathname
const SCRATCH = mkdtempSync(join(tmpdir(), 'dsh-tool-search-vector-cache-'))
/** A header (its last 16 bytes the file's key), then per record a key, 384 floats and a checksum
 * (src/semantic/disk_cache.rs). */
const HEADER = 40
const RECORD = 16 + 384 * 4 + 8
// Texts no other test embeds, so the vectors come from this test's processes alone.
const SALT = `${process.pid}-${Date.now()}`
const TOOLS = [
  ['create_pull_request', 'Create a new pull request in a repository.'],
  ['get_weather_forecast', 'Get the weather forecast for a city.'],
  ['convert_currency', 'Convert an amount of money between currencies.'],
  ['send_email', 'Send an email message to a recipient.'],
].map(([name, description]) => ({ name, description: `${description} (${SALT})` }))
const CATALOG = join(SCRATCH, 'catalog.json')
writeFileSync(CATALOG, JSON.stringify(TOOLS))
const QUERIES = ['open a pull request', 'will it rain tomorrow', 'how many yen is a dollar', 'write to my boss']

/** One process: build a hybrid index over the catalog with `cache`, wait for its vectors, search. */
function run(cache: string): unknown {
  const script = `
    const { ToolIndex } = await import(${JSON.stringify(ENTRY)})
    const index = ToolIndex.fromJson(require('node:fs').readFileSync(${JSON.stringify(CATALOG)}, 'utf8'))
    await index.ready()
    const queries = ${JSON.stringify(QUERIES)}
    console.log(JSON.stringify(queries.map(q => [index.search(q, 4), index.explain(q, 'send_email')?.semantic?.contextual])))
  `
  const out = execFileSync(process.execPath, ['--input-type=commonjs', '-e', `(async () => { ${script} })()`], {
    env: { ...process.env, DSH_TOOL_SEARCH_CACHE: cache },
    encoding: 'utf8',
  })
  return JSON.parse(out)
}

function vectorFile(dir: string): string {
  const files = readdirSync(dir).filter(name => name.startsWith('vectors-') && name.endsWith('.bin'))
  expect(files).toHaveLength(1)
  return join(dir, files[0] as string)
}

afterAll(() => rmSync(SCRATCH, { recursive: true, force: true }))

describe('the vector cache', () => {
  const dir = join(SCRATCH, 'cache')
  let first: unknown

  it('files each tool\'s vector as the first process embeds it', () => {
    first = run(dir)
    expect(statSync(vectorFile(dir)).size).toBe(HEADER + TOOLS.length * RECORD)
    const uncached = run('')
    expect(uncached).toEqual(first)
  })

  it('gives a second process the vectors, which then embeds nothing and ranks the same', () => {
    const before = readFileSync(vectorFile(dir))
    expect(run(dir)).toEqual(first)
    // Nothing appended: every vector came from the file.
    expect(readFileSync(vectorFile(dir))).toEqual(before)
  })

  it('skips a damaged record, cuts a torn end, and appends the damaged tool\'s vector again', () => {
    const file = vectorFile(dir)
    const damaged = readFileSync(file)
    const at = HEADER + RECORD + 100
    damaged.writeUInt8(damaged.readUInt8(at) ^ 0x10, at)
    writeFileSync(file, Buffer.concat([damaged, Buffer.from([1, 2, 3])]))
    expect(run(dir)).toEqual(first)
    // Records are only ever appended (another process may be reading them): the torn three bytes
    // are cut, the damaged record stays and is skipped, and one good record for it follows.
    const mended = readFileSync(file)
    expect(mended.length).toBe(HEADER + (TOOLS.length + 1) * RECORD)
    expect(mended.subarray(0, damaged.length)).toEqual(damaged)
    const before = readFileSync(file)
    expect(run(dir)).toEqual(first)
    expect(readFileSync(file), 'a third process finds every vector').toEqual(before)
  })

  it('is no cache where the directory cannot be made, and nothing else changes', () => {
    const blocked = join(SCRATCH, 'a-file')
    writeFileSync(blocked, 'not a directory')
    expect(run(join(blocked, 'cache'))).toEqual(first)
    // A path the core refuses to take: the addon still loads, without a cache.
    expect(run(join(SCRATCH, 'x'.repeat(5000)))).toEqual(first)
  })

  it('refuses a directory argument that is not a path', () => {
    expect(() => setVectorCache(42 as unknown as string)).toThrow('vector cache directory must be a string, got a number')
    expect(() => setVectorCache('x'.repeat(5000))).toThrow('vector cache directory is at least 5000 bytes; the limit is 4096 bytes')
  })
})
