// The scripted model of a measured session: it plays the session's plan (plan.mjs) from what
// each request shows it, as the profile E2E's scripted model does, so every request DSH sends is
// answered by what a model following the plan would say to exactly that request.
//
// The request tells it where it is (the last user message that starts a task, and the model's
// own replies since) and what it can call (the request's `tools`). A turn's target tool is
// called by its name when it is offered; through `call_tool` (the plugin's `loading: stable`)
// when only that is offered and the model has been told of the tool (its name in the
// conversation: a search result, a prefetch); otherwise the model searches first, once. A search
// that does not bring the target makes it call what the search ranked first, as a model makes do
// with what it found; such misses are counted.
import { completedCalls, contentText, offeredTools, parseJson } from '../../../e2e/lib/observe.mjs'
import { TASK_PREFIX } from './plan.mjs'
import { exampleArguments } from './targets.mjs'

/**
 * @typedef {import('./plan.mjs').SessionPlan} SessionPlan
 * @typedef {import('../../../e2e/lib/model-server.mjs').Reply} Reply
 * @typedef {import('../../../e2e/lib/model-server.mjs').ChatRequest} ChatRequest
 * @typedef {{searches: number, direct: number, viaCallTool: number, misses: {turn: number, target: string, called: string | null}[]}} PlayLog
 */

const TOOL_SEARCH = 'tool_search'
/** The plugin's generic runner under `loading: stable`. */
const CALL_TOOL = 'call_tool'

/**
 * How long the model takes before its first answer of a session. The plugin builds its index
 * when DSH assembles the first prompt, and a hybrid index loads its transformer vectors from the
 * vector cache on a background thread; a search ranks with the word table alone until they are
 * in place. A real model's first reply takes about this long anyway, and the wait makes the
 * first search rank as every later one does, whatever the machine's speed.
 */
export const FIRST_REPLY_DELAY_MS = 1500

/**
 * @param {SessionPlan} plan
 * @returns {{decide: (body: ChatRequest) => Reply, log: PlayLog}}
 */
export function scriptedModel(plan) {
  /** @type {PlayLog} */
  const log = { searches: 0, direct: 0, viaCallTool: 0, misses: [] }
  return {
    log,
    decide(body) {
      const { turn, replies, searched } = position(body)
      const planned = plan.turns[turn]
      const work = replies - (searched ? 1 : 0)
      const step = planned?.steps[work]
      if (planned === undefined || step === undefined) throw new Error(`the plan has no step ${work + 1} in turn ${turn + 1}`)
      const reply = step.target ? targetReply(body, planned, step.text, searched, turn, log) : { text: step.text, ...step.call && { toolCalls: [step.call] } }
      return turn === 0 && replies === 0 ? { ...reply, delayMs: FIRST_REPLY_DELAY_MS } : reply
    },
  }
}

/**
 * The turn a request is in (from 0), how many replies the model has given in it, and whether the
 * first of them called tool_search.
 * @param {ChatRequest} body
 */
export function position(body) {
  /** @type {any[]} */
  const messages = body.messages ?? []
  const start = messages.findLastIndex((message) => message.role === 'user' && taskNumber(contentText(message.content)) !== undefined)
  if (start === -1) throw new Error('the request has no task message')
  const turn = /** @type {number} */ (taskNumber(contentText(messages[start].content))) - 1
  const replies = messages.slice(start + 1).filter((message) => message.role === 'assistant')
  return { turn, replies: replies.length, searched: replies[0]?.tool_calls?.[0]?.function?.name === TOOL_SEARCH }
}

/** The number of the task a user message starts, if it starts one. @param {string} text */
function taskNumber(text) {
  const match = new RegExp(`^${TASK_PREFIX}(\\d+) of \\d+:`).exec(text)
  return match === null ? undefined : Number(match[1])
}

/**
 * The reply at a turn's target step: call the target, search for it, or make do.
 * @param {ChatRequest} body
 * @param {import('./plan.mjs').PlannedTurn} planned
 * @param {string} text
 * @param {boolean} searched
 * @param {number} turn
 * @param {PlayLog} log
 * @returns {Reply}
 */
function targetReply(body, planned, text, searched, turn, log) {
  const target = /** @type {import('./targets.mjs').Target} */ (planned.target)
  const args = target.arguments(/** @type {string} */ (planned.targetFile))
  const offered = new Set(offeredTools(body))
  if (offered.has(target.name)) {
    log.direct += 1
    return { text, toolCalls: [{ name: target.name, arguments: args }] }
  }
  if (offered.has(CALL_TOOL) && toldOf(body, target.name)) {
    log.viaCallTool += 1
    return { text, toolCalls: [{ name: CALL_TOOL, arguments: { name: target.name, arguments: args } }] }
  }
  if (!searched && offered.has(TOOL_SEARCH)) {
    log.searches += 1
    return { text: planned.searchText, toolCalls: [{ name: TOOL_SEARCH, arguments: { query: target.query } }] }
  }
  const found = lastSearchHit(body)
  const schema = (body.tools ?? []).find((/** @type {any} */ tool) => tool.function?.name === found)?.function?.parameters
  log.misses.push({ turn: turn + 1, target: target.name, called: found !== undefined && offered.has(found) ? found : null })
  return found !== undefined && offered.has(found) ? { text, toolCalls: [{ name: found, arguments: exampleArguments(schema) }] } : { text }
}

/**
 * Whether the conversation names the tool (a search result, a prefetch note): what a model knows
 * of a tool it is not offered natively.
 * @param {ChatRequest} body
 * @param {string} name
 */
function toldOf(body, name) {
  return (body.messages ?? []).some((/** @type {any} */ message) => message.role !== 'system' && contentText(message.content).includes(name))
}

/** The first tool the latest tool_search result lists. @param {ChatRequest} body */
function lastSearchHit(body) {
  const search = completedCalls(body).findLast((call) => call.name === TOOL_SEARCH)
  return search === undefined ? undefined : parseJson(search.result)?.tools?.[0]?.name
}
