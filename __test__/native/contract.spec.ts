// The facts the Rust core and the plugin share come from one file, plugin/contract.ts: build.rs
// reads the names and bounds into the crate, and the addon gives them back. Each is checked here
// through the built addon, so a value changed in contract.ts and not rebuilt, or a copy made
// somewhere else, fails.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { MODEL_PACKAGE as CORE_MODEL_PACKAGE, ToolIndex, selectionFromEvents, selectionFromPayload } from '../../index.js'
import {
  CODE_DISPATCH_EVENT, DESELECT_FIELD, DISCOVER_FIELD, PACKAGE_NAME, PLUGIN_ID, EVICT_RECORD, MAX_NAME_BYTES, MAX_QUERY_CHARS, MODEL_PACKAGE, PAYLOAD_SCHEMA_VERSION,
  PREFETCH_RECORD, PTC_DISPATCH_EVENT, RECORD_ID_PREFIX, REPLAYED_EVENTS, TOOLS_FIELD, TOOL_CALL_EVENT, TOOL_NAME_FIELD, TOOL_RESULT_EVENT, TOOL_SEARCH_NAME,
  VERSION_FIELD,
} from '../../plugin/contract.ts'
import { PAYLOAD_TEXT_START, payloadContent, type ToolSearchPayload } from '../../plugin/search/payload.ts'

const manifest = (path: string) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')) as { name: string; optionalDependencies?: Record<string, string> }
const index = ToolIndex.fromJson(JSON.stringify([{ name: 'get_weather', description: 'Weather.' }]), { ranking: 'lexical' })

