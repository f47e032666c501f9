// A scripted OpenAI-compatible chat-completions endpoint on 127.0.0.1 that
// stands in for the model. DSH streams (`stream: true`), so every answer is an
// SSE stream of chat.completion.chunk lines ending with `data: [DONE]`.
//
// The server records every request and asks `decide(request)` what the model
// says next. Requests that offer no tools are DSH's session-title
// side-calls: they are recorded apart and answered with plain text, so the
// scripted turns count only the agent's own model calls.
import { createServer } from 'node:http'

/**
 * @typedef {{text?: string, toolCalls?: {name: string, arguments: unknown}[], delayMs?: number}} Reply
 *   what the model says next: text, tool calls, or text and then tool calls; `delayMs` holds the
 *   answer back that long, as a real model takes time before its first token
 * @typedef {Record<string, any>} ChatRequest a chat-completions request body, as DSH sent it
 */

/**
 * @param {(request: ChatRequest) => Reply} decide
 *   a throw is recorded in `failures` and answered with an explanatory text.
 */
export async function startModelServer(decide) {
  /** @type {ChatRequest[]} */
  const agentRequests = []
  /** @type {Reply[]} */
  const replies = []
  /** @type {ChatRequest[]} */
  const titleRequests = []
  /** @type {{request: number, message: string}[]} */
  const failures = []
  let callIds = 0

  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { message: `scripted model serves only POST /v1/chat/completions, not ${req.method} ${req.url}` } }))
      return
    }
    let body
    try {
      body = JSON.parse(await readBody(req))
    } catch (error) {
      res.writeHead(400).end(String(error))
      return
    }
    const isTitle = !Array.isArray(body.tools) || body.tools.length === 0
    /** @type {Reply} */
    let reply
    if (isTitle) {
      titleRequests.push(body)
      reply = { text: 'Scripted E2E session' }
    } else {
      const request = agentRequests.push(body)
      try {
        reply = decide(body)
      } catch (error) {
        const { message } = /** @type {Error} */ (error)
        failures.push({ request, message })
        reply = { text: `scripted model has no answer for request ${request}: ${message}` }
      }
      replies.push(reply)
    }
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs))
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'close' })
    for (const chunk of sseChunks(body.model, reply, () => `call_e2e_${++callIds}`)) {
      res.write(`data: ${JSON.stringify(chunk)}\n\n`)
    }
    res.end('data: [DONE]\n\n')
  })

  await /** @type {Promise<void>} */ (new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  }))
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    agentRequests,
    replies,
    titleRequests,
    failures,
    close: () => /** @type {Promise<void>} */ (new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })),
  }
}

/**
 * @param {import('node:http').IncomingMessage} req
 * @returns {Promise<string>}
 */
function readBody(req) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const parts = []
    req.on('data', (part) => parts.push(part))
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    req.on('error', reject)
  })
}

/**
 * The chunks of one streamed answer: text, tool calls with whole arguments, or both.
 * @param {string} model
 * @param {Reply} reply
 * @param {() => string} nextCallId
 */
function* sseChunks(model, reply, nextCallId) {
  const base = { id: 'chatcmpl-e2e', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model }
  const choice = (/** @type {object} */ delta, /** @type {string | null} */ finish) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })
  yield choice({ role: 'assistant', content: '' }, null)
  if (reply.toolCalls?.length) {
    if (reply.text) yield choice({ content: reply.text }, null)
    for (const [index, call] of reply.toolCalls.entries()) {
      yield choice({
        tool_calls: [{
          index,
          id: nextCallId(),
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        }],
      }, null)
    }
    yield choice({}, 'tool_calls')
  } else {
    yield choice({ content: reply.text ?? '' }, null)
    yield choice({}, 'stop')
  }
  yield { ...base, choices: [], usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } }
}
