/**
 * Writes fuzz/sessions/*.json: the events of real DSH sessions (the harness of __test__, real DSH
 * packages, a scripted model) in which tool_search succeeds, fails, runs inside run_code and sits
 * beside other tools. They seed the replay fuzz target with the shapes DSH really logs.
 * Run: node --experimental-transform-types fuzz/capture-sessions.ts
 */

import { writeFileSync } from 'node:fs'
import { createHarness } from '../__test__/support/harness.ts'
import { reply, toolCall, toolCalls } from '../__test__/support/scripted-model.ts'

const out = new URL('./sessions/', import.meta.url)

async function native(): Promise<readonly unknown[]> {
  const harness = await createHarness()
  try {
    const { agent } = await harness.agent('native')
    await harness.run(agent, 'find weather and mail tools',
      toolCalls(
        { id: 'c1', name: 'tool_search', args: { query: 'weather forecast', limit: 2 } },
        { id: 'c2', name: 'tool_search', args: { query: '' } },
      ),
      toolCall('c3', 'tool_search', { query: 'select:mcp__mail__send_email,mcp__github__create_issue' }),
      toolCall('c4', 'bash', { command: 'ls' }),
      toolCall('c5', 'tool_search', { query: 'weather', limit: 50 }),
      reply('done'))
    return agent.session.events
  } finally {
    await harness.close()
  }
}

async function code(): Promise<readonly unknown[]> {
  const harness = await createHarness({ mode: 'code' })
  try {
    const { agent } = await harness.agent('code')
    await harness.run(agent, 'weather in Paris?',
      toolCall('c1', 'run_code', {
        code: 'const found = await tools.tool_search({ query: "weather forecast" }); '
          + 'try { await tools.tool_search({ query: "" }) } catch {} return found.tools.map(t => t.name)',
        description: 'search inside a program',
      }),
      reply('sunny'))
    return agent.session.events
  } finally {
    await harness.close()
  }
}

for (const [name, capture] of [['native', native], ['code', code]] as const) {
  const events = await capture()
  writeFileSync(new URL(`${name}.json`, out), `${JSON.stringify(events, null, 1)}\n`)
  console.log(`fuzz/sessions/${name}.json: ${events.length} events`)
}
