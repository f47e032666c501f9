// The emulation of DSH 0.1.7's deepseek-flash route over requests rc.8 sent
// (bench/cost/flash-projection.mjs): a tool offered later is declared where it was added and the
// tools at the head stay the series' first; what is no longer offered loses its declaration; a
// redeclared tool starts a new series; a changed system prompt goes into the history. Billed as
// the measured sessions are, a request that adds a tool then keeps the prefix it breaks on rc.8.
import { describe, expect, it } from 'vitest'
import { HISTORY_ROLE, projectToFlash } from '../../bench/cost/flash-projection.mjs'
import { cachedPrefixes } from '../../bench/cost/measured/prefix-cache.mjs'
import { requestSegments, Tokenizer } from '../../bench/cost/measured/request-tokens.mjs'

const tool = (name: string, description = `The ${name} tool.`) => ({ type: 'function', function: { name, description, parameters: { type: 'object' } } })
const system = (text = 'You are an agent.') => ({ role: 'system', content: text })
const user = (n: number) => ({ role: 'user', content: `message ${n}` })
const request = (tools: object[], messages: object[], head = system()) => ({ model: 'm', messages: [head, ...messages], tools })

type Body = Parameters<typeof requestSegments>[0] | undefined
const names = (body: Body) => ((body?.tools ?? []) as { function: { name: string } }[]).map(t => t.function.name)
const roles = (body: Body) => ((body?.messages ?? []) as { role: string; content: unknown }[])
  .map(m => (m.role === HISTORY_ROLE ? `+${String(m.content).match(/"name":"(\w+)"/g)?.join() ?? 'system'}` : m.role))

describe('a session projected onto deepseek-flash (emulated)', () => {
  it('declares a later tool where it was added; the head keeps the first tools', () => {
    const [r1, r2, r3] = projectToFlash([
      request([tool('a'), tool('b')], [user(1)]),
      request([tool('a'), tool('b'), tool('c')], [user(1), user(2)]),
      request([tool('a'), tool('b'), tool('c')], [user(1), user(2), user(3)]),
    ])
    expect([r1, r2, r3].map(names)).toEqual([['a', 'b'], ['a', 'b'], ['a', 'b']])
    expect(roles(r2)).toEqual(['system', 'user', 'user', '+"name":"c"'])
    expect(roles(r3)).toEqual(['system', 'user', 'user', '+"name":"c"', 'user'])
  })

  it('drops what is no longer offered: a first tool from the head, a later one with its addition', () => {
    const [, , r3, r4] = projectToFlash([
      request([tool('a'), tool('b')], [user(1)]),
      request([tool('a'), tool('b'), tool('c')], [user(1), user(2)]),
      request([tool('a'), tool('c')], [user(1), user(2), user(3)]),
      request([tool('a')], [user(1), user(2), user(3), user(4)]),
    ])
    expect(names(r3)).toEqual(['a'])
    expect(roles(r3)).toContain('+"name":"c"')
    expect(roles(r4)).toEqual(['system', 'user', 'user', 'user', 'user'])
  })

  it('starts a new series where a kept tool is redeclared, and puts a changed system prompt in the history', () => {
    const [, , r3] = projectToFlash([
      request([tool('a')], [user(1)]),
      request([tool('a'), tool('b')], [user(1), user(2)]),
      request([tool('a', 'Changed.'), tool('b')], [user(1), user(2), user(3)]),
    ])
    expect(names(r3)).toEqual(['a', 'b'])
    expect(roles(r3)).toEqual(['system', 'user', 'user', 'user'])
    const [, moved] = projectToFlash([request([tool('a')], [user(1)]), request([tool('a')], [user(1), user(2)], system('Longer now.'))])
    expect(moved?.messages?.[0]).toEqual(system())
    expect(roles(moved)).toEqual(['system', 'user', 'user', '+system'])
  })

  it('billed as the measured sessions are, an added tool keeps the prefix that rc.8 breaks', () => {
    const sent = [
      request([tool('a'), tool('z')], [user(1)]),
      request([tool('a'), tool('m'), tool('z')], [user(1), user(2)]),
    ]
    const tokenizer = new Tokenizer()
    const shared = (requests: readonly NonNullable<Body>[]) => cachedPrefixes(requests.map(body => ({ prompt: requestSegments(body, tokenizer).segments })), { unit: 1 })
    const [rc8First, rc8Second] = shared(sent)
    const [flashFirst, flashSecond] = shared(projectToFlash(sent))
    expect(rc8Second!.shared).toBeLessThan(rc8First!.input)
    expect(flashSecond!.shared).toBe(flashFirst!.input)
  })
})
