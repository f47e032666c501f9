// DSH 0.1.7's own deferral (`deferLoading: true` on a tool schema) and this plugin's offer. A
// `deferLoading` tool in a header that starts a declaration series is never activated, so the
// plugin offers such a tool only as an addition to the request before, and passes every schema
// it offers on unchanged. rc.8's registry writes no `deferLoading`; an inner assembly listener
// marks the schemas as 0.1.7's would (emulated: zsagi1368/deepseek-harness-zDSH
// packages/llm/llm/src/types.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e, `ToolSchema.deferLoading`).
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { Context } from '@deepseek-ai/cordis'
import { describe, expect, it } from 'vitest'
import { AgentRecord } from '../../plugin/host/agent-record.ts'
import { admitOffered } from '../../plugin/host/dsh/defer-loading.ts'
import { AgentState } from '../../plugin/selection/agent-state.ts'
import { NATIVE } from '../support/harness.ts'
import { perTest } from '../support/per-test.ts'
import { reply, toolCall } from '../support/scripted-model.ts'

const WEATHER = 'mcp__weather__forecast'

const scope = perTest()

const schema = (name: string, deferLoading = false, description = name) =>
  ({ name, description, parameters: { type: 'object' }, ...(deferLoading ? { deferLoading: true as const } : {}) })

describe('the declaration series', () => {
  const record = (): AgentRecord => new AgentRecord({} as Agent, new AgentState({ selected: [], prefetched: [], dropped: [] }))

  it('holds a deferLoading tool back from an Agent\'s first request, and lets it join the next as an addition', () => {
    const series = record()
    const first = [schema('read'), schema('later', true)]
    expect(admitOffered(series, first).map(tool => tool.name)).toEqual(['read'])
    const second = [schema('read'), schema('later', true)]
    const admitted = admitOffered(series, second)
    expect(admitted).toBe(second)
    expect(admitted[1]).toBe(second[1])
  })

  it('holds it back again where a kept tool is redeclared, and lets through a request that has none', () => {
    const series = record()
    admitOffered(series, [schema('read')])
    admitOffered(series, [schema('read'), schema('later', true)])
    expect(admitOffered(series, [schema('read', false, 'new text'), schema('later', true)]).map(tool => tool.name)).toEqual(['read'])
    expect(admitOffered(series, [schema('read', false, 'new text'), schema('later', true)]).map(tool => tool.name)).toEqual(['read', 'later'])
    const plain = [schema('read', false, 'other text')]
    expect(admitOffered(series, plain)).toBe(plain)
  })
})

describe('on the real runtime, with schemas marked as DSH 0.1.7 marks them (emulated)', () => {
  /** An inner assembly listener that marks `names` deferLoading, as 0.1.7's registry writes a definition's flag. */
  const marking = (names: readonly string[]) => (agentCtx: Context) => {
    agentCtx.on('system-prompt/assemble', async (_assembly, _context, next) => {
      const built = await next()
      return { ...built, tools: built.tools.map(tool => (names.includes(tool.name) ? { ...tool, deferLoading: true } : tool)) }
    })
  }

  /** Each request's tools, and the JSON of `name` in each. */
  const sent = (requests: readonly { tools?: readonly { name: string }[] }[], name: string) =>
    requests.map(request => JSON.stringify(request.tools?.find(tool => tool.name === name) ?? null))

  it('a core tool DSH defers is offered from the Agent\'s second request, flag and all', async () => {
    const h = await scope.harness({ plugin: NATIVE })
    const { agent } = await h.agent('a', { setup: marking(['grep']) })
    await h.run(agent, 'look', toolCall('c1', 'read', { path: 'x' }), reply('ok'))
    const [first, second] = h.model.requests.map(request => h.model.toolNames(request))
    expect(first).not.toContain('grep')
    expect(second).toContain('grep')
    expect(JSON.parse(sent(h.model.requests, 'grep')[1] ?? 'null')).toMatchObject({ name: 'grep', deferLoading: true })
  })

  it('a found tool DSH defers joins the request after the search, as an addition, flag and all', async () => {
    const h = await scope.harness({ plugin: NATIVE })
    const { agent } = await h.agent('a', { setup: marking([WEATHER]) })
    await h.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }), toolCall('c2', WEATHER, { city: 'Oslo' }), reply('ok'))
    const offered = h.model.requests.map(request => h.model.toolNames(request).includes(WEATHER))
    expect(offered).toEqual([false, true, true])
    const [, second, third] = sent(h.model.requests, WEATHER)
    expect(JSON.parse(second ?? 'null')).toMatchObject({ deferLoading: true })
    expect(third).toBe(second)
  })
})
