/**
 * One ranked answer continues per turn of DSH's event loop. The ranking runs off the JavaScript
 * thread, but its promises settle together when several searches finish at once (Node drains
 * every finished native call in one go), and what follows each one (the payload, then DSH's own
 * result pipeline) runs back to back: at 1,000 registered tools that is over a millisecond a
 * search of DSH's work, so a burst of answers held the loop for several milliseconds. Waiting
 * for a turn of its own lets timers, I/O and the other Agents' streams run between answers.
 */

const waiting: Array<() => void> = []
let pumping = false

/** Resolves on an event-loop turn of its own, after every caller that asked before. */
export function ownTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve)
    if (!pumping) {
      pumping = true
      setImmediate(pump)
    }
  })
}

/**
 * Lets one waiter go, then asks for the next turn: an immediate scheduled from an immediate runs
 * on the loop's next iteration, after its timers and I/O; the waiter's continuation runs in the
 * microtasks that follow this callback.
 */
function pump(): void {
  waiting.shift()?.()
  if (waiting.length > 0) setImmediate(pump)
  else pumping = false
}
