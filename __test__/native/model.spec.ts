// The semantic model and the ranking options of the addon: the shipped model file is the one the
// pinned build records, a checkout ranks hybrid by default (the model package resolves), and the
// ranking can be asked for or refused.
import { createHash } from 'node:crypto'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ToolIndex, setModelPath } from '../../index.js'

const ROOT = new URL('../../', import.meta.url)
const MODEL = new URL('model/model.bin', ROOT).pathname
const ENCODER = new URL('model/encoder.bin', ROOT).pathname
const QUERY_READER = new URL('model/encoder-query.bin', ROOT).pathname
const GLOSSARY = new URL('model/glossary.bin', ROOT).pathname
const GITHUB = readFileSync(new URL('catalogs/mcp/github.json', ROOT), 'utf8')
const CATALOG = JSON.stringify([
  { name: 'get_weather_forecast', description: 'Get the weather forecast for a city for the next days.' },
  { name: 'convert_currency', description: 'Convert an amount of money between currencies.' },
  { name: 'create_issue', description: 'Create an issue in a repository.' },
])

afterEach(() => { setModelPath(MODEL) })

describe('the semantic model', () => {
  it('is the files the pinned builds record', () => {
    type Output = { sha256: string }
    const inputs = JSON.parse(readFileSync(new URL('model/build/inputs.json', ROOT), 'utf8')) as { output: Output; table_base_output: Output; encoder_output: Output; encoder_query_output: Output; glossary_output: Output; glossary_licence: Output }
    const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')
    expect(sha256(MODEL)).toBe(inputs.output.sha256)
    // The table was trained from the untrained one build.py makes: a new one needs it trained again.
    const tableTraining = JSON.parse(readFileSync(new URL('model/build/train/training-table.json', ROOT), 'utf8')) as { trained_from: Output }
    expect(tableTraining.trained_from.sha256).toBe(inputs.table_base_output.sha256)
    expect(sha256(ENCODER)).toBe(inputs.encoder_output.sha256)
    expect(sha256(QUERY_READER)).toBe(inputs.encoder_query_output.sha256)
    // The query reader was trained against the transformer's tool vectors: a new transformer needs it trained again.
    const readerTraining = JSON.parse(readFileSync(new URL('model/build/train/training-reader.json', ROOT), 'utf8')) as { trained_against: Output }
    expect(readerTraining.trained_against.sha256).toBe(inputs.encoder_output.sha256)
    expect(sha256(GLOSSARY)).toBe(inputs.glossary_output.sha256)
    expect(sha256(new URL('model/LICENSE-CC-BY-SA-4.0', ROOT).pathname)).toBe(inputs.glossary_licence.sha256)
  })

  it('reads a Chinese request in English with the glossary, and explains the gloss words', () => {
    const index = ToolIndex.fromJson(GITHUB)
    expect(index.search('合并这个拉取请求', 1, { fill: false }).map(hit => hit.name)).toEqual(['merge_pull_request'])
    const explained = index.explain('合并这个拉取请求', 'merge_pull_request')!
    expect(explained.terms.find(term => term.term === 'merg')).toMatchObject({ queryWord: '合并', kind: 'gloss' })
    expect(explained.stages.reduce((sum, part) => sum + part.part, 0)).toBeCloseTo(explained.score, 5)
    // Without the glossary the Chinese characters match no English description.
    const lexical = ToolIndex.fromJson(GITHUB, { ranking: 'lexical' })
    expect(lexical.search('合并这个拉取请求', 5)).toEqual([])
  })

  it('reads a request as a sentence once the transformer\'s vectors are in place', async () => {
    const index = ToolIndex.fromJson(GITHUB)
    await index.ready()
    const explained = index.explain('open a pull request', 'create_pull_request')
    // Its cosine says what the request is about: well above a tool of another subject that
    // shares the request's verb.
    const otherSubject = index.explain('open a pull request', 'create_issue')?.semantic?.contextual
    expect(explained?.semantic?.contextual).toBeGreaterThan((otherSubject ?? 1) + 0.25)
    // A query longer than the transformer reads is left to the word table.
    const long = 'Please look at the repository and tell me what changed since yesterday. '.repeat(12)
    expect(index.explain(long, 'list_commits')?.semantic?.contextual).toBeNull()
    // A catalog whose every tool was embedded before has its vectors at once.
    const again = ToolIndex.fromJson(GITHUB)
    expect(again.explain('open a pull request', 'create_pull_request')?.semantic?.contextual).toBe(explained?.semantic?.contextual)
  })

  it('explains a hybrid score as a tree of stage parts that add up to it', async () => {
    const index = ToolIndex.fromJson(GITHUB)
    await index.ready()
    const query = 'open a pull request'
    for (const hit of index.search(query, 8, { fill: false })) {
      const { stages, score } = index.explain(query, hit.name)!
      expect(score).toBe(hit.score)
      expect(stages.map(part => part.stage).slice(0, 2)).toEqual(['lexical', 'semantic'])
      expect(stages[1]!.parts.map(part => part.stage)).toEqual(['table', 'transformer'])
      expect(stages.reduce((sum, part) => sum + part.part, 0)).toBeCloseTo(score, 5)
      expect(stages[1]!.parts.reduce((sum, part) => sum + part.part, 0)).toBeCloseTo(stages[1]!.part, 5)
    }
    expect(index.explain(query, 'create_pull_request')!.stages.at(-1)?.stage).toBe('name agreement')
    expect(index.explain('open a pull request', 'fork_repository')!.stages).toEqual([])
  })

  it('makes indexes hybrid by default in a checkout, where the model package resolves', async () => {
    const index = ToolIndex.fromJson(CATALOG)
    expect(index.ranking).toBe('hybrid')
    await expect(index.ready()).resolves.toBeUndefined()
    // No tool says "rain" or "umbrella": only the meaning finds the forecast.
    expect(index.search('do I need an umbrella, will it rain', 1).map(hit => hit.name)).toEqual(['get_weather_forecast'])
    const lexical = ToolIndex.fromJson(CATALOG, { ranking: 'lexical' })
    expect(lexical.ranking).toBe('lexical')
    expect(lexical.search('do I need an umbrella, will it rain', 1)).toEqual([])
  })

  it('ranks the same on every build of an index, with scores in the fused scale', async () => {
    const [first, second] = [ToolIndex.fromJson(CATALOG), ToolIndex.fromJson(CATALOG)]
    await Promise.all([first.ready(), second.ready()])
    const a = first.search('convert dollars to yen', 3)
    const b = second.search('convert dollars to yen', 3)
    expect(a).toEqual(b)
    expect(a[0]?.name).toBe('convert_currency')
    expect(a.every(hit => hit.score >= 0 && hit.score <= 1)).toBe(true)
  })

  it('without the model, defaults to lexical and refuses hybrid by name', () => {
    setModelPath(null)
    expect(ToolIndex.fromJson(CATALOG).ranking).toBe('lexical')
    expect(() => ToolIndex.fromJson(CATALOG, { ranking: 'hybrid' })).toThrow("ranking 'hybrid' needs the semantic model, and the package @anionex/dsh-tool-search-model is not installed")
  })

  it('with a damaged model, defaults to lexical with a warning, and refuses hybrid with the reason', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-tool-search-model-'))
    try {
      const damaged = join(dir, 'model.bin')
      copyFileSync(MODEL, damaged)
      const bytes = readFileSync(damaged)
      bytes[bytes.length - 1]! ^= 1
      writeFileSync(damaged, bytes)
      setModelPath(damaged)
      const index = ToolIndex.fromJson(CATALOG)
      expect(index.ranking).toBe('lexical')
      expect(index.warnings.join('\n')).toMatch(/^the semantic model cannot be used, so searches are lexical: the model file is damaged: its checksum is [0-9a-f]{16}, its header says [0-9a-f]{16} \(/)
      expect(() => ToolIndex.fromJson(CATALOG, { ranking: 'hybrid' })).toThrow(/the model file is damaged/)
      setModelPath(join(dir, 'missing.bin'))
      expect(() => ToolIndex.fromJson(CATALOG, { ranking: 'hybrid' })).toThrow(/cannot read the model file/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('with a damaged transformer, stays hybrid on the word table, with a warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-tool-search-model-'))
    try {
      copyFileSync(MODEL, join(dir, 'model.bin'))
      writeFileSync(join(dir, 'encoder.bin'), readFileSync(ENCODER).subarray(0, 4096))
      setModelPath(join(dir, 'model.bin'))
      const index = ToolIndex.fromJson(CATALOG)
      expect(index.ranking).toBe('hybrid')
      expect(index.warnings.join('\n')).toMatch(/^the transformer is left out, so searches blend the word table alone: the model file is not a dsh-tool-search model: .*\(.*encoder\.bin\)$/)
      await expect(index.ready()).resolves.toBeUndefined()
      expect(index.explain('convert dollars to yen', 'convert_currency')?.semantic?.contextual).toBeNull()
      expect(index.search('do I need an umbrella, will it rain', 1).map(hit => hit.name)).toEqual(['get_weather_forecast'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('reads every query, typed or glossed, with the query reader where it is there and sound', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-tool-search-model-'))
    try {
      for (const file of [MODEL, ENCODER, GLOSSARY]) copyFileSync(file, join(dir, file.split('/').pop()!))
      const cosines = async (path: string) => {
        setModelPath(path)
        const index = ToolIndex.fromJson(GITHUB)
        await index.ready()
        const cosine = (query: string) => index.explain(query, 'merge_pull_request')?.semantic?.contextual
        return { glossed: cosine('把这个拉取请求合并掉'), typed: cosine('merge this pull request'), warnings: index.warnings }
      }
      const without = await cosines(join(dir, 'model.bin'))
      const shipped = await cosines(MODEL)
      expect(shipped.warnings).toEqual([])
      expect(without.glossed).toEqual(expect.any(Number))
      expect(shipped.glossed).not.toBe(without.glossed)
      expect(shipped.typed).not.toBe(without.typed)
      writeFileSync(join(dir, 'encoder-query.bin'), readFileSync(QUERY_READER).subarray(0, 4096))
      const damaged = await cosines(join(dir, 'model.bin'))
      expect(damaged.warnings.join('\n')).toMatch(/^queries are read by the transformer that reads the tools: the model file is not a dsh-tool-search model: .*\(.*encoder-query\.bin\)$/)
      expect(damaged.glossed).toBe(without.glossed)
      expect(damaged.typed).toBe(without.typed)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('with a damaged glossary, stays hybrid and reads Chinese by its characters, with a warning', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dsh-tool-search-model-'))
    try {
      copyFileSync(MODEL, join(dir, 'model.bin'))
      writeFileSync(join(dir, 'glossary.bin'), readFileSync(GLOSSARY).subarray(0, 4096))
      setModelPath(join(dir, 'model.bin'))
      const index = ToolIndex.fromJson(GITHUB)
      expect(index.ranking).toBe('hybrid')
      expect(index.warnings.join('\n')).toMatch(/^the glossary is left out, so a query's Chinese is matched by its characters alone: the glossary file is not a dsh-tool-search glossary: .*\(.*glossary\.bin\)$/)
      expect(index.search('合并这个拉取请求', 5, { fill: false })).toEqual([])
      expect(index.search('merge a pull request', 1).map(hit => hit.name)).toEqual(['merge_pull_request'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('checks its options like every other argument', () => {
    // @ts-expect-error a ranking the addon does not know
    expect(() => ToolIndex.fromJson(CATALOG, { ranking: 'semantic' })).toThrow(`ranking must be 'lexical' or 'hybrid', got "semantic"`)
    // @ts-expect-error not a string
    expect(() => ToolIndex.fromJson(CATALOG, { ranking: 7 })).toThrow("ranking must be 'lexical' or 'hybrid', got a number")
    // @ts-expect-error not an object
    expect(() => ToolIndex.fromJson(CATALOG, 'hybrid')).toThrow('options must be an object, got a string')
    expect(ToolIndex.fromJson(CATALOG, null).ranking).toBe('hybrid')
    // @ts-expect-error a path is a string
    expect(() => setModelPath(42)).toThrow('model path must be a string, got a number')
    expect(() => setModelPath('x'.repeat(5000))).toThrow('model path is at least 5000 bytes; the limit is 4096 bytes')
  })
})
