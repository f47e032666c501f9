// Plain-text building blocks shared by the commands' human-readable output. Widths are terminal
// columns: a character (a grapheme cluster: a letter with its combining marks, a flag, an emoji
// sequence) takes two where Unicode's East Asian Width makes it wide, or where it is an emoji,
// none where it is a control or format character, and one otherwise.
import { eastAsianWidth } from 'get-east-asian-width'

/** Width that text output is fitted to: the terminal's, or a fixed one when piped (stable output). */
export const WIDTH = process.stdout.isTTY ? Math.max(60, process.stdout.columns ?? 100) : 100

const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' })
/**
 * Drawn as a picture two columns wide, whatever the width of its first code point. (Built from a
 * string: the `v` flag postdates the ES2023 target the JSDoc types are checked against.)
 */
const EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v')
/** Takes no column: controls, format characters (zero-width joiners, marks), a lone combining mark. */
const INVISIBLE = /^[\p{Cc}\p{Cf}\p{Mn}\p{Me}]/u

/**
 * Columns one grapheme cluster takes: its first code point decides, combining marks add nothing.
 * @param {string} grapheme
 */
function graphemeWidth(grapheme) {
  if (EMOJI.test(grapheme)) return 2
  if (INVISIBLE.test(grapheme)) return 0
  return eastAsianWidth(/** @type {number} */ (grapheme.codePointAt(0)))
}

/**
 * Columns `text` takes in a terminal.
 * @param {string} text
 */
export function displayWidth(text) {
  // Plain ASCII, the usual case, is one column a character.
  if (/^[\x20-\x7e]*$/.test(text)) return text.length
  let width = 0
  for (const { segment } of GRAPHEMES.segment(text)) width += graphemeWidth(segment)
  return width
}

/**
 * Rows as aligned columns separated by two spaces; the last column is not padded.
 * @param {string[][]} rows
 * @param {{ right?: number[] }} [options] indexes of columns aligned to the right (numbers)
 * @returns {string[]}
 */
export function table(rows, { right = [] } = {}) {
  const widths = /** @type {number[]} */ ([])
  for (const row of rows) row.forEach((cell, i) => { widths[i] = Math.max(widths[i] ?? 0, displayWidth(cell)) })
  return rows.map(row => row
    .map((cell, i) => {
      if (i === row.length - 1 && !right.includes(i)) return cell
      const pad = ' '.repeat((widths[i] ?? 0) - displayWidth(cell))
      return right.includes(i) ? pad + cell : cell + pad
    })
    .join('  ')
    .trimEnd())
}

/**
 * `text` cut to `width` columns, marked with "…" when cut; never inside a character.
 * @param {string} text
 * @param {number} width
 */
export function cut(text, width) {
  if (displayWidth(text) <= width) return text
  let kept = ''
  let used = 0
  for (const { segment } of GRAPHEMES.segment(text)) {
    const next = graphemeWidth(segment)
    if (used + next > width - 1) break
    kept += segment
    used += next
  }
  return `${kept}…`
}

/**
 * Words of `text` filled into lines of at most `width` columns, each starting with `indent`.
 * @param {string} text
 * @param {number} width
 * @param {string} [indent]
 * @returns {string[]}
 */
export function wrap(text, width, indent = '') {
  const lines = []
  const room = width - displayWidth(indent)
  let line = ''
  let used = 0
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const size = displayWidth(word)
    if (line && used + 1 + size > room) {
      lines.push(indent + line)
      line = word
      used = size
    } else {
      line = line ? `${line} ${word}` : word
      used += (used > 0 ? 1 : 0) + size
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
