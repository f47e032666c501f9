// Emulated: what DSH 0.1.7 sends a route that keeps the prompt prefix when the tools change, for
// a session whose request bodies the real DSH 0.1.0-rc.8 sent. The route is the default catalog's
// `deepseek-flash` (`toolUpdate: 'addition-only'`, `systemPromptUpdate: 'in-history'`;
// zsagi1368/deepseek-harness-zDSH packages/llm/llm-deepseek/src/models.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e).
// Sources of what changes (docs/dsh-versions.md, "PTC", lists them too):
// - the agent loop logs, when a request's tools name a tool the request before did not, a
//   developer message of `tool-addition` blocks after the conversation so far, and the header
//   that redeclares a kept tool with another definition starts a new declaration series
//   (packages/core/session/src/tool-history.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e);
// - `projectToolUpdates` (packages/llm/llm/src/content.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68)
//   declares the series' first tools as they are and every later addition deferred, keeps on an
//   `addition-only` route only the tools still offered, and keeps an addition block only for a
//   declared tool;
// - the DeepSeek serializer (packages/llm/llm-deepseek/src/serialize.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e)
//   sends deferred tools with `defer_loading` and developer messages as system messages in the
//   history, and with `systemPromptUpdate: 'in-history'` a changed system prompt goes there too.
//
// Assumed, as no source says how DeepSeek reads it: a deferred declaration is read where its
// addition stands in the conversation (as Anthropic's `defer_loading` tools are), so it costs
// its schema there and not at the head of the prompt. A changed system prompt is sent whole at
// its place. The requests keep rc.8's content otherwise (its messages, its tool JSON), laid out
// and billed as the measured sessions are (measured/request-tokens.mjs, measured/session-bill.mjs).

/**
 * @typedef {import('../../e2e/lib/model-server.mjs').ChatRequest} ChatRequest
 * @typedef {{function?: {name?: string}, name?: string}} SentTool
 * @typedef {{at: number, role: string, content: string, names: string[]}} Inserted a message
 *   the 0.1.7 history holds beside rc.8's: after `at` conversation messages
 */

/** The role the emulated history messages are laid out with: kept in the conversation, not the head. */
export const HISTORY_ROLE = 'developer'

/** @param {SentTool} tool */
const nameOf = (tool) => String(tool.function?.name ?? tool.name ?? '')

/** @param {ChatRequest} body */
const systemOf = (body) => (body.messages ?? []).filter((/** @type {{role: string}} */ message) => message.role === 'system')
/** @param {ChatRequest} body */
const conversationOf = (body) => (body.messages ?? []).filter((/** @type {{role: string}} */ message) => message.role !== 'system')

/**
 * A session's request bodies as DSH 0.1.7 would send them to a `deepseek-flash` route.
 * @param {readonly ChatRequest[]} requests - rc.8's, in order.
 * @returns {ChatRequest[]}
 */
export function projectToFlash(requests) {
  /** @type {Map<string, SentTool>} the series' first tools, by name, in order */
  let baseline = new Map()
  /** @type {Inserted[]} */
  let history = []
  /** @type {Map<string, string> | undefined} the previous request's tools, as JSON */
  let previous
  /** @type {string | undefined} */
  let previousSystem
  let headSystem = /** @type {unknown[]} */ ([])
  return requests.map((body) => {
    /** @type {SentTool[]} */
    const tools = body.tools ?? []
    const json = new Map(tools.map((tool) => [nameOf(tool), JSON.stringify(tool)]))
    const conversation = conversationOf(body)
    const system = JSON.stringify(systemOf(body))
    if (previous === undefined || [...json].some(([name, text]) => previous?.has(name) === true && previous.get(name) !== text)) {
      // A new declaration series: its tools are the baseline, and no earlier update governs it.
      baseline = new Map(tools.map((tool) => [nameOf(tool), tool]))
      history = history.filter((message) => message.names.length === 0)
    } else {
      const added = tools.filter((tool) => !previous?.has(nameOf(tool)))
      if (added.length > 0) {
        history.push({ at: conversation.length, role: HISTORY_ROLE, names: added.map(nameOf), content: added.map((tool) => JSON.stringify(tool)).join('\n') })
      }
    }
    if (previousSystem === undefined) headSystem = systemOf(body)
    else if (system !== previousSystem) {
      history.push({ at: conversation.length, role: HISTORY_ROLE, names: [], content: systemOf(body).map((/** @type {{content: unknown}} */ message) => JSON.stringify(message.content)).join('\n') })
    }
    previous = json
    previousSystem = system
    // Addition-only: a tool no longer offered loses its declaration, and with it the addition
    // block that activated it.
    const active = new Set(json.keys())
    const updates = history.flatMap((message) => {
      if (message.names.length === 0) return [message]
      const kept = message.names.filter((name) => active.has(name) && !baseline.has(name))
      return kept.length === 0 ? [] : [{ ...message, content: kept.map((name) => json.get(name)).join('\n') }]
    })
    return { ...body, messages: [...headSystem, ...interleave(conversation, updates)], tools: [...baseline.values()].filter((tool) => active.has(nameOf(tool))) }
  })
}

/**
 * The conversation with the history's own messages at their places.
 * @param {readonly unknown[]} conversation
 * @param {readonly Inserted[]} updates
 */
function interleave(conversation, updates) {
  /** @type {unknown[]} */
  const out = []
  for (let i = 0; i <= conversation.length; i++) {
    for (const update of updates) if (update.at === i) out.push({ role: update.role, content: update.content })
    if (i < conversation.length) out.push(conversation[i])
  }
  return out
}
