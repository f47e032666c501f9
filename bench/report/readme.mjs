// The README's benchmark section: the text between the benchmark markers is generated from the
// results JSON (report.mjs) and nothing else, so `check` can tell whether the two still agree.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { renderReport } from './report.mjs'

export const START = '<!-- benchmark:start -->'
export const END = '<!-- benchmark:end -->'

/** @typedef {import('./report.mjs').Results} Results */

const section = (/** @type {Results} */ results) => `${START}\n${renderReport(results)}\n${END}`

/**
 * Put the section generated from `results` into the README: between the markers when they are
 * there, appended otherwise; a missing README is created with the section alone.
 * @param {string} readmePath
 * @param {Results} results
 * @returns {'replaced' | 'appended' | 'created'}
 */
export function writeReadmeSection(readmePath, results) {
  if (!existsSync(readmePath)) {
    writeFileSync(readmePath, `${section(results)}\n`)
    return 'created'
  }
  const text = readFileSync(readmePath, 'utf8')
  const span = markedSpan(text)
  if (span === undefined) {
    writeFileSync(readmePath, `${text.replace(/\n*$/, '\n\n')}${section(results)}\n`)
    return 'appended'
  }
  writeFileSync(readmePath, text.slice(0, span.start) + section(results) + text.slice(span.end))
  return 'replaced'
}

/**
 * Compare the README's section with the one the results generate.
 * @param {string} readmeText - the README's contents.
 * @param {Results} results - the parsed results JSON.
 * @returns {string[]} the problems found, empty when they agree.
 */
export function checkReadmeSection(readmeText, results) {
  const span = markedSpan(readmeText)
  if (span === undefined) return [`the README has no section between ${START} and ${END}; run \`pnpm benchmark --write-readme\``]
  const actual = readmeText.slice(span.start, span.end).split('\n')
  const expected = section(results).split('\n')
  const problems = []
  for (let i = 0; i < Math.max(actual.length, expected.length); i++) {
    if (actual[i] !== expected[i]) problems.push(`line ${i + 1} of the section: README has ${quote(actual[i])}, the JSON gives ${quote(expected[i])}`)
  }
  return problems
}

/**
 * Where the marked section starts and ends (end past the end marker), if both markers are there in order.
 * @param {string} text
 */
function markedSpan(text) {
  const start = text.indexOf(START)
  const end = text.indexOf(END, start)
  return start === -1 || end === -1 ? undefined : { start, end: end + END.length }
}

const quote = (/** @type {string | undefined} */ line) => (line === undefined ? '(nothing)' : JSON.stringify(line))
