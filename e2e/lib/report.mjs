// Check bookkeeping and the per-request summary that goes into the report.
import { FIXTURE_TOOLS } from './scenarios.mjs'
import { mentions, offeredTools, sdkSection, systemPrompt } from './observe.mjs'

export class Checks {
  list = []

  /** Record one verdict with what was expected and what was observed. */
  add(name, pass, details = {}) {
    this.list.push({ name, pass: Boolean(pass), ...details })
  }

  get failed() {
    return this.list.filter((check) => !check.pass)
  }
}

/** One line per model request: what the model was offered, and what it answered. */
export function summarizeRequests(requests, replies) {
  return requests.map((body, index) => {
    const tools = offeredTools(body)
    const prompt = systemPrompt(body)
    const sdk = sdkSection(prompt)
    return {
      request: index + 1,
      toolCount: tools.length,
      tools,
      fixtureToolsOffered: FIXTURE_TOOLS.filter((name) => tools.includes(name)),
      systemPromptChars: prompt.length,
      ...(sdk && {
        sdk: {
          chars: sdk.text.length,
          declaredCount: sdk.declared.length,
          declared: sdk.declared,
          fixtureMentions: mentions(sdk.text, FIXTURE_TOOLS),
        },
      }),
      reply: replies[index]?.toolCalls
        ? { toolCalls: replies[index].toolCalls.map((call) => ({ name: call.name, arguments: call.arguments })) }
        : { text: replies[index]?.text },
    }
  })
}
