#!/usr/bin/env node
// Checks queries.jsonl (or the file given) against the rules of this folder's README and the
// catalog `pnpm eval` ranks it over (bench/lib/eval-sets.mjs), then prints what the set holds:
//
//   node bench/data/multistep/check.mjs [file]
//
// Each pair is one request in English and one in Chinese with the same steps, two to four of
// them; a step names the tools that serve it (more than one where the catalog serves it twice),
// every one a tool of the catalog and none in two steps. No request may name a tool it is
// labelled with, nor repeat four words in a row (four Chinese characters in a row) of that
// tool's description. Exits 1 with the reasons when a line breaks a rule.
import { readFileSync } from 'node:fs'
import { isHeldBack } from '../../lib/eval-metrics.mjs'
import { evalSets } from '../../lib/eval-sets.mjs'

const FILE = process.argv[2] ?? new URL('queries.jsonl', import.meta.url)
const MIN_STEPS = 2
const MAX_STEPS = 4
const HAN = /\p{Script=Han}/u
const FIELDS = ['id', 'lang', 'pair', 'query', 'steps']

/** @typedef {{id: string, pair: string, lang: string, query: string, steps: string[][]}} Line */

/**
 * What is wrong with a line's steps, if anything: they must be two to four, each a non-empty list
 * of names, and no name may serve two steps or be listed twice.
 * @param {unknown} steps
 * @returns {string | undefined}
 */
function stepsProblem(steps) {
  if (!Array.isArray(steps) || !steps.every((step) => Array.isArray(step) && step.every((name) => typeof name === 'string'))) return 'steps must be lists of tool names'
  if (steps.length < MIN_STEPS || steps.length > MAX_STEPS) return `${steps.length} step${steps.length === 1 ? '' : 's'}, not ${MIN_STEPS} to ${MAX_STEPS}`
  if (steps.some((step) => step.length === 0)) return 'a step names no tool'
  const names = steps.flat()
  if (new Set(names).size !== names.length) return 'a tool is named twice (in one step or in two)'
  return undefined
}

/** @param {string} text */
const words = (text) => text.toLowerCase().match(/[a-z0-9]+/g) ?? []

/** @param {string} text @returns {string[]} runs of Chinese characters */
const hanRuns = (text) => text.match(/\p{Script=Han}+/gu) ?? []

/** @param {string[]} seq @param {number} n @returns {Set<string>} */
function grams(seq, n) {
  const out = new Set()
  for (let i = 0; i + n <= seq.length; i++) out.add(seq.slice(i, i + n).join(' '))
  return out
}

/** @param {string} text @param {number} n @returns {Set<string>} every n characters in a row of its Chinese runs */
function hanGrams(text, n) {
  return new Set(hanRuns(text).flatMap((run) => [...grams([...run], n)]))
}

/**
 * The ways a request could name a tool: the name itself, and its words (split at `_`, `-`, `.`
 * and camel case, a numeric suffix dropped) as a phrase, with and without a server's prefix
 * word (`mcp`, `howtocook`, `api`, `browser`, `airline`, `retail`, `telecom`) when two or more
 * words remain. A name of one word is matched as a whole word.
 * @param {string} name
 * @returns {RegExp[]}
 */
function namings(name) {
  const own = name.replace(/^mcp__[^_]+(?:_[^_]+)*?__/, '')
  const split = own.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean)
  while (split.length > 1 && /^\d+$/.test(split.at(-1) ?? '')) split.pop()
  const prefixes = new Set(['mcp', 'howtocook', 'api', 'browser', 'airline', 'retail', 'telecom'])
  let bare = split
  while (bare.length > 2 && prefixes.has(bare[0] ?? '')) bare = bare.slice(1)
  const phrases = new Set([split.join(' '), bare.join(' ')])
  const escape = (/** @type {string} */ s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return [new RegExp(`(^|[^a-z0-9_])${escape(own.toLowerCase())}($|[^a-z0-9_])`), ...[...phrases].map((phrase) => new RegExp(`(^|[^a-z0-9])${phrase.split(' ').map(escape).join('[^a-z0-9]+')}($|[^a-z0-9])`))]
}

const sets = evalSets()
const english = sets.find((set) => set.id === 'multistep-en')
if (english === undefined) throw new Error('pnpm eval has no multistep-en set')
const catalog = new Map(english.catalog.map((tool) => [tool.name, tool]))

/** @type {Line[]} */
const lines = readFileSync(FILE, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))
/** @type {string[]} */
const problems = []
/** @type {Map<string, Line[]>} */
const pairs = new Map()
const ids = new Set()
const queries = new Set()

