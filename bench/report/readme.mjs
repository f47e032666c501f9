// The benchmark page, docs/benchmark.md: the text between its benchmark markers is generated from
// the results JSON (report.mjs) and nothing else, so `check` can tell whether the two still agree.
// The text around the markers (the page's title and introduction) is written by hand.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { renderReport } from './report.mjs'

export const START = '<!-- benchmark:start -->'
export const END = '<!-- benchmark:end -->'
/** The page's path from the repository root. */
export const PAGE = 'docs/benchmark.md'

/** @typedef {import('./report.mjs').Results} Results */

const section = (/** @type {Results} */ results) => `${START}\n${renderReport(results)}\n${END}`

/**
 * Put the section generated from `results` into the page: between the markers when they are
 * there, appended otherwise; a missing page is created with a title and the section.
 * @param {string} pagePath
 * @param {Results} results
 * @returns {'replaced' | 'appended' | 'created'}
 */
export function writeReadmeSection(pagePath, results) {
  if (!existsSync(pagePath)) {
    writeFileSync(pagePath, `# Benchmark\n\n${section(results)}\n`)
    return 'created'
  }
  const text = readFileSync(pagePath, 'utf8')
  const span = markedSpan(text)
  if (span === undefined) {
    writeFileSync(pagePath, `${text.replace(/\n*$/, '\n\n')}${section(results)}\n`)
    return 'appended'
  }
  writeFileSync(pagePath, text.slice(0, span.start) + section(results) + text.slice(span.end))
  return 'replaced'
}

/**
 * Compare the page's section with the one the results generate.
 * @param {string} pageText - the page's contents.
 * @param {Results} results - the parsed results JSON.
 * @param {string} [name] - the page's name in the messages.
 * @returns {string[]} the problems found, empty when they agree.
 */
export function checkReadmeSection(pageText, results, name = PAGE) {
  const span = markedSpan(pageText)
  if (span === undefined) return [`${name} has no section between ${START} and ${END}; run \`pnpm benchmark --docs\``]
  const actual = pageText.slice(span.start, span.end).split('\n')
  const expected = section(results).split('\n')
  const problems = []
  for (let i = 0; i < Math.max(actual.length, expected.length); i++) {
    if (actual[i] !== expected[i]) problems.push(`line ${i + 1} of the section: ${name} has ${quote(actual[i])}, the JSON gives ${quote(expected[i])}`)
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
