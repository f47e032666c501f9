// Every labelled set a measurement of requests against catalogs can read: the two in bench/data
// (BFCL dev, BFCL live) and, when present, the lab's sets (--sets <dir>, default
// /work/lab/exp/sets: one folder per set with catalog.json and queries.jsonl whose lines carry
// a `part`, dev or held). A lab set with the same catalog as a bench/data one is not read twice:
// its part labels go to the bench/data copy instead. Read-only.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isHeldBack } from './eval-metrics.mjs'

const data = fileURLToPath(new URL('../data/', import.meta.url))
export const DEFAULT_SETS = '/work/lab/exp/sets'

/**
 * @typedef {{id: string, query: string, relevant: string[], part: 'dev' | 'held'}} LabelledRequest
 * @typedef {{id: string, catalogJson: string, requests: LabelledRequest[]}} EvalSource
 */

/**
 * @param {string} [setsDir] - the lab's sets; skipped when the folder does not exist.
 * @returns {EvalSource[]}
 */
export function evalSources(setsDir = DEFAULT_SETS) {
  /** @type {EvalSource[]} */
  const sources = [
    bench('bfcl', 'bfcl/bfcl-catalog.json', 'bfcl/bfcl-dev-queries.jsonl', (id) => (isHeldBack(id) ? 'held' : 'dev')),
    bench('bfcl-live', 'bfcl-live/bfcl-live-catalog.json', 'bfcl-live/bfcl-live-queries.jsonl', () => 'held'),
  ]
  if (!existsSync(setsDir)) return sources
  for (const name of readdirSync(setsDir).sort()) {
    const dir = join(setsDir, name)
    if (!existsSync(join(dir, 'catalog.json')) || !existsSync(join(dir, 'queries.jsonl'))) continue
    const catalogJson = readFileSync(join(dir, 'catalog.json'), 'utf8')
    /** @type {LabelledRequest[]} */
    const requests = lines(join(dir, 'queries.jsonl')).map((request) => ({ id: request.id, query: request.query, relevant: request.relevant, part: request.part === 'dev' ? 'dev' : 'held' }))
    const twin = sources.find((source) => sameCatalog(source.catalogJson, catalogJson))
    if (twin === undefined) {
      sources.push({ id: name, catalogJson, requests })
      continue
    }
    /** @type {Map<string, 'dev' | 'held'>} */
    const parts = new Map(requests.map((request) => [request.id, request.part]))
    twin.requests = twin.requests.map((request) => ({ ...request, part: parts.get(request.id) ?? request.part }))
  }
  return sources
}

/**
 * @param {string} id @param {string} catalog @param {string} queries
 * @param {(id: string) => 'dev' | 'held'} part
 * @returns {EvalSource}
 */
function bench(id, catalog, queries, part) {
  const requests = lines(`${data}${queries}`).map((request) => ({ id: request.id, query: request.query, relevant: request.relevant, part: part(request.id) }))
  return { id, catalogJson: readFileSync(`${data}${catalog}`, 'utf8'), requests }
}

/** @param {string} file */
function lines(file) {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))
}

/** Whether two catalog files hold the same JSON, however they are spaced. */
function sameCatalog(/** @type {string} */ a, /** @type {string} */ b) {
  const hash = (/** @type {string} */ text) => createHash('sha256').update(JSON.stringify(JSON.parse(text))).digest('hex')
  return hash(a) === hash(b)
}
