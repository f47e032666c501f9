import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { checkModelledFigures, withModelledFigures } from '../../bench/cost/measured/agreement.mjs'
import { COLUMNS, settingsYaml, unsupported } from '../../bench/cost/measured/columns.mjs'
import { sessionPlan, TASK_PREFIX } from '../../bench/cost/measured/plan.mjs'
import { Tokenizer } from '../../bench/cost/measured/request-tokens.mjs'
import { scriptedModel } from '../../bench/cost/measured/scripted-model.mjs'
import { describedNeed, evenlySpaced, exampleArguments, sessionTargets } from '../../bench/cost/measured/targets.mjs'
import { DEFAULT_COST_PARAMETERS } from '../../bench/cost/parameters.mjs'
import { measuredCostLines } from '../../bench/report/measured-cost-report.mjs'
import { SETTINGS } from '../../plugin/contract.ts'

const results = JSON.parse(readFileSync(new URL('../../docs/benchmark-results.json', import.meta.url), 'utf8'))

describe('the measured-cost columns', () => {
  it('run a column only when the installed plugin declares its settings and values', () => {
    const stable = COLUMNS.find(column => column.id === 'stable')
    const native = COLUMNS.find(column => column.id === 'native-prefetch')
    if (stable === undefined || native === undefined) throw new Error('a column is missing')
    expect(unsupported(native, SETTINGS)).toBeUndefined()
    const withLoading = { ...SETTINGS, loading: { kind: 'choice', choices: ['native', 'stable'] } }
    expect(unsupported(stable, withLoading)).toBeUndefined()
    expect(unsupported(stable, { ...SETTINGS, loading: { kind: 'choice', choices: ['native'] } })).toContain('no choice `stable`')
    expect(unsupported(stable, { ...SETTINGS, loading: undefined as never })).toContain('no `loading` setting')
  })

  it('write their settings as the tool-search section of settings.yaml', () => {
    expect(settingsYaml({})).toBe('')
    expect(settingsYaml({ loading: 'stable', prefetch: 3 })).toBe('tool-search:\n  loading: "stable"\n  prefetch: 3\n')
  })
})

