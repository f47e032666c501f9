// Reads what DSH actually sent the model: the offered tool names, the system
// prompt, the generated Code Mode SDK, and the tool results in the history.

// Each reader accepts a missing request (a run that stopped early) and then
// reports nothing, so checks can fail on the absence instead of throwing.

/**
 * @typedef {import('./model-server.mjs').ChatRequest} ChatRequest
 */

/**
 * Names of the tools offered natively in one chat-completions request.
 * @param {ChatRequest | undefined} body
 * @returns {string[]}
 */
export function offeredTools(body) {
  return (body?.tools ?? []).map((/** @type {any} */ tool) => tool.function?.name ?? tool.name)
}

/**
 * The whole system prompt of one request (all system messages).
 * @param {ChatRequest | undefined} body
 * @returns {string}
 */
export function systemPrompt(body) {
  return (body?.messages ?? []).filter((/** @type {any} */ message) => message.role === 'system').map((/** @type {any} */ message) => contentText(message.content)).join('\n\n')
}

/**
 * A message's text, whether the content is a string or a list of parts.
 * @param {any} content
 * @returns {string}
 */
export function contentText(content) {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((/** @type {any} */ part) => (typeof part === 'string' ? part : part.text ?? '')).join('')
  return ''
}

/**
 * Every tool call in the request's history that already has its result, in
 * order: `{name, arguments, result}` with the arguments parsed.
 * @param {ChatRequest | undefined} body
 * @returns {{name: string, arguments: any, result: string}[]}
 */
export function completedCalls(body) {
  const messages = body?.messages ?? []
  const results = new Map()
  for (const message of messages) {
    if (message.role === 'tool') results.set(message.tool_call_id, contentText(message.content))
  }
  const calls = []
  for (const message of messages) {
    for (const call of message.role === 'assistant' ? message.tool_calls ?? [] : []) {
      if (!results.has(call.id)) continue
      calls.push({ name: call.function.name, arguments: parseJson(call.function.arguments), result: results.get(call.id) })
    }
  }
  return calls
}

/**
 * @param {string} text
 * @returns {any} the parsed value, undefined when `text` is not JSON.
 */
export function parseJson(text) {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

// rc.8's renderToolsSdk (dsh-tools ts-types): the `tools:sdk` section opens
// with this heading and declares each tool as a member of ToolArgsMap.
const SDK_HEADING = '## Writing code for run_code'
const ARGS_MAP = 'interface ToolArgsMap {'
const MEMBER = /^ {2}(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_$][\w$]*)): /gm

/**
 * The `tools:sdk` section of a system prompt: its text (heading through the
 * closing code fence) and the tool names it declares, or undefined if absent.
 * @param {string} prompt
 * @returns {{text: string, declared: string[]} | undefined}
 */
export function sdkSection(prompt) {
  const start = prompt.indexOf(SDK_HEADING)
  if (start < 0) return undefined
  const fence = prompt.indexOf('```ts', start)
  const close = fence < 0 ? -1 : prompt.indexOf('\n```', fence + 5)
  const text = prompt.slice(start, close < 0 ? undefined : close + 4)
  const mapStart = text.indexOf(ARGS_MAP)
  const mapEnd = mapStart < 0 ? -1 : text.indexOf('\n}', mapStart)
  const declared = []
  if (mapEnd >= 0) {
    for (const match of text.slice(mapStart, mapEnd).matchAll(MEMBER)) {
      declared.push(match[1] === undefined ? match[2] : JSON.parse(`"${match[1]}"`))
    }
  }
  return { text, declared }
}

/**
 * Which of `names` occur in `text` as whole identifiers.
 * @param {string} text
 * @param {readonly string[]} names
 */
export function mentions(text, names) {
  return names.filter((name) => new RegExp(`(?<![\\w$])${escapeRegExp(name)}(?![\\w$])`).test(text))
}

/** @param {string} text */
function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * A prompt without the catalog outline that ends tool_search's description, which names deferred
 * tools on purpose (in the Code Mode SDK it runs to the end of that JSDoc comment or line).
 * @param {string} text
 */
export function withoutOutline(text) {
  return text.replace(/Deferred tools, installed and loaded by tool_search[^\n]*?(?=\*\/|\n|$)/g, '')
}
