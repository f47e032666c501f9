// Real tool catalogs for benchmarks: the BFCL dev catalog, grown past its 1,437 tools with renamed
// copies so larger sizes keep real text and real schemas.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * @typedef {{name: string, description: string, parameters: Record<string, unknown>}} Tool one catalog entry
 * @typedef {{id: string, query: string, relevant: string[]}} Request one labelled request
 */

const data = fileURLToPath(new URL('../data/bfcl/', import.meta.url))

/** @returns {Tool[]} */
export function devCatalog() {
  return JSON.parse(readFileSync(`${data}bfcl-catalog.json`, 'utf8'))
}

/** @returns {Request[]} */
export function devQueries() {
  return readFileSync(`${data}bfcl-dev-queries.jsonl`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
}

/**
 * The first `size` tools of the dev catalog repeated as needed; copy k is named `<name>_copy<k>`.
 * @param {number} size
 * @returns {Tool[]}
 */
export function catalogOfSize(size, base = devCatalog()) {
  return Array.from({ length: size }, (_, i) => {
    const tool = /** @type {Tool} */ (base[i % base.length])
    const copy = Math.floor(i / base.length)
    return copy === 0 ? tool : { ...tool, name: `${tool.name}_copy${copy}` }
  })
}
