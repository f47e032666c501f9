// call_tool under `loading: stable`, on the real DSH runtime: bad input of every kind is refused
// with an error the model can act on and never reaches a tool body; valid arguments run the real
// tool through DSH's whole pipeline under its real name; the call card is the target's own.
import { describe, expect, it } from 'vitest'
import ApprovalService from '@deepseek-ai/dsh-user-approval'
import { CALL_TOOL_NAME, MAX_CALL_ARGUMENTS_CHARS } from '../../plugin/contract.ts'
import { schemaViolations } from '../../plugin/call/schema-check.ts'
import { CHARGE as PROBE, chargeTool } from '../support/charge-tool.ts'
import { perTest } from '../support/per-test.ts'
import { reply, toolCall, toolCalls } from '../support/scripted-model.ts'
import { loggedResult } from '../support/session.ts'

const WEATHER = 'mcp__weather__forecast'
const GITHUB = 'mcp__github__create_issue'

const t = perTest()

async function stable(extra: Partial<{ neverSearch: string[] }> = {}) {
  const h = await t.harness({ plugin: { loading: 'stable', ...extra } })
  const stages: string[] = []
  h.ctx.tools.register(chargeTool(stages))
  const { agent } = await h.agent('a')
  return { h, agent, stages }
}

describe('call_tool refuses bad input before any tool body', () => {
  it('names it cannot run: nesting, unknown, blocked, not found yet (with the search to make)', async () => {
    const { h, agent, stages } = await stable({ neverSearch: ['mcp__postgres__query'] })
    await h.run(agent, 'try things',
      toolCalls(
        { id: 'n1', name: CALL_TOOL_NAME, args: { name: CALL_TOOL_NAME, arguments: {} } },
        { id: 'n2', name: CALL_TOOL_NAME, args: { name: 'tool_search', arguments: { query: 'x' } } },
        { id: 'n3', name: CALL_TOOL_NAME, args: { name: 'run_code', arguments: { code: '1', description: 'x' } } },
        { id: 'u1', name: CALL_TOOL_NAME, args: { name: 'mcp__weather__forcast', arguments: {} } },
        { id: 'b1', name: CALL_TOOL_NAME, args: { name: 'mcp__postgres__query', arguments: { sql: 'select 1' } } },
        { id: 'f1', name: CALL_TOOL_NAME, args: { name: PROBE, arguments: { amount: 5 } } },
        { id: 'e1', name: CALL_TOOL_NAME, args: { arguments: {} } },
      ),
      reply('ok'))
    const text = (id: string): string => {
      const result = loggedResult(agent, id)
      expect(result.isError).toBe(true)
      return result.text
    }
    for (const id of ['n1', 'n2', 'n3']) expect(text(id)).toMatch(/cannot be run through call_tool; call (call_tool|tool_search|run_code) directly/)
    expect(text('u1')).toContain('no tool named "mcp__weather__forcast" is installed for this agent (similar names: mcp__weather__forecast')
    expect(text('b1')).toContain('blocked by the user\'s neverSearch setting')
    expect(text('f1')).toContain(`${PROBE} is installed but not loaded yet. Call tool_search with {"query": "select:${PROBE}"}`)
    expect(text('e1')).toContain('name must be the exact name of a tool tool_search returned')
    expect(stages).toEqual([])
    expect(h.log.calls).toEqual([])
  })

  it('arguments that are not an object, that break the schema, or that are huge: the error carries the schema', async () => {
    const { h, agent, stages } = await stable()
    await h.run(agent, 'charge',
      toolCall('s1', 'tool_search', { query: `select:${PROBE}` }),
      toolCalls(
        { id: 'a1', name: CALL_TOOL_NAME, args: { name: PROBE, arguments: [5] } },
        { id: 'a2', name: CALL_TOOL_NAME, args: { name: PROBE, arguments: 5 } },
        { id: 'a3', name: CALL_TOOL_NAME, args: { name: PROBE, arguments: { currency: 'GBP', extra: true } } },
        { id: 'a4', name: CALL_TOOL_NAME, args: { name: PROBE, arguments: { amount: '5' } } },
        { id: 'a5', name: CALL_TOOL_NAME, args: { name: PROBE, arguments: { amount: 1, note: 'x'.repeat(MAX_CALL_ARGUMENTS_CHARS) } } },
      ),
      reply('ok'))
    expect(loggedResult(agent, 'a1').text).toContain('arguments must be a JSON object of mcp__billing__charge\'s parameters')
    expect(loggedResult(agent, 'a2').text).toContain('got number')
    const schema = loggedResult(agent, 'a3').text
    expect(schema).toContain('arguments is missing the required property "amount"')
    expect(schema).toContain('arguments.currency must be one of ["EUR","USD"]')
    expect(schema).toContain('Its parameters: {"type":"object"')
    expect(loggedResult(agent, 'a4').text).toContain('arguments.amount must be a number, got a string')
    expect(loggedResult(agent, 'a5').text).toMatch(/characters of JSON, more than the 1000000 call_tool passes on/)
    expect(stages).toEqual([])
  })

  it('takes arguments a model sent as a JSON string of an object, and runs the tool once they fit', async () => {
    const { h, agent, stages } = await stable()
    await h.run(agent, 'charge',
      toolCall('s1', 'tool_search', { query: `select:${PROBE}` }),
      toolCall('c1', CALL_TOOL_NAME, { name: PROBE, arguments: JSON.stringify({ amount: 5, currency: 'EUR' }) }),
      reply('ok'))
    expect(loggedResult(agent, 'c1')).toEqual({ isError: false, text: 'charged' })
    expect(stages).toEqual(['body'])
  })
})

