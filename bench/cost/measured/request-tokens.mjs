// A chat-completions request body, as DSH's DeepSeek adapter sent it, laid out the way DeepSeek
// reads it and cut into segments of o200k_base tokens (gpt-tokenizer; DeepSeek's own tokenizer is
// not public as a package, and the token table counts in o200k too).
//
// The layout is [system prompt][tools][conversation]: the adapter's `serializeRequest` sends the
// system prompt as the first message and the tools in the `tools` field, and DeepSeek's encoding
// writes the tool schemas after the system prompt, before the first user message (see
// bench/cost/billing.mjs). One segment is the system text, one each tool's JSON as sent, one each
// message: a line with its role, its text, and each tool call's name and arguments. A chat
// template's own markers between messages are a few special tokens each; a role line stands in
// for them.
import { encode } from 'gpt-tokenizer/encoding/o200k_base'
import { contentText } from '../../../e2e/lib/observe.mjs'

/** @typedef {import('../../../e2e/lib/model-server.mjs').ChatRequest} ChatRequest */

/**
 * Tokenizes texts once: the requests of a session repeat almost everything the one before sent,
 * and the same array for the same text lets prefix-cache.mjs compare segments by identity first.
 */
export class Tokenizer {
  /** @type {Map<string, number[]>} */
  #memo = new Map()

  /** @param {string} text */
  tokens(text) {
    let tokens = this.#memo.get(text)
    if (tokens === undefined) {
      tokens = encode(text)
      this.#memo.set(text, tokens)
    }
    return tokens
  }

  /** @param {string} text */
  count(text) {
    return this.tokens(text).length
  }
}

/**
 * The request's token sequence in segments, and how many of its tokens are the tools.
 * @param {ChatRequest} body
 * @param {Tokenizer} tokenizer
 * @returns {{segments: number[][], toolsTokens: number}}
 */
export function requestSegments(body, tokenizer) {
  /** @type {{role: string}[]} */
  const messages = body.messages ?? []
  const system = messages.filter((message) => message.role === 'system').map((message) => contentText(/** @type {any} */ (message).content)).join('\n\n')
  const tools = (body.tools ?? []).map((/** @type {unknown} */ tool) => tokenizer.tokens(JSON.stringify(tool)))
  const conversation = messages.filter((message) => message.role !== 'system').map((message) => tokenizer.tokens(messageText(message)))
  return {
    segments: [tokenizer.tokens(system), ...tools, ...conversation],
    toolsTokens: tools.reduce((/** @type {number} */ sum, /** @type {number[]} */ tool) => sum + tool.length, 0),
  }
}

/**
 * A model's reply as the request after it carries it: an assistant message with its text and
 * calls (DSH sends the calls' arguments as the model streamed them, JSON.stringify here).
 * @param {{text?: string, toolCalls?: {name: string, arguments: unknown}[]}} reply
 * @param {Tokenizer} tokenizer
 */
export function replySegment({ text = '', toolCalls = [] }, tokenizer) {
  const calls = toolCalls.map((call) => ({ function: { name: call.name, arguments: JSON.stringify(call.arguments) } }))
  return tokenizer.tokens(messageText({ role: 'assistant', content: text, tool_calls: calls }))
}

/**
 * One message as the model reads it: its role, its text, and its tool calls.
 * @param {any} message - a chat-completions message.
 */
export function messageText(message) {
  const calls = (message.tool_calls ?? []).map((/** @type {{function: {name: string, arguments: string}}} */ call) => `\n${call.function.name}\n${call.function.arguments}`)
  return `${message.role}\n${contentText(message.content)}${calls.join('')}`
}
