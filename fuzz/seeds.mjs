// Derives the fuzz targets' seed inputs from the repository's real data, into fuzz/seeds/<target>/
// (rewritten on every run, so they follow the data): tools of the BFCL, DSH and MCP catalogs in
// the three catalog shapes the core reads, with BFCL requests, exact names and select: lists as
// queries; their schemas; their names, descriptions and requests as analyzer text; the events
// of the real DSH sessions in fuzz/sessions/, whole and cut at each tool event; and small model
// files cut from the shipped model.
// Usage: node fuzz/seeds.mjs [maxBytes]

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'

const MAX_BYTES = Number(process.argv[2] ?? 12_288)
const root = new URL('../', import.meta.url)
const read = (path) => readFileSync(new URL(path, root), 'utf8')
const listed = (path) => JSON.parse(read(path)).tools

const catalogs = {
  bfcl: JSON.parse(read('bench/data/bfcl/bfcl-catalog.json')),
  dsh: listed('catalogs/dsh/headless-tools.json'),
  github: listed('catalogs/mcp/github.json'),
  notion: listed('catalogs/mcp/notion.json'),
  playwright: listed('catalogs/mcp/playwright.json'),
}
const requests = read('bench/data/bfcl/bfcl-dev-queries.jsonl').split('\n').filter(Boolean).map((line) => JSON.parse(line).query)
/** BFCL alone has 1,437 tools; every tenth keeps the seed set small and still varied. */
const sample = (list, source) => (source === 'bfcl' ? list.filter((_, i) => i % 10 === 0) : list)

const seeds = { catalog_search: [], schema_walk: [], analyzer: [], replay: [], model_file: [], glossary_file: [] }
const add = (target, name, content) => {
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content)
  if (bytes.length <= MAX_BYTES) seeds[target].push([name, bytes])
}

const shapes = [
  (tools) => JSON.stringify(tools.map(({ name, description, parameters, inputSchema }) => ({ name, description, parameters: parameters ?? inputSchema }))),
  (tools) => JSON.stringify(tools.map(({ name, description, parameters, inputSchema }) => ({ type: 'function', function: { name, description, parameters: parameters ?? inputSchema } }))),
  (tools) => JSON.stringify({ tools: tools.map(({ name, description, parameters, inputSchema }) => ({ name, description, inputSchema: inputSchema ?? parameters })) }),
]
for (const [source, tools] of Object.entries(catalogs)) {
  const picked = sample(tools, source)
  picked.forEach((tool, i) => {
    const group = [tool, ...tools.slice(tools.indexOf(tool) + 1, tools.indexOf(tool) + 3)]
    const queries = [requests[(i * 37) % requests.length], tool.name, `select:${group.map((t) => t.name).join(',')}`, `+${tool.name.split(/[_.]/)[0]} find`]
    const query = queries[i % queries.length]
    const count = i % 5 === 4 ? 0xfe : 1 + (i % 20)
    add('catalog_search', `${source}-${i}`, Buffer.concat([Buffer.from([count]), Buffer.from(query), Buffer.from([0xff]), Buffer.from(shapes[i % 3](group))]))
    const schema = tool.parameters ?? tool.inputSchema
    if (schema !== undefined) add('schema_walk', `${source}-${i}`, JSON.stringify(schema))
    add('analyzer', `${source}-name-${i}`, tool.name)
    add('analyzer', `${source}-description-${i}`, String(tool.description ?? '').slice(0, 2048))
  })
}
requests.filter((_, i) => i % 10 === 0).forEach((request, i) => add('analyzer', `request-${i}`, request))
const scripts = ['明天北京天气怎么样', '東京の天気を教えて', '날씨를 알려줘', 'ｶﾀｶﾅ ｆｕｌｌ ﬁle', 'Café RÉSUMÉ naïve', 'İstanbul ǅemal ß', 'x\u0301\u0302 \u200d\ufeff', 'HTTPServerError getCurrentWeather mcp__github__create_issue v1.2 don\'t sha256']
scripts.forEach((text, i) => add('analyzer', `scripts-${i}`, text))

for (const session of ['native', 'code']) {
  const events = JSON.parse(read(`fuzz/sessions/${session}.json`))
  add('replay', `${session}-whole`, JSON.stringify(events))
  const toolEvents = events.filter((event) => event.type.startsWith('tool/'))
  toolEvents.forEach((_, i) => add('replay', `${session}-tools-${i + 1}`, JSON.stringify(toolEvents.slice(0, i + 1))))
  // The hand edits and other versions a resumed log may carry.
  const edited = {
    'renamed-call': toolEvents.map((event) => (event.type === 'tool/call' ? { ...event, data: { ...event.data, name: 'bash' } } : event)),
    'no-calls': toolEvents.filter((event) => event.type !== 'tool/call'),
    'version-2': JSON.parse(JSON.stringify(toolEvents).replaceAll('\\"schemaVersion\\":1', '\\"schemaVersion\\":2')),
    'reversed': [...toolEvents].reverse(),
  }
  for (const [edit, list] of Object.entries(edited)) add('replay', `${session}-${edit}`, JSON.stringify(list))
}

