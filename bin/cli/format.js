// Plain-text building blocks shared by the commands' human-readable output.

/** Width that text output is fitted to: the terminal's, or a fixed one when piped (stable output). */
export const WIDTH = process.stdout.isTTY ? Math.max(60, process.stdout.columns ?? 100) : 100

/**
 * Rows as aligned columns separated by two spaces; the last column is not padded.
 * @param {string[][]} rows
 * @param {{ right?: number[] }} [options] indexes of columns aligned to the right (numbers)
 * @returns {string[]}
 */
export function table(rows, { right = [] } = {}) {
  const widths = /** @type {number[]} */ ([])
  for (const row of rows) row.forEach((cell, i) => { widths[i] = Math.max(widths[i] ?? 0, cell.length) })
  return rows.map(row => row
    .map((cell, i) => {
      if (i === row.length - 1 && !right.includes(i)) return cell
      return right.includes(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)
    })
    .join('  ')
    .trimEnd())
}

/**
 * `text` cut to `width` characters, marked with "…" when cut.
 * @param {string} text
 * @param {number} width
 */
export function cut(text, width) {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`
}

/**
 * Words of `text` filled into lines of at most `width` characters, each starting with `indent`.
 * @param {string} text
 * @param {number} width
 * @param {string} [indent]
 * @returns {string[]}
 */
export function wrap(text, width, indent = '') {
  const lines = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line)
      line = word
    } else {
      line = line ? `${line} ${word}` : word
    }
  }
  if (line) lines.push(indent + line)
  return lines
}

/** @param {number} n */
export function ordinal(n) {
  const tens = n % 100
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'
  return `${n}${suffix}`
}

/**
 * @param {number} n
 * @param {string} word singular
 * @param {string} [words] plural, when not `word` + "s"
 */
export function count(n, word, words = `${word}s`) {
  return `${n} ${n === 1 ? word : words}`
}

/** A score as the text output shows it; JSON output keeps the core's six decimals. */
export function score(/** @type {number} */ n) {
  return n.toFixed(3)
}
