// What the cost model (bench/cost/) says the measured sessions cost: the same rows, the same
// session shape and lengths, computed from the recorded token table alone. The measured section
// keeps these figures beside its own, and `pnpm run benchmark:check` recomputes them, so the
// comparison docs/benchmark.md prints always follows from the token table it names.
import { isDeepStrictEqual } from 'node:util'
import { bill } from '../billing.mjs'
import { toolSurface } from '../cost.mjs'
import { sessionRequests } from '../session.mjs'

/**
 * @typedef {import('../cost.mjs').TokenTable} TokenTable
 * @typedef {import('../parameters.mjs').CostParameters} CostParameters
 * @typedef {{all: number, deferred: number, prefetch: number, searches: number, breaks: number}} ModelledSession
 */

const round = (/** @type {number} */ dollars) => Math.round(dollars * 1e8) / 1e8 + 0

/**
 * The modelled cost of one row's session of `steps` steps, with every tool offered, deferred,
 * and deferred with the parameters' prefetch; and how many searches the deferred session makes,
 * and how many of its requests offer other tools than the request before (cache breaks).
 * @param {TokenTable['rows'][number]} row
 * @param {Pick<CostParameters, 'prices' | 'session' | 'prefetch'>} parameters
 * @param {number} steps
 * @returns {ModelledSession}
 */
export function modelledSession(row, { prices, session, prefetch }, steps) {
  const shape = { ...session, steps }
  const surface = toolSurface(row)
  const total = (/** @type {import('../session.mjs').Arm} */ arm) => bill(sessionRequests(shape, surface, arm), prices).reduce((sum, request) => sum + request.cost, 0)
  const deferred = sessionRequests(shape, surface, { defer: true, prefetch: 0 })
  return {
    all: round(total({ defer: false })),
    deferred: round(total({ defer: true, prefetch: 0 })),
    prefetch: round(total({ defer: true, prefetch })),
    searches: deferred.filter((request) => request.outputTokens === session.searchCallTokens).length,
    breaks: deferred.filter((request, i) => i > 0 && request.toolsVersion !== deferred[i - 1]?.toolsVersion).length,
  }
}

/**
 * Whether the modelled figures a measured section records follow from the token table.
 * @param {TokenTable} tokens
 * @param {{parameters: Pick<CostParameters, 'prices' | 'session' | 'prefetch'>, rows: {id: string, sessions: {steps: number, modelled: ModelledSession}[]}[]} | undefined} measured
 * @returns {string[]} the problems found, empty when they do (or when nothing was measured).
 */
export function checkModelledFigures(tokens, measured) {
  if (measured === undefined) return []
  const problems = []
  for (const row of measured.rows) {
    const tokenRow = tokens.rows.find((candidate) => candidate.id === row.id)
    if (tokenRow === undefined) {
      problems.push(`the measured-cost row ${row.id} is not in the token table`)
      continue
    }
    for (const session of row.sessions) {
      if (!isDeepStrictEqual(modelledSession(tokenRow, measured.parameters, session.steps), session.modelled)) {
        problems.push(`the modelled figures of the measured-cost row ${row.id}, ${session.steps} steps, do not follow from the token table; run \`pnpm benchmark --measured-cost\``)
      }
    }
  }
  return problems
}

/**
 * A recorded measured section with its modelled figures computed again from `tokens`: after the
 * token table is measured again (`pnpm benchmark --tokens`) the comparison follows the new table.
 * The measured figures themselves stay as they were measured.
 * @template {{parameters: Pick<CostParameters, 'prices' | 'session' | 'prefetch'>, rows: {id: string, sessions: {steps: number, modelled: ModelledSession}[]}[]}} Measured
 * @param {TokenTable} tokens
 * @param {Measured | undefined} measured
 * @returns {Measured | undefined}
 */
export function withModelledFigures(tokens, measured) {
  if (measured === undefined) return undefined
  return {
    ...measured,
    rows: measured.rows.map((row) => {
      const tokenRow = tokens.rows.find((candidate) => candidate.id === row.id)
      return tokenRow === undefined ? row : { ...row, sessions: row.sessions.map((session) => ({ ...session, modelled: modelledSession(tokenRow, measured.parameters, session.steps) })) }
    }),
  }
}
