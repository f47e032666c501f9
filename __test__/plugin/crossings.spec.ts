// How often one tool_search call crosses into the Rust core, counting every function the addon
// exports and every method of every index the plugin builds: the answer is one decision
// (`decideAsync`: the query's form, what loads, what shows, the next move), and committing DSH's
// final result is one read of it by the rule replay applies to the session log on resume
// (`selectionFromResult`), so that a live Agent and its resume cannot disagree.
import { describe, expect, it, vi } from 'vitest'
import { reply, toolCall } from '../support/scripted-model.ts'
import { NATIVE } from '../support/harness.ts'
import { perTest } from '../support/per-test.ts'

const calls = vi.hoisted(() => new Map<string, number>())
vi.mock('../../index.js', async (importOriginal) => {
  const native: Record<string, unknown> = await importOriginal()
  const counted = <F extends (...args: never[]) => unknown>(name: string, f: F): F => ((...args: Parameters<F>) => {
    calls.set(name, (calls.get(name) ?? 0) + 1)
    return f(...args)
  }) as F
  const { observeIndexBuilds } = await import('../support/observed-native.ts')
  const observed: Record<string, unknown> = observeIndexBuilds(native as never, (_json, index) => {
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(index)).filter(name => name !== 'constructor')
    for (const name of methods) {
      const method = (index as unknown as Record<string, unknown>)[name]
      if (typeof method === 'function') Object.defineProperty(index, name, { value: counted(name, method.bind(index) as (...args: never[]) => unknown) })
    }
  })
  for (const [name, value] of Object.entries(observed)) {
    if (typeof value === 'function' && name !== 'ToolIndex') observed[name] = counted(name, value as (...args: never[]) => unknown)
  }
  return observed
})

const scope = perTest()

describe('one tool_search call and the Rust core', () => {
  it('crosses once to decide, and once to read what DSH logged, for every query form', async () => {
    const h = await scope.harness({ plugin: NATIVE })
    const { agent } = await h.agent('a')
    await h.run(agent, 'warm', toolCall('c0', 'tool_search', { query: 'mail' }), reply('ok'))
    calls.clear()
    await h.run(agent, 'q',
      toolCall('c1', 'tool_search', { query: 'weather forecast for Paris' }),
      toolCall('c2', 'tool_search', { query: 'wether forcast' }),
      toolCall('c3', 'tool_search', { query: 'discover: send email' }),
      toolCall('c4', 'tool_search', { query: 'select:mcp__weather__forecast' }),
      toolCall('c5', 'tool_search', { query: '+github issue' }),
      reply('ok'))
    expect(Object.fromEntries(calls)).toEqual({ decideAsync: 5, selectionFromResult: 5 })
  })
})