describe('the tools a measured session needs', () => {
  const tool = (name: string, description = `Do ${name}.`, parameters: object = {}) => ({ type: 'function' as const, function: { name, description, parameters } })
  const catalog = [tool('bash'), tool('web_search'), tool('workflow'), ...['a', 'b', 'c', 'd', 'e', 'f'].map(name => tool(`mcp__x__${name}`))]
  const row = { catalog, query: 'do a', hits: ['mcp__x__a', 'mcp__x__b'], builtins: new Set(['bash', 'web_search', 'workflow']), core: new Set(['bash']) }

  it('start with the token table\'s search and spread the rest over the catalog, hits, core and unrunnable built-ins left out', () => {
    const targets = sessionTargets(row, 4)
    expect(targets.map(target => target.name)).toEqual(['mcp__x__a', 'web_search', 'mcp__x__d', 'mcp__x__f'])
    expect(targets[0]?.query).toBe('do a')
    expect(targets[1]?.arguments('f')).toEqual({ queries: ['release notes of the latest version'] })
  })

  it('are asked for with the first words of their description', () => {
    expect(describedNeed(tool('t', 'Create a new invoice in the billing ledger. Returns its id.'))).toBe('Create a new invoice in the billing ledger')
    expect(describedNeed(tool('get_user_name', ''))).toBe('get user name')
  })

  it('are called with the plainest arguments their schema requires', () => {
    expect(exampleArguments({ type: 'object', properties: { a: { type: 'integer' }, b: { enum: ['x', 'y'] }, c: { type: 'string' } }, required: ['a', 'b'] })).toEqual({ a: 1, b: 'x' })
  })

  it('spread evenly', () => {
    expect(evenlySpaced([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 2)).toEqual([2, 7])
    expect(evenlySpaced([0, 1], 5)).toEqual([0, 1])
  })
})

describe('the scripted model of a measured session', () => {
  const target = { name: 'mcp__x__a', query: 'do a', arguments: () => ({ id: 1 }) }
  const plan = sessionPlan({ shape: { ...DEFAULT_COST_PARAMETERS.session, steps: 10 }, targets: [target], workdir: '/w', tokenizer: new Tokenizer() })
  const offer = (...names: string[]) => names.map(name => ({ type: 'function', function: { name, parameters: {} } }))
  const first = { role: 'user', content: plan.turns[0]?.user }
  const calls = (reply: { toolCalls?: { name: string; arguments: unknown }[] }) => reply.toolCalls?.map(call => [call.name, call.arguments])

  it('plays turns of five steps that start with the planned user messages', () => {
    expect(plan.turns).toHaveLength(2)
    expect(plan.turns.map(turn => turn.user.startsWith(TASK_PREFIX))).toEqual([true, true])
    expect(plan.turns.map(turn => turn.steps.length)).toEqual([5, 5])
    expect(plan.turns[1]?.target).toBeUndefined()
  })

  it('calls the target by name when it is offered, and searches for it once when not', () => {
    const model = scriptedModel(plan)
    expect(calls(model.decide({ messages: [first], tools: offer('read', 'mcp__x__a') }))).toEqual([['mcp__x__a', { id: 1 }]])
    const search = model.decide({ messages: [first], tools: offer('read', 'tool_search') })
    expect(calls(search)).toEqual([['tool_search', { query: 'do a' }]])
    expect(search.delayMs).toBeGreaterThan(0)
    expect(model.log).toMatchObject({ direct: 1, searches: 1 })
  })

  it('calls the target through call_tool when only that is offered and a search named it (loading: stable)', () => {
    const model = scriptedModel(plan)
    const searched = [
      first,
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'tool_search', arguments: '{"query":"do a"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"schemaVersion":1,"tools":[{"name":"mcp__x__a"}]}' },
    ]
    expect(calls(model.decide({ messages: searched, tools: offer('read', 'tool_search', 'call_tool') }))).toEqual([['call_tool', { name: 'mcp__x__a', arguments: { id: 1 } }]])
    expect(model.log.viaCallTool).toBe(1)
  })

  it('makes do with the search\'s first hit, and counts the miss, when the search did not bring the target', () => {
    const model = scriptedModel(plan)
    const searched = [
      first,
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'tool_search', arguments: '{"query":"do a"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: '{"schemaVersion":1,"tools":[{"name":"mcp__x__b"}]}' },
    ]
    expect(calls(model.decide({ messages: searched, tools: offer('read', 'tool_search', 'mcp__x__b') }))?.[0]?.[0]).toBe('mcp__x__b')
    expect(model.log.misses).toEqual([{ turn: 1, target: 'mcp__x__a', called: 'mcp__x__b' }])
  })

  it('reads files at the other steps and answers at the last', () => {
    const model = scriptedModel(plan)
    const after = (n: number) => [first, ...Array.from({ length: n }, (_, i) => [
      { role: 'assistant', content: '', tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'read', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: `c${i}`, content: 'text' },
    ]).flat()]
    expect(model.decide({ messages: after(1), tools: offer('read') }).toolCalls?.[0]?.name).toBe('read')
    expect(model.decide({ messages: after(4), tools: offer('read') }).toolCalls).toBeUndefined()
    expect(() => model.decide({ messages: after(5), tools: offer('read') })).toThrow(/no step 6/)
  })
})

describe('the measured-cost section', () => {
  it('records model figures that follow from the token table, and a changed one is reported', () => {
    expect(results.measuredCost).toBeDefined()
    expect(checkModelledFigures(results.tokens, results.measuredCost)).toEqual([])
    const edited = structuredClone(results.measuredCost)
    edited.rows[0].sessions[0].modelled.all += 0.001
    expect(checkModelledFigures(results.tokens, edited)).toHaveLength(1)
    expect(checkModelledFigures(results.tokens, withModelledFigures(results.tokens, edited))).toEqual([])
  })

  it('prints a line per catalog and length in both tables, and names the columns not run', () => {
    const lines = measuredCostLines(results.measuredCost)
    const sessions = results.measuredCost.rows.reduce((sum: number, row: { sessions: unknown[] }) => sum + row.sessions.length, 0)
    expect(lines.filter(line => line.startsWith(`| ${results.measuredCost.rows[0].label} |`))).toHaveLength(2 * results.measuredCost.rows[0].sessions.length)
    expect(lines.filter(line => /^\| [^-|]/.test(line) && !line.startsWith('| Catalog'))).toHaveLength(2 * sessions)
    const notRun = results.measuredCost.columns.filter((column: { ran: boolean }) => !column.ran)
    for (const column of notRun) expect(lines.join('\n')).toContain(`\`${column.label}\``)
  })
})
