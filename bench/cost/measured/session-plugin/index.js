// A DSH plugin that turns one `dsh --profile headless "<task>"` run into a whole scripted
// session. The headless runner sends its task as one user message and exits when the Agent goes
// idle; DSH's loop starts another turn in the same run when a message waits in the Agent's inbox
// as the turn closes. So at every `agent/turn-stopping` this plugin queues the script's next user
// message with `agent.followup`, as a user typing the next request would, until the script has
// none left.
//
// It also registers the catalog of the benchmark row, if the row has one that is not an MCP
// server's: each tool answers with deterministic filler text of the script's result size.
//
// Everything comes from the JSON file named by DSH_COST_SESSION (the benchmark writes it); without
// it the plugin does nothing.
import { readFileSync } from 'node:fs'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { fillerText } from './filler.js'

export const name = 'dsh-cost-session'
export const inject = ['tools']

/**
 * @typedef {object} SessionScript
 * @property {string[]} followups - the user messages after the task, one a turn, in order.
 * @property {{name: string, description: string, parameters: object}[]} catalog - tools to register.
 * @property {number} resultWords - filler words in a catalog tool's result.
 */

export function apply(ctx) {
  const file = process.env.DSH_COST_SESSION
  if (!file) return
  /** @type {SessionScript} */
  const script = JSON.parse(readFileSync(file, 'utf8'))
  for (const tool of script.catalog) ctx.tools.register(catalogTool(tool, script.resultWords))

  let sent = 0
  /** The Agent the user talks to: the first whose turn closes (a headless run creates one). */
  let driven
  ctx.on('agent/turn-stopping', ({ agent }) => {
    driven ??= agent.id
    if (agent.id !== driven || sent >= script.followups.length) return
    const text = script.followups[sent++]
    agent.followup(createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }))
  })
}

/**
 * A registry definition for one catalog entry whose result is filler seeded by the call.
 * @param {{name: string, description: string, parameters: object}} entry
 * @param {number} words
 */
function catalogTool({ name, description, parameters }, words) {
  return {
    name,
    description,
    parameters,
    output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
    execute: async (args) => fillerText(`${name} ${JSON.stringify(args)}`, words),
  }
}
