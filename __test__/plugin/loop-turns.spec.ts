import { describe, expect, it } from 'vitest'
import { ownTurn } from '../../plugin/host/loop-turns.ts'

/** Holds the thread for `ms`, as an answer's payload and DSH's result pipeline do. */
function busy(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until) { /* the work of one answer */ }
}

describe('ownTurn', () => {
  it('lets one waiting answer go per turn of the event loop, with timers between them', async () => {
    const order: string[] = []
    const answers = [1, 2, 3].map(n => ownTurn().then(() => {
      order.push(`answer ${n}`)
      busy(5)
    }))
    const timer = new Promise<void>((resolve) => {
      setTimeout(() => {
        order.push('timer')
        resolve()
      }, 0)
    })
    await Promise.all([...answers, timer])
    expect(order.filter(entry => entry.startsWith('answer'))).toEqual(['answer 1', 'answer 2', 'answer 3'])
    // Three answers settled together would hold the loop for 15 ms; the timer, due after 1 ms,
    // runs before the last of them.
    expect(order.indexOf('timer')).toBeLessThan(order.indexOf('answer 3'))
  })

  it('starts again after the queue ran dry', async () => {
    await ownTurn()
    let resumed = false
    const later = ownTurn().then(() => { resumed = true })
    expect(resumed).toBe(false)
    await later
    expect(resumed).toBe(true)
  })
})
