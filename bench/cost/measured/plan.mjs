// One measured session, planned before it runs: the user's message of every turn, the tool each
// search turn needs, what the model writes at every step and the files it reads. The shape is the
// cost model's (bench/cost/parameters.mjs: a user message every `stepsPerTurn` steps, results and
// output of the sizes it names), so the measured and the modelled sessions do the same work.
//
// A turn is `stepsPerTurn` steps: tool calls, then an answer that ends the turn (as in the model,
// where a step's output is followed by the next step's result, and the last step of a turn by the
// next user message). A search turn's first call is its target tool; every other call reads a
// file of the working directory with DSH's `read`, a core tool offered in every column. Which
// search turns actually search is up to the scripted model (scripted-model.mjs): it searches only
// when the target is not offered yet.
import { join } from 'node:path'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { fillerText, fillerTokens } from './session-plugin/filler.js'

/**
 * @typedef {import('../session.mjs').SessionShape} SessionShape
 * @typedef {import('./targets.mjs').Target} Target
 * @typedef {import('./request-tokens.mjs').Tokenizer} Tokenizer
 * @typedef {{name: string, arguments: Record<string, unknown>}} Call
 * @typedef {{text: string, call?: Call, target?: true}} PlannedStep a step's output: prose and a
 *   call, the turn's target (its call is chosen when the step runs), or prose alone (the answer)
 * @typedef {object} PlannedTurn
 * @property {string} user - the user's message that starts it
 * @property {Target} [target] - the tool it needs
 * @property {string} [targetFile] - the file a call of the target may read
 * @property {string} searchText - the prose written with a tool_search call
 * @property {PlannedStep[]} steps
 * @typedef {{turns: PlannedTurn[], files: Map<string, string>}} SessionPlan
 */

/** Filler words in a file the model reads: with DSH's `read` framing (path, line numbers) about 1,000 tokens. */
export const READ_WORDS = 830
/** Filler words in a catalog tool's answer: 997 tokens (see filler.js). */
export const RESULT_WORDS = 950

/** What the user's messages start with; the scripted model finds the turn it is in by it. */
export const TASK_PREFIX = 'Task '

/**
 * @param {object} session
 * @param {SessionShape} session.shape
 * @param {readonly Target[]} session.targets - the search turns' tools, in order.
 * @param {string} session.workdir - where dsh runs, and the files are read from.
 * @param {Tokenizer} session.tokenizer
 * @returns {SessionPlan}
 */
export function sessionPlan({ shape, targets, workdir, tokenizer }) {
  const turnCount = Math.ceil(shape.steps / shape.stepsPerTurn)
  /** @type {Map<string, string>} */
  const files = new Map()
  const file = (/** @type {string} */ name) => {
    const path = join(workdir, 'notes', name)
    files.set(path, `${fillerText(name, READ_WORDS)}\n`)
    return path
  }
  const turns = Array.from({ length: turnCount }, (_, turn) => {
    const target = turn % shape.searchEveryTurns === 0 ? targets[turn / shape.searchEveryTurns] : undefined
    const stepCount = Math.min(shape.stepsPerTurn, shape.steps - turn * shape.stepsPerTurn)
    const need = target === undefined ? 'carry on with the notes in the working directory' : target.query
    const targetFile = target === undefined ? undefined : file(`turn-${turn + 1}-target.txt`)
    /** @type {PlannedStep[]} */
    const steps = Array.from({ length: stepCount }, (_, step) => {
      const seed = `turn ${turn + 1} step ${step + 1}`
      if (step === stepCount - 1) return { text: sized('', seed, shape.outputTokens, tokenizer) }
      if (step === 0 && target !== undefined) {
        const call = { name: target.name, arguments: target.arguments(/** @type {string} */ (targetFile)) }
        return { target: true, text: sized('', seed, shape.outputTokens - callTokens(call, tokenizer), tokenizer) }
      }
      const call = { name: 'read', arguments: { file_path: file(`turn-${turn + 1}-step-${step + 1}.txt`) } }
      return { call, text: sized('', seed, shape.outputTokens - callTokens(call, tokenizer), tokenizer) }
    })
    const searchCall = { name: 'tool_search', arguments: { query: target?.query ?? '' } }
    return {
      user: sized(`${TASK_PREFIX}${turn + 1} of ${turnCount}: ${need}.\n`, `user ${turn + 1}`, shape.userTokens, tokenizer),
      ...target === undefined ? {} : { target, targetFile: /** @type {string} */ (targetFile) },
      searchText: sized('', `search ${turn + 1}`, shape.searchCallTokens - callTokens(searchCall, tokenizer), tokenizer),
      steps,
    }
  })
  return { turns, files }
}

/**
 * What the model writes for one reply, in tokens: its text, and each call's name and arguments.
 * The same count bills the measured output (measure.mjs).
 * @param {{text?: string, toolCalls?: {name: string, arguments: unknown}[]}} reply
 * @param {Tokenizer} tokenizer
 */
export function replyTokens({ text = '', toolCalls = [] }, tokenizer) {
  return tokenizer.count(text) + toolCalls.reduce((sum, call) => sum + callTokens(call, tokenizer), 0)
}

/** @param {{name: string, arguments: unknown}} call @param {Tokenizer} tokenizer */
function callTokens({ name, arguments: args }, tokenizer) {
  return tokenizer.count(name) + tokenizer.count(JSON.stringify(args))
}

/**
 * `head` followed by filler, `tokens` tokens in all (`head` alone when it is that long already).
 * @param {string} head
 * @param {string} seed
 * @param {number} tokens
 * @param {Tokenizer} tokenizer
 */
function sized(head, seed, tokens, tokenizer) {
  const text = (/** @type {number} */ words) => `${head}${fillerText(seed, words)}`
  let words = 0
  while (fillerTokens(words + 1) <= tokens - tokenizer.count(head)) words += 1
  // The filler's first word may merge with the head's last character; settle on the exact count
  // (counted without the tokenizer's memo, which keeps only texts that are sent).
  while (words > 0 && countTokens(text(words)) > tokens) words -= 1
  while (countTokens(text(words + 1)) <= tokens) words += 1
  return text(words)
}
