// What tool_search decides for a query, asked of the core as the plugin asks it: with the
// plugin's own parameters (the weak-match floor, and the leader share under the loading given).
import { searchRules } from '../../dist/search/answer.js'
import { usage } from './args.js'

/**
 * @param {string} command for messages
 * @param {import('../../index.js').ToolIndex} index
 * @param {string} query
 * @param {{ limit: number, exclude?: string[], loading: string }} asked
 * @returns {Promise<import('../../index.js').SearchDecision>}
 */
export async function decision(command, index, query, { limit, exclude = [], loading }) {
  try {
    return await index.decideAsync(query, limit, { exclude, ...searchRules(loading === 'stable') })
  } catch (error) {
    throw refusal(command, error)
  }
}

/**
 * What the core threw, as a usage error when it refused an argument (a `discover:` with nothing
 * after it, a name past its bound); anything else as it is.
 * @param {string} command
 * @param {unknown} error
 */
export function refusal(command, error) {
  return error instanceof Error && /** @type {{ code?: unknown }} */ (error).code === 'InvalidArg' ? usage(command, error.message) : error
}