describe('call_tool runs the found tool as a native call would', () => {
  it('through every pipeline stage, each seeing the real tool name and arguments, nested under call_tool', async () => {
    const { h, agent } = await stable()
    const { ctx } = h
    await ctx.plugin(ApprovalService, { policy: 'ask' })
    const seen: string[] = []
    const note = (stage: string, name: string): void => { if (name !== CALL_TOOL_NAME && name !== 'tool_search') seen.push(`${stage} ${name}`) }
    ctx.on('tools/pre-execute', async (exec, next) => {
      note('pre-execute', exec.name)
      if (exec.name === PROBE) expect(exec.arguments).toEqual({ amount: 5 })
      return exec.name === PROBE ? { kind: 'ask', reason: 'charges cost money' } : next()
    })
    ctx.on('approval/request', async (request, next) => {
      note('approval', request.toolName)
      return request.toolName === PROBE ? 'allowed-once' : next()
    })
    ctx.tools.guard((exec) => { note('guard', exec.name); return undefined })
    ctx.on('tools/execute', async (exec, next) => { note('around', exec.name); return next() })
    ctx.on('tools/post-execute', async (exec, _result, next) => { note('post-execute', exec.name); return next() })
    ctx.on('tools/result', (exec) => {
      note('result', exec.name)
      if (exec.name === PROBE) expect(exec.parent).toBeDefined()
    })
    await h.run(agent, 'charge 5',
      toolCall('s1', 'tool_search', { query: `select:${PROBE}` }),
      toolCall('c1', CALL_TOOL_NAME, { name: PROBE, arguments: { amount: 5 } }),
      reply('done'))
    expect(seen).toEqual(['pre-execute', 'approval', 'guard', 'around', 'post-execute', 'result'].map(stage => `${stage} ${PROBE}`))
    expect(loggedResult(agent, 'c1')).toEqual({ isError: false, text: 'charged' })
    const types = agent.session.events.map(event => event.type)
    expect(types.indexOf('approval/asked')).toBeGreaterThan(types.indexOf('tool/call'))
  })

  it('passes on the target\'s failure in its own words: a thrown error, a guard, a blocking policy', async () => {
    const { h, agent } = await stable()
    h.ctx.tools.guard(exec => (exec.name === GITHUB ? 'issues are read-only here' : undefined))
    h.ctx.on('tools/post-execute', async (exec, _result, next) => (exec.name === WEATHER ? { kind: 'block', feedback: [{ type: 'text', text: 'Forecasts are paused.' }] } : next()))
    await h.run(agent, 'go',
      toolCall('s1', 'tool_search', { query: `select:${WEATHER},${GITHUB}` }),
      toolCalls(
        { id: 'c1', name: CALL_TOOL_NAME, args: { name: WEATHER, arguments: { city: 'Oslo' } } },
        { id: 'c2', name: CALL_TOOL_NAME, args: { name: GITHUB, arguments: { repo: 'a/b', title: 'x' } } },
      ),
      reply('ok'))
    expect(loggedResult(agent, 'c1')).toEqual({ isError: true, text: 'Forecasts are paused.' })
    expect(loggedResult(agent, 'c2')).toEqual({ isError: true, text: 'Error: issues are read-only here' })
  })

  it('shows the target\'s own call card, and a generic card under the real name for a tool that has none', async () => {
    const { h } = await stable()
    const callTool = h.ctx.tools.get(CALL_TOOL_NAME)!
    expect(callTool.presentCall?.({ name: PROBE, arguments: { amount: 7 } })).toEqual({ card: 'generic', title: 'Charge 7', kind: 'execute' })
    expect(callTool.presentResult?.({ name: PROBE, arguments: { amount: 7 } }, { content: [], isError: false })).toEqual({ card: 'generic', title: 'Charged' })
    expect(callTool.presentCall?.({ name: WEATHER, arguments: { city: 'Oslo' } })).toEqual({ card: 'generic', title: WEATHER, rawInput: { city: 'Oslo' } })
    expect(callTool.presentCall?.({ arguments: {} })).toBeUndefined()
  })
})