describe('the facts shared with the core', () => {
  it('the model package: the addon names the one the contract and the model package name', () => {
    expect(CORE_MODEL_PACKAGE).toBe(MODEL_PACKAGE)
    expect(manifest('model/package.json').name).toBe(MODEL_PACKAGE)
    expect(Object.keys(manifest('package.json').optionalDependencies ?? {})).toContain(MODEL_PACKAGE)
  })

  it('the package and its row: the contract names the package.json name and the bundle patch row id', () => {
    expect(manifest('package.json').name).toBe(PACKAGE_NAME)
    expect(readFileSync(new URL('../../cordis.patch.yml', import.meta.url), 'utf8')).toContain(`- id: ${PLUGIN_ID}\n      name: '${PACKAGE_NAME}'\n`)
  })

  it('the longest query: the core takes MAX_QUERY_CHARS characters and refuses one more', () => {
    expect(() => index.search('é'.repeat(MAX_QUERY_CHARS), 1)).not.toThrow()
    expect(() => index.search('é'.repeat(MAX_QUERY_CHARS + 1), 1)).toThrow(`the limit is ${MAX_QUERY_CHARS}`)
  })

  it('the longest name: the core takes MAX_NAME_BYTES bytes in an exclude list and refuses one more', () => {
    expect(() => index.search('weather', 1, { exclude: ['é'.repeat(MAX_NAME_BYTES / 2)] })).not.toThrow()
    expect(() => index.search('weather', 1, { exclude: [`${'é'.repeat(MAX_NAME_BYTES / 2)}x`] })).toThrow(`the limit is ${MAX_NAME_BYTES} bytes`)
  })

  it('the search tool: replay reads the results of TOOL_SEARCH_NAME calls', () => {
    const payload = JSON.stringify({ schemaVersion: 1, query: 'q', tools: [{ name: 'get_weather', description: '', score: 1 }] })
    const events = (name: string) => JSON.stringify([
      { type: 'tool/call', data: { callId: 'c1', name } },
      { type: 'tool/result', data: { message: { content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: payload }] }] } } },
    ])
    expect(selectionFromEvents(events(TOOL_SEARCH_NAME)).selected).toEqual(['get_weather'])
    expect(selectionFromEvents(events(`${TOOL_SEARCH_NAME}_v2`)).selected).toEqual([])
  })

  describe('the session log', () => {
    const payload = (fields: Record<string, unknown>) => JSON.stringify({ [VERSION_FIELD]: PAYLOAD_SCHEMA_VERSION, query: 'q', [TOOLS_FIELD]: [], ...fields })
    const found = (name: string) => payload({ [TOOLS_FIELD]: [{ [TOOL_NAME_FIELD]: name, description: '', score: 1 }] })
    const called = (id: string, text: string, type = TOOL_CALL_EVENT) => [
      { type, data: { callId: id, name: TOOL_SEARCH_NAME } },
      { type: TOOL_RESULT_EVENT, data: { message: { content: [{ type: 'tool-result', toolCallId: id, content: [{ type: 'text', text }] }] } } },
    ]
    const record = (type: string, root: string, text: string) => ({
      type,
      data: { rootCallId: root, parentCallId: root, subCallId: `${root}:1`, name: TOOL_SEARCH_NAME, arguments: {}, isError: false, content: [{ type: 'text', text }] },
    })
    const replay = (events: unknown[]) => selectionFromEvents(JSON.stringify(events))

    it('the payload version: replay reads PAYLOAD_SCHEMA_VERSION and no other', () => {
      expect(replay(called('c1', found('a'))).selected).toEqual(['a'])
      expect(replay(called('c1', found('a').replace(`:${PAYLOAD_SCHEMA_VERSION},`, `:${PAYLOAD_SCHEMA_VERSION + 1},`))).selected).toEqual([])
    })

    it('the payload fields: replay reads the fields payload.ts writes, under the names the contract gives, and not under another', () => {
      const written = (fields: Partial<ToolSearchPayload> = {}) => {
        const block = payloadContent({ [VERSION_FIELD]: PAYLOAD_SCHEMA_VERSION, query: 'q', [TOOLS_FIELD]: [{ name: 'a', description: '', score: 1 }], ...fields })[0]
        return block?.type === 'text' ? block.text : ''
      }
      const renamed = (text: string, field: string) => text.replace(`"${field}":`, `"${field}x":`)
      expect(PAYLOAD_TEXT_START).toBe(`{"${VERSION_FIELD}":`)
      expect(written().startsWith(PAYLOAD_TEXT_START)).toBe(true)
      expect(selectionFromPayload(written())).toEqual(['a'])
      for (const field of [VERSION_FIELD, TOOLS_FIELD, TOOL_NAME_FIELD]) {
        expect(written()).toContain(`"${field}":`)
        expect(selectionFromPayload(renamed(written(), field)), field).toEqual([])
      }
      expect(selectionFromPayload(written({ [DISCOVER_FIELD]: true }))).toEqual([])
      expect(selectionFromPayload(renamed(written({ [DISCOVER_FIELD]: true }), DISCOVER_FIELD))).toEqual(['a'])
    })

    it('the event types: replay reads a call under the names the contract gives, and not under another', () => {
      expect(replay(called('c1', found('a'), `${TOOL_CALL_EVENT}x`)).selected).toEqual([])
      for (const type of [CODE_DISPATCH_EVENT, PTC_DISPATCH_EVENT]) {
        expect(replay([record(type, 'r', found('a'))]).selected, type).toEqual(['a'])
      }
      expect(replay([record(`${CODE_DISPATCH_EVENT}-start`, 'r', found('a'))]).selected).toEqual([])
      expect(REPLAYED_EVENTS).toEqual([TOOL_CALL_EVENT, TOOL_RESULT_EVENT, CODE_DISPATCH_EVENT, PTC_DISPATCH_EVENT])
    })

    it('the record ids and the deselect field: a prefetch record is told apart, an eviction record drops', () => {
      const prefetched = replay([record(CODE_DISPATCH_EVENT, `${RECORD_ID_PREFIX}${PREFETCH_RECORD}:m1`, found('a'))])
      expect(prefetched.prefetched).toEqual(['a'])
      expect(replay([record(CODE_DISPATCH_EVENT, `${RECORD_ID_PREFIX}x${PREFETCH_RECORD}:m1`, found('a'))]).prefetched).toEqual([])
      const evicted = replay([...called('c1', found('a')), record(CODE_DISPATCH_EVENT, `${RECORD_ID_PREFIX}${EVICT_RECORD}:m2`, payload({ [DESELECT_FIELD]: ['a'] }))])
      expect(evicted).toMatchObject({ selected: [], dropped: ['a'] })
    })
  })
})