// Model files: the first rows of the shipped model, re-encoded small (src/semantic/model.rs has the format).
const shipped = readFileSync(new URL('model/model.bin', root))
for (const rows of [1, 3, 40]) add('model_file', `first-${rows}-rows`, smallModel(shipped, rows))

/** A valid model file of the first `count` rows of `model`, with its checksum. */
function smallModel(model, count) {
  const dims = model.readUInt32LE(12)
  const terms = model.readUInt32LE(16)
  const lengths = model.subarray(32, 32 + terms)
  const textsAt = 32 + terms
  const keptText = lengths.subarray(0, count).reduce((sum, n) => sum + n, 0)
  const allText = lengths.reduce((sum, n) => sum + n, 0)
  const weightsAt = textsAt + allText
  const rowsAt = weightsAt + 2 * terms
  const body = Buffer.concat([
    lengths.subarray(0, count), model.subarray(textsAt, textsAt + keptText),
    model.subarray(weightsAt, weightsAt + 2 * count), model.subarray(rowsAt, rowsAt + dims * count),
  ])
  const header = Buffer.alloc(32)
  model.copy(header, 0, 0, 16)
  header.writeUInt32LE(count, 16)
  header.writeUInt32LE(keptText, 20)
  header.writeBigUInt64LE(fnv1a(body), 24)
  return Buffer.concat([header, body])
}

// Glossary files: a few words of the shipped glossary, re-encoded small (src/gloss/mod.rs has the
// format): the first words in key order, and the words a Chinese query needs.
const glossary = readFileSync(new URL('model/glossary.bin', root))
add('glossary_file', 'first-40-words', smallGlossary(glossary, (_, i) => i < 40))
const wanted = new Set(['合并', '这个', '拉', '取', '请求', '明天', '北京', '天气', '怎么样', '的', '我', '林'])
add('glossary_file', 'query-words', smallGlossary(glossary, (key) => wanted.has(key)))

/** A valid glossary file of the words of `glossary` that `keep(key, index)` keeps, with its checksum. */
function smallGlossary(glossary, keep) {
  const words = glossary.readUInt32LE(12)
  const keysAt = 40 + 7 * words
  const glossesAt = keysAt + glossary.readUInt32LE(16)
  const kept = []
  for (let i = 0, key = keysAt, gloss = glossesAt; i < words; i++) {
    const keyLength = glossary[40 + i]
    const glossLength = glossary[40 + words + i]
    const word = {
      key: glossary.subarray(key, key + keyLength),
      gloss: glossary.subarray(gloss, gloss + glossLength),
      cost: glossary.subarray(40 + 2 * words + 4 * i, 40 + 2 * words + 4 * i + 4),
      flags: glossary.subarray(40 + 6 * words + i, 40 + 6 * words + i + 1),
    }
    if (keep(word.key.toString('utf8'), i)) kept.push(word)
    key += keyLength
    gloss += glossLength
  }
  const body = Buffer.concat([
    Buffer.from(kept.map((w) => w.key.length)), Buffer.from(kept.map((w) => w.gloss.length)),
    ...kept.map((w) => w.cost), ...kept.map((w) => w.flags), ...kept.map((w) => w.key), ...kept.map((w) => w.gloss),
  ])
  const header = Buffer.alloc(40)
  glossary.copy(header, 0, 0, 12)
  header.writeUInt32LE(kept.length, 12)
  header.writeUInt32LE(kept.reduce((sum, w) => sum + w.key.length, 0), 16)
  header.writeUInt32LE(kept.reduce((sum, w) => sum + w.gloss.length, 0), 20)
  glossary.copy(header, 24, 24, 28)
  header.writeUInt32LE(Math.max(...kept.map((w) => [...w.key.toString('utf8')].length)), 28)
  header.writeBigUInt64LE(fnv1a(body), 32)
  return Buffer.concat([header, body])
}

function fnv1a(bytes) {
  let hash = 0xcbf29ce484222325n
  for (const byte of bytes) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn
  return hash
}

for (const [target, files] of Object.entries(seeds)) {
  const dir = new URL(`seeds/${target}/`, import.meta.url)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  for (const [name, bytes] of files) writeFileSync(new URL(name, dir), bytes)
  console.log(`fuzz/seeds/${target}: ${files.length} seeds`)
}