for (const line of lines) {
  const where = line.id ?? JSON.stringify(line).slice(0, 60)
  if (Object.keys(line).sort().join() !== FIELDS.join()) problems.push(`${where}: fields must be ${FIELDS.join(', ')}`)
  if (line.id !== `${line.pair}-${line.lang}`) problems.push(`${where}: the id is not <pair>-<lang>`)
  if (ids.has(line.id)) problems.push(`${where}: a second line with this id`)
  ids.add(line.id)
  if (queries.has(line.query)) problems.push(`${where}: the same request twice`)
  queries.add(line.query)
  if (line.lang !== 'en' && line.lang !== 'zh') problems.push(`${where}: lang must be en or zh`)
  if (HAN.test(line.query) !== (line.lang === 'zh')) problems.push(`${where}: ${line.lang === 'zh' ? 'no' : 'has'} Chinese characters`)
  const wrong = stepsProblem(line.steps)
  if (wrong !== undefined) problems.push(`${where}: ${wrong}`)
  const query = String(line.query).toLowerCase()
  for (const name of wrong === undefined ? line.steps.flat() : []) {
    const tool = catalog.get(name)
    if (tool === undefined) {
      problems.push(`${where}: no tool ${name} in the catalog`)
      continue
    }
    if (namings(name).some((naming) => naming.test(query))) problems.push(`${where}: names ${name}`)
    const copied = [...grams(words(line.query), 4)].find((gram) => grams(words(tool.description), 4).has(gram))
      ?? [...hanGrams(line.query, 4)].find((gram) => hanGrams(tool.description, 4).has(gram))
    if (copied !== undefined) problems.push(`${where}: repeats the description of ${name} ("${copied.replaceAll(' ', line.lang === 'zh' && HAN.test(copied) ? '' : ' ')}")`)
  }
  pairs.set(line.pair, [...(pairs.get(line.pair) ?? []), line])
}

for (const [pair, both] of pairs) {
  if (both.map((line) => line.lang).sort().join() !== 'en,zh') problems.push(`${pair}: not one English and one Chinese request`)
  else if (JSON.stringify(both[0]?.steps) !== JSON.stringify(both[1]?.steps)) problems.push(`${pair}: the two languages have different steps`)
}

/** A line's steps when they keep the rules, else none, so the counts below skip a broken line. @param {Line} line */
const stepsOf = (line) => (stepsProblem(line.steps) === undefined ? line.steps : [])
const firsts = [...pairs.values()].flatMap(([line]) => (line === undefined ? [] : [line]))

/**
 * How many pairs have each value of a count, in ascending order of the value.
 * @param {(line: Line) => number} count
 */
function spread(count) {
  /** @type {Map<number, number>} */
  const sizes = new Map()
  for (const line of firsts) sizes.set(count(line), (sizes.get(count(line)) ?? 0) + 1)
  return [...sizes].sort(([a], [b]) => a - b).map(([size, pairCount]) => `${size}: ${pairCount}`).join(', ')
}

const held = [...pairs.keys()].filter(isHeldBack).length
/** @type {Map<string, number>} */
const prefixes = new Map()
for (const pair of pairs.keys()) {
  const prefix = pair.replace(/-\d+$/, '')
  prefixes.set(prefix, (prefixes.get(prefix) ?? 0) + 1)
}
const steps = firsts.reduce((sum, line) => sum + stepsOf(line).length, 0)
const labels = firsts.reduce((sum, line) => sum + stepsOf(line).flat().length, 0)
const alternatives = firsts.filter((line) => stepsOf(line).some((step) => step.length > 1)).length
console.log(`${pairs.size} pairs (${lines.length} requests): ${pairs.size - held} dev, ${held} held; ${(steps / pairs.size).toFixed(2)} steps and ${(labels / pairs.size).toFixed(2)} tools a request`)
console.log(`steps a request: ${spread((line) => stepsOf(line).length)}`)
console.log(`tools a request: ${spread((line) => stepsOf(line).flat().length)}; ${alternatives} pairs have a step served by more than one tool`)
console.log(`written for: ${[...prefixes].map(([prefix, count]) => `${prefix} ${count}`).join(', ')}`)
console.log(`tools named: ${new Set(firsts.flatMap((line) => stepsOf(line).flat())).size} of ${catalog.size}`)
for (const problem of problems) console.log(`  ${problem}`)
process.exitCode = problems.length === 0 ? 0 : 1
