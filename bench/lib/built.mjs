// The plugin as built at the repository root (dist/, `pnpm run build:plugin`), which the scripts
// measure: one of its modules, and the query the plugin makes of a request's text.
import { pathToFileURL } from 'node:url'
import { repoPath } from './repo.mjs'

/**
 * A module of the built plugin, or an error that says how to build it.
 * @param {string} file - relative to dist/, such as `search/answer.js`.
 * @returns {Promise<any>}
 */
export async function built(file) {
  try {
    return await import(pathToFileURL(repoPath(`dist/${file}`)).href)
  } catch (error) {
    throw new Error(`the built plugin is missing; run \`pnpm run build:plugin\` first (${/** @type {Error} */ (error).message})`)
  }
}

const { MAX_QUERY_CHARS } = await built('contract.js')

/**
 * A request's text as a query: its first MAX_QUERY_CHARS characters (code points, the plugin's
 * bound), trimmed.
 * @param {string} text
 */
export function queryOf(text) {
  return [...text].slice(0, MAX_QUERY_CHARS).join('').trim()
}
