// Hostile input through Node-API, one test per class (src/tests/hostile.rs runs the same classes in
// Rust): every class is a clear JS Error or a sensible answer, never a crash of the process.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ToolIndex, readCatalog, selectionFromEvents, selectionFromPayload } from '../../index.js'

const tool = (name: string, description = '', parameters?: unknown) => ({ name, description, ...(parameters === undefined ? {} : { parameters }) })
const index = (tools: unknown[]) => ToolIndex.fromJson(JSON.stringify(tools))
const names = (hits: { name: string }[]) => hits.map((hit) => hit.name)
const searchPayload = (...found: string[]) => JSON.stringify({ schemaVersion: 1, query: 'q', tools: found.map((name) => ({ name, description: '', score: 1 })) })
const call = (callId: string, name: string) => ({ type: 'tool/call', data: { callId, name, arguments: '{}' } })
const result = (callId: string, text: string, extra: object = {}) => ({
  type: 'tool/result',
  data: { ...extra, message: { content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text }] }] } },
})

describe('hostile input to the native core', () => {
  it('malformed JSON: an Error naming the place, for catalogs and session events', () => {
    expect(() => ToolIndex.fromJson('[{"name": "a",}]')).toThrow('tool catalog is not valid JSON: expected a string key in an object at line 1, column 15')
    expect(() => ToolIndex.fromJson('\uFEFF[]')).toThrow('tool catalog is not valid JSON: expected a JSON value at line 1, column 1')
    expect(() => ToolIndex.fromJson('[NaN]')).toThrow(/^tool catalog is not valid JSON: expected a JSON value/)
    expect(() => selectionFromEvents('[{"type": "tool/call"')).toThrow(/^session events are not valid JSON: /)
  })

  it('wrong types: an Error for arguments and catalog structure, ignored odd content', () => {
    for (const [bad, kind] of [[null, 'null'], [42, 'a number'], [{}, 'an object'], [['[]'], 'an array'], [Symbol('x'), 'a symbol'], [undefined, 'undefined']] as const) {
      // @ts-expect-error wrong type on purpose
      expect(() => ToolIndex.fromJson(bad)).toThrow(`tool catalog must be a string, got ${kind}`)
      // @ts-expect-error wrong type on purpose
      expect(() => readCatalog(bad)).toThrow(`tool catalog must be a string, got ${kind}`)
      // @ts-expect-error wrong type on purpose
      expect(() => selectionFromEvents(bad)).toThrow(`session events text must be a string, got ${kind}`)
      // @ts-expect-error wrong type on purpose
      expect(() => selectionFromPayload(bad)).toThrow(`payload text must be a string, got ${kind}`)
    }
    const ok = index([tool('get_weather', 'weather')])
    // @ts-expect-error wrong type on purpose
    expect(() => ok.search('weather', 5, { exclude: [1, 2] })).toThrow('exclude[0]: tool name must be a string, got a number')
    // @ts-expect-error wrong type on purpose
    expect(() => ok.search('weather', 5, { exclude: 'get_weather' })).toThrow('exclude must be an array of tool names, got a string')
    // @ts-expect-error wrong type on purpose
    expect(() => ok.search('weather', 5, { fill: 'no' })).toThrow('fill must be a boolean, got a string')
    // @ts-expect-error wrong type on purpose
    expect(() => ok.search('weather', 5, 'options')).toThrow('options must be an object, got a string')
    // @ts-expect-error null is read as no list, though the type does not say so
    expect(ok.search('weather', 5, { exclude: null }).map((hit) => hit.name)).toEqual(['get_weather'])
    // @ts-expect-error wrong type on purpose
    expect(() => ok.searchText(7)).toThrow('tool name must be a string, got a number')
    // @ts-expect-error wrong type on purpose
    expect(() => ok.search('weather', 5n)).toThrow(Error)
    // @ts-expect-error wrong type on purpose
    expect(() => ok.explain(null, 'get_weather')).toThrow('query must be a string, got null')
    expect(() => ToolIndex.fromJson('{"tools": "x"}')).toThrow('tool catalog must be a JSON array of tools (or an object with a "tools" array), got a string')
    expect(index([{ name: 'odd', description: ['x'], parameters: 'schema' }]).searchText('odd')).toBe('odd')
  })

  it('odd schemas: whatever text they hold is indexed, the rest ignored', () => {
    const schema = { properties: { a: null, b: { properties: [] }, c: { enum: [null, 1, 'ok value'] }, d: { items: [[], { description: 'tuple item' }] }, e: { anyOf: 'no' } }, title: '  spaced  ' }
    const odd = index([tool('odd', '', schema)])
    expect(odd.searchText('odd')).toBe('odd spaced a b c ok value d tuple item e')
    expect(odd.warnings).toEqual([])
  })

  it('huge input: a catalog over 128 MiB is refused before it is read; huge text inside one is cut', () => {
    // More code units than the bound has bytes: refused from the length alone.
    const over = ' '.repeat(128 * 1024 * 1024 + 1)
    expect(() => ToolIndex.fromJson(over)).toThrow('tool catalog is at least 134217729 bytes; the limit is 134217728 bytes')
    // Within the bound in code units, over it in bytes of UTF-8: refused by its exact size.
    const wide = 'é'.repeat(64 * 1024 * 1024 + 1)
    expect(() => ToolIndex.fromJson(wide)).toThrow('tool catalog is 134217730 bytes; the limit is 134217728 bytes')
    expect(() => readCatalog(wide)).toThrow('tool catalog is 134217730 bytes; the limit is 134217728 bytes')
    const big = index([tool('n'.repeat(100_000), 'telemetry '.repeat(1 << 20)), tool('other')])
    const [hit] = big.search('telemetry', 1)
    expect(hit?.name.length).toBe(100_000)
    expect(hit?.description.length).toBe(240)
  })

  it('deep input: a million levels parse without a stack, the schema indexes 32 and warns', () => {
    const depth = 1_000_000
    const deep = ToolIndex.fromJson(`[{"name":"t","parameters":${'{"items":'.repeat(depth)}{}${'}'.repeat(depth)}}]`)
    expect(deep.size).toBe(1)
    expect(deep.warnings).toEqual(['the schema of "t" nests deeper than 32 levels; its text below that depth is not searchable'])
    expect(selectionFromEvents(`[${'['.repeat(depth)}${']'.repeat(depth)}]`).selected).toEqual([])
  })

  it('too many tools: the first 100,000 are indexed and a warning says how many were not', () => {
    const tools = Array.from({ length: 100_002 }, (_, i) => ({ name: `mcp__bulk__tool_${i}` }))
    const bulk = index(tools)
    expect(bulk.size).toBe(100_000)
    expect(bulk.warnings).toEqual(['the catalog holds 100002 tools; the first 100000 in catalog order are indexed and the other 2 are not searchable'])
    expect(names(bulk.search('mcp__bulk__tool_99999', 1))).toEqual(['mcp__bulk__tool_99999'])
    expect(names(bulk.search('mcp__bulk__tool_100001', 5))).not.toContain('mcp__bulk__tool_100001')
  })

  it('lone surrogates: replaced by U+FFFD in names, text, queries and replayed names', () => {
    const odd = index([tool('a\uD800b', 'x\uDFFF weather'), tool('\uDC00')])
    expect(odd.names()).toEqual(['a\uFFFDb', '\uFFFD'])
    // The replaced tool by its words first; the other, named U+FFFD alone, may follow by meaning.
    expect(names(odd.search('\uD800 weather', 5, { fill: false }))[0]).toBe('a\uFFFDb')
    expect(names(odd.search('\uDC00', 5, { fill: false }))).toEqual(['\uFFFD'])
    expect(selectionFromEvents(JSON.stringify([call('c1', 'tool_search'), result('c1', searchPayload('s\uD800'))])).selected).toEqual(['s\uFFFD'])
  })

  it('control characters: text like any other', () => {
    const odd = index([tool('tab\tname', 'bell\u0007 nul\u0000 weather')])
    expect(names(odd.search('weather', 5))).toEqual(['tab\tname'])
    expect(odd.search('\u0000\u0007', 5)).toEqual([])
  })

  it('an over-long query: an Error naming its length; 4,096 characters of any kind are served', () => {
    const small = index([tool('get_weather', 'weather')])
    expect(() => small.search('q'.repeat(4097), 5)).toThrow('query is 4097 characters long; the limit is 4096')
    expect(() => small.explain('q'.repeat(4097), 'get_weather')).toThrow('query is 4097 characters long; the limit is 4096')
    for (const longest of ['weather. '.repeat(455), '🌦'.repeat(4096), '天'.repeat(4096), '\uD800'.repeat(4096)]) {
      expect(() => small.search(longest, 20)).not.toThrow()
    }
  })

  it('huge and invalid limits: any whole number is "at most that many", anything else an Error', () => {
    const two = index([tool('a', 'weather'), tool('b', 'weather')])
    for (const limit of [Number.MAX_SAFE_INTEGER, 1e300, 2 ** 64]) expect(two.search('weather', limit)).toHaveLength(2)
    expect(two.search('weather', 0)).toEqual([])
    for (const limit of [-1, 0.5, Number.NaN, Number.NEGATIVE_INFINITY]) {
      expect(() => two.search('weather', limit)).toThrow(/^limit must be a whole number of results \(0 or more\), got /)
    }
  })

  it('huge exclusion lists: 100,000 names with duplicates and unknown names are served, one more is refused', () => {
    const two = index([tool('a', 'weather'), tool('b', 'weather')])
    const exclude = [...Array.from({ length: 100_000 - 3 }, (_, i) => `x${i}`), '', 'a', 'a']
    expect(names(two.search('weather', 5, { exclude }))).toEqual(['b'])
    expect(() => two.search('weather', 5, { exclude: [...exclude, 'b'] })).toThrow('exclude holds 100001 entries; the limit is 100000')
  })

  it('hostile lengths and values in every argument (in a child process, which must exit cleanly)', () => {
    const script = fileURLToPath(new URL('./hostile-lengths.mjs', import.meta.url))
    const child = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000 })
    expect({ status: child.status, signal: child.signal, stderr: child.stderr }).toEqual({ status: 0, signal: null, stderr: '' })
    const outcomes = Object.fromEntries(child.stdout.trim().split('\n').map((line) => {
      const { case: name, ...outcome } = JSON.parse(line) as { case: string; error?: string; value?: unknown }
      return [name, outcome]
    }))
    const huge = 2 ** 28
    expect(outcomes).toEqual({
      'exclude: sparse, length 2**32-1': { error: 'exclude holds 4294967295 entries; the limit is 100000' },
      'exclude: sparse, length 2**31': { error: 'exclude holds 2147483648 entries; the limit is 100000' },
      'exclude: MAX_TOOLS + 1 names': { error: 'exclude holds 100001 entries; the limit is 100000' },
      'exclude: MAX_TOOLS names': { value: ['other'] },
      'exclude: a hole': { error: 'exclude[1]: tool name must be a string, got undefined' },
      'exclude: array-like object with a huge length': { error: 'exclude must be an array of tool names, got an object' },
      'exclude: Proxy of an array': { error: 'exclude must be an array of tool names, got an object' },
      'exclude: getter that throws': { error: 'exclude getter threw' },
      'exclude: entry getter that throws': { error: 'entry getter threw' },
      'exclude: a number': { error: 'exclude must be an array of tool names, got a number' },
      'exclude: a number entry': { error: 'exclude[0]: tool name must be a string, got a number' },
      'exclude: a huge name': { error: `exclude[0]: tool name is at least ${huge} bytes; the limit is 1024 bytes` },
      'exclude: a name of 1026 bytes': { error: 'exclude[0]: tool name is 1026 bytes; the limit is 1024 bytes' },
      'options: a number': { error: 'options must be an object, got a number' },
      'options: Proxy whose traps throw': { error: 'trap threw' },
      'search: a huge query': { error: `query is at least ${huge / 2} characters long; the limit is 4096` },
      'search: a query of 8193 code units': { error: 'query is at least 4097 characters long; the limit is 4096' },
      'search: a number query': { error: 'query must be a string, got a number' },
      'explain: a huge query': { error: `query is at least ${huge / 2} characters long; the limit is 4096` },
      'explain: a huge name': { error: `tool name is at least ${huge} bytes; the limit is 1024 bytes` },
      'explain: a symbol name': { error: 'tool name must be a string, got a symbol' },
      'searchText: a huge name': { error: `tool name is at least ${huge} bytes; the limit is 1024 bytes` },
      'searchText: a name of 1026 bytes': { error: 'tool name is 1026 bytes; the limit is 1024 bytes' },
      'fromJson: a huge catalog': { error: `tool catalog is at least ${huge} bytes; the limit is 134217728 bytes` },
      'readCatalog: a huge catalog': { error: `tool catalog is at least ${huge} bytes; the limit is 134217728 bytes` },
      'readCatalog: a number': { error: 'tool catalog must be a string, got a number' },
      'selectionFromEvents: huge events': { error: `session events text is at least ${huge} bytes; the limit is 134217728 bytes` },
      'selectionFromPayload: a huge payload': { error: `payload text is at least ${huge} bytes; the limit is 134217728 bytes` },
      'selectionFromPayload: null': { error: 'payload text must be a string, got null' },
    })
  })

  it('hostile catalogs and queries: a huge name, a huge enum, a word every tool shares, many distinct words are answered', async () => {
    // src/tests/hostile.rs bounds the work of each class; here each is answered through Node-API.
    const word = (i: number) => (i + 26 ** 4).toString(26).split('').map(digit => String.fromCharCode(97 + parseInt(digit, 26))).join('')
    const words = Array.from({ length: 100_000 }, (_, i) => word(i))
    const everyday = Array.from({ length: 200 }, (_, i) => tool(`tool_${word(i)}`, `Does ${word(i + 1)} things.`))
    const hugeName = words.join('_')
    const hostile = index([
      ...everyday,
      tool(hugeName, 'A tool with a huge name.'),
      tool('pick_kind', 'Picks a kind.', { type: 'object', properties: { kind: { type: 'string', enum: words.map(w => `data${w}`) } } }),
    ])
    const ownWords = words.slice(0, 150).join(' ')
    const queries = [ownWords, `data ${words.slice(0, 600).map(w => `data${w}`).join(' ')}`.slice(0, 4096), 'data', 'things', words.slice(0, 800).join(' ').slice(0, 4096)]
    for (const query of queries) {
      const answer = await hostile.answerAsync(query, 20, { weakBelow: Number.POSITIVE_INFINITY, nearest: 5 })
      expect(answer.hits.length, query.slice(0, 40)).toBeLessThanOrEqual(20)
      expect(answer.strengths).toHaveLength(answer.hits.length)
      expect(answer.nearest?.length ?? 0).toBeLessThanOrEqual(5)
      const decision = await hostile.decideAsync(query, 20, { floor: Number.POSITIVE_INFINITY, leaderShare: 0 })
      expect(decision.loaded.length + decision.shown.length + (decision.nextMove?.candidates.length ?? 0), query.slice(0, 40)).toBeLessThanOrEqual(20)
      expect(await hostile.searchAsync(query, 20)).toEqual(hostile.search(query, 20))
    }
    expect(names(hostile.search(ownWords, 1, { fill: false }))).toEqual([hugeName])
    expect(names(hostile.search('data', 3, { fill: false }))).toContain('pick_kind')
    expect(hostile.outline().ungrouped).toContain(hugeName)
  })

  it('corrupted session events: only whole, successful tool_search results select', () => {
    const good = searchPayload('good')
    const events = [
      call('c1', 'tool_search'),
      result('c1', good.slice(0, good.length / 2)),
      result('c1', good.replace('"schemaVersion":1', '"schemaVersion":"1"')),
      result('c1', good, { error: { code: 'BLOCKED' } }),
      result('orphan', good),
      call('c2', 'bash'), result('c2', good),
      call('c3', 'tool_search'), call('c3', 'bash'), result('c3', good),
      { type: 'tool/result', data: { message: null } }, { type: 'tool/call', data: [] }, 'tool/result', null, 7, [],
    ]
    expect(selectionFromEvents(JSON.stringify(events)).selected).toEqual([])
    expect(selectionFromEvents(JSON.stringify([...events, call('c4', 'tool_search'), result('c4', good)])).selected).toEqual(['good'])
  })
})
