// How the generated docs write numbers, shared by every report so a figure reads the same in
// every table.

export const int = (/** @type {number} */ n) => n.toLocaleString('en-US')
export const dollars = (/** @type {number} */ n) => `${n < 0 ? '-' : ''}$${Math.abs(n).toFixed(4)}`
export const pct = (/** @type {number} */ n) => `${n.toFixed(1)}%`
/** A break-even step, or "never". */
export const step = (/** @type {number | null} */ n) => (n === null ? 'never' : String(n))
/** "a", "a and b", "a, b and c". */
export const list = (/** @type {string[]} */ items) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`)
