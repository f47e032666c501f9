// One measured session: one `dsh --profile headless` run, the real CLI with its real DeepSeek
// adapter (DEEPSEEK_BASE_URL on the scripted model's loopback server), playing a whole plan.
// The first user message is the CLI's task; the session fixture plugin installed in the profile
// (session-plugin/) queues every later one as the turn before it closes, so all turns run in one
// process and one DSH session, as in an interactive session. Every request body DSH sends is kept
// by the loopback servers (e2e/lib/model-server.mjs, search-endpoint.mjs).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { startModelServer } from '../../../e2e/lib/model-server.mjs'
import { run, tail } from '../../../e2e/lib/processes.mjs'
import { PROFILE } from '../../../e2e/lib/profile.mjs'
import { scriptedModel } from './scripted-model.mjs'
import { startSearchEndpoint } from './search-endpoint.mjs'

/**
 * @typedef {import('./plan.mjs').SessionPlan} SessionPlan
 * @typedef {import('../../../e2e/lib/model-server.mjs').ChatRequest} ChatRequest
 * @typedef {import('../../../e2e/lib/model-server.mjs').Reply} Reply
 * @typedef {object} SessionRun
 * @property {ChatRequest[]} requests - the Agent's model requests, in order
 * @property {Reply[]} replies - the scripted model's answer to each
 * @property {ChatRequest[]} titleRequests - DSH's session-title side calls (no tools)
 * @property {unknown[]} searchRequests - DSH's web searches (Anthropic Messages bodies)
 * @property {import('./scripted-model.mjs').PlayLog} log
 * @property {number} ms - the dsh run's wall time
 */

/**
 * @param {object} session
 * @param {string} session.bin - the dsh command.
 * @param {NodeJS.ProcessEnv} session.env - the run's environment: DSH_HOME and the like.
 * @param {string} session.patch - the `--patch` layer (the HMR fix, MCP rows).
 * @param {string} session.workdir - where dsh runs; the plan's files are written here afresh.
 * @param {string} session.scriptFile - where the session fixture's script is written.
 * @param {SessionPlan} session.plan
 * @param {{name: string, description: string, parameters: object}[]} session.catalog - tools the
 *   fixture registers (the row's tools that are neither DSH's own nor an MCP server's).
 * @param {number} session.resultWords - filler words in a catalog tool's answer.
 * @param {number} session.timeoutMs
 * @returns {Promise<SessionRun>}
 * @throws when dsh fails, the scripted model had no answer, or the session stopped short.
 */
export async function runSession({ bin, env, patch, workdir, scriptFile, plan, catalog, resultWords, timeoutMs }) {
  rmSync(join(workdir, 'notes'), { recursive: true, force: true })
  for (const [path, text] of plan.files) {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, text)
  }
  const [first, ...later] = plan.turns
  if (first === undefined) throw new Error('a session needs at least one turn')
  writeFileSync(scriptFile, JSON.stringify({ followups: later.map((turn) => turn.user), catalog, resultWords }))
  const model = scriptedModel(plan)
  const server = await startModelServer(model.decide)
  const search = await startSearchEndpoint()
  let result
  try {
    result = await run(bin, ['--profile', PROFILE, '--patch', patch, first.user], {
      cwd: workdir,
      timeoutMs,
      env: {
        ...env,
        DEEPSEEK_BASE_URL: server.baseUrl,
        DEEPSEEK_SEARCH_BASE_URL: search.baseUrl,
        DEEPSEEK_API_KEY: 'scripted-model-needs-no-key',
        DSH_COST_SESSION: scriptFile,
      },
    })
  } finally {
    await Promise.all([server.close(), search.close()])
  }
  const why = result.timedOut ? `timed out after ${timeoutMs / 1000} s` : result.code !== 0 ? `exited with ${result.code ?? result.signal}` : undefined
  if (why !== undefined) throw new Error(`dsh ${why}\n${tail(result.stderr || result.stdout)}`)
  if (server.failures.length > 0) throw new Error(`the scripted model had no answer for request ${server.failures[0]?.request}: ${server.failures[0]?.message}`)
  const planned = plan.turns.reduce((sum, turn) => sum + turn.steps.length, 0)
  const answered = server.replies.filter((reply) => reply.toolCalls?.[0]?.name !== 'tool_search').length
  if (answered !== planned) throw new Error(`the session ran ${answered} of its ${planned} steps`)
  return { requests: server.agentRequests, replies: server.replies, titleRequests: server.titleRequests, searchRequests: search.requests, log: model.log, ms: result.ms }
}
