// The ablation table in docs/search.md ("What each rule is worth"; `node bench/ablation.mjs`
// prints it) is written by hand from the script's output, so nothing regenerates it when the
// ranking changes. Its shipped row is the hybrid ranking's R@5 that the results JSON records too
// (R@1 in a column named so: the literal-phrase check's);
// `pnpm run benchmark:check` compares the two, so a ranking change that moves a figure flags the
// table for another run.

/** @typedef {import('./report.mjs').Results} Results */

/** The page that holds the table, from the repository root. */
export const ABLATION_PAGE = 'docs/search.md'

const SHIPPED = '| shipped (R@5) |'

/** @param {string} line */
const cells = (line) => line.trim().replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim())

/**
 * Where the ablation table's shipped row disagrees with the recorded eval (empty: it agrees).
 * @param {string} page - the text of the page that holds the table.
 * @param {Results} results
 * @param {string} [name] - the page's name in the messages.
 * @returns {string[]}
 */
export function checkAblationTable(page, results, name = ABLATION_PAGE) {
  const lines = page.split('\n')
  const row = lines.findIndex((line) => line.startsWith(SHIPPED))
  if (row < 2) return [`${name} has no ablation table (a row starting "${SHIPPED}" under its header)`]
  const [, ...columns] = cells(lines[row - 2] ?? '')
  const [, ...figures] = cells(lines[row] ?? '')
  if (columns.length !== figures.length) return [`the ablation table's shipped row and header differ in length in ${name}`]
  return columns.flatMap((column, i) => {
    const [id, part, measure = 'R@5'] = column.split(' ')
    const key = measure === 'R@1' ? 'r1' : 'r5'
    const set = results.eval.sets.find((candidate) => candidate.id === id)
    const recorded = set === undefined || part === undefined ? undefined : set.hybrid[/** @type {'all' | 'dev' | 'held'} */ (part)]?.[key]
    if (recorded === undefined) return [`the ablation table in ${name} names "${column}", which the recorded eval does not have`]
    return recorded.toFixed(3) === figures[i]
      ? []
      : [`the ablation table in ${name} has ${figures[i]} for ${column}, the recorded eval ${recorded.toFixed(3)}: run node bench/ablation.mjs and update the table`]
  })
}
