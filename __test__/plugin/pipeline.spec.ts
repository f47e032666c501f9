import { afterEach, describe, expect, it } from 'vitest'
import ApprovalService from '@deepseek-ai/dsh-user-approval'
import { CHARGE as PROBE, chargeTool } from '../support/charge-tool.ts'
import { createHarness, type Harness, NATIVE } from '../support/harness.ts'
import { reply, toolCall } from '../support/scripted-model.ts'
import { loggedResult } from '../support/session.ts'

const WEATHER = 'mcp__weather__forecast'

let harness: Harness
afterEach(async () => { await harness.close() })

describe('a deferred tool called by its real name', () => {
  it('runs DSH\'s full pipeline in order: pre-execute, approval, guards, around, body, post-execute, result', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const { ctx } = harness
    await ctx.plugin(ApprovalService, { policy: 'ask' })
    const stages: string[] = []
    const mine = (name: string) => name === PROBE
    ctx.tools.register(chargeTool(stages))
    ctx.on('tools/pre-execute', async (exec, next) => {
      if (!mine(exec.name)) return next()
      stages.push('pre-execute')
      return { kind: 'ask', reason: 'forecasts cost money' }
    })
    ctx.on('approval/request', async (request, next) => {
      if (!mine(request.toolName)) return next()
      stages.push('approval')
      return 'allowed-once'
    })
    ctx.tools.guard((exec) => {
      if (mine(exec.name)) stages.push('guard')
      return undefined
    })
    ctx.on('tools/execute', async (exec, next) => {
      if (mine(exec.name)) stages.push('around')
      return next()
    })
    ctx.on('tools/post-execute', async (exec, _result, next) => {
      if (mine(exec.name)) stages.push('post-execute')
      return next()
    })
    ctx.on('tools/result', (exec) => {
      if (mine(exec.name)) stages.push('result')
    })
    const { agent } = await harness.agent('a')

    await harness.run(agent, 'charge 5', toolCall('c1', PROBE, { amount: 5 }), reply('done'))

    expect(harness.model.toolNames(harness.model.requests[0])).not.toContain(PROBE)
    expect(stages).toEqual(['pre-execute', 'approval', 'guard', 'around', 'body', 'post-execute', 'result'])
    expect(loggedResult(agent, 'c1')).toEqual({ isError: false, text: 'charged' })
    const types = agent.session.events.map(event => event.type)
    expect(types.indexOf('approval/asked')).toBeGreaterThan(types.indexOf('tool/call'))
    expect(types.indexOf('tool/result')).toBeGreaterThan(types.indexOf('approval/decided'))
  })

  it('is still refused by a guard: hiding a tool is not authorization, and neither is finding it', async () => {
    harness = await createHarness({ plugin: NATIVE })
    harness.ctx.tools.guard(exec => (exec.name === WEATHER ? 'forecasts are disabled here' : undefined))
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'weather?',
      toolCall('c1', 'tool_search', { query: 'weather forecast' }),
      toolCall('c2', WEATHER, { city: 'Oslo' }),
      reply('blocked'))
    expect(harness.model.toolNames()).toContain(WEATHER)
    expect(loggedResult(agent, 'c2').isError).toBe(true)
    expect(harness.log.calls).toEqual([])
  })
})