describe('the arguments check', () => {
  it('reads the keywords real tool schemas use, and leaves the rest to the tool', () => {
    const schema = {
      type: 'object',
      properties: {
        id: { type: ['string', 'integer'] },
        tags: { type: 'array', items: { type: 'string' } },
        when: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] },
        mode: { oneOf: [{ const: 'fast' }, { const: 'slow' }] },
        note: { type: 'string', nullable: true, minLength: 100 },
        meta: { type: 'object', additionalProperties: { type: 'number' } },
        both: { allOf: [{ type: 'object', required: ['a'] }, { type: 'object', required: ['b'] }] },
        ref: { $ref: '#/$defs/thing' },
      },
      required: ['id'],
    }
    expect(schemaViolations(schema, { id: 3, tags: ['a'], when: null, mode: 'fast', note: null, meta: { x: 1 }, both: { a: 1, b: 2 }, ref: 'anything' })).toEqual([])
    expect(schemaViolations(schema, { id: 1.5, tags: ['a', 2], when: 3, mode: 'medium', meta: { x: 'y' }, both: { a: 1 } })).toEqual([
      'arguments.id must be a string or an integer, got a number',
      'arguments.tags[1] must be a string, got the number 2',
      'arguments.when matches none of the anyOf alternatives',
      'arguments.mode matches none of the oneOf alternatives',
      'arguments.meta.x must be a number, got a string',
      'arguments.both is missing the required property "b"',
    ])
    expect(schemaViolations(true, 'anything')).toEqual([])
    expect(schemaViolations(undefined, { any: 1 })).toEqual([])
    expect(schemaViolations({ type: 'object', properties: { a: false } }, { a: 1 })).toEqual(['arguments.a is not allowed'])
    expect(schemaViolations({ type: 'object', properties: { a: {} }, additionalProperties: false }, { a: 1, b: 2 })).toEqual(['arguments.b is not a declared property (declared: a)'])
  })
})
