// What `loading: native` costs on a route that keeps the prompt prefix when the tools change:
// DSH 0.1.7's `deepseek-flash`, emulated (flash-projection.mjs says from what). The measured-cost
// sessions (docs/cost.md) are played again by the real DSH 0.1.0-rc.8 CLI, and each session's
// requests are billed twice: as rc.8 sent them, as the measured table bills them, and as 0.1.7
// would send them to that route. Prints the figures; writes nothing.
//
//   node bench/cost/flash-native.mjs                                  # mcp-github and synthetic-50, 50 and 200 steps
//   node bench/cost/flash-native.mjs --rows bfcl,mcp-notion --steps 10,50,200
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { onInterrupt } from '../../e2e/lib/processes.mjs'
import { repoPath } from '../lib/repo.mjs'
import { projectToFlash } from './flash-projection.mjs'
import { BASELINE } from './measured/columns.mjs'
import { CACHE_UNIT, measureCost } from './measured/measure.mjs'
import { billSession } from './measured/session-bill.mjs'
import { costParameters } from './parameters.mjs'

const { values: options } = parseArgs({
  options: {
    rows: { type: 'string', default: 'mcp-github,synthetic-50' },
    steps: { type: 'string', default: '50,200' },
    columns: { type: 'string', default: 'native,native-prefetch,stable' },
  },
})
const list = (/** @type {string} */ text) => text.split(',').map((item) => item.trim()).filter(Boolean)
const log = (/** @type {string} */ message) => process.stderr.write(`${message}\n`)

const parameters = costParameters({})
const recorded = JSON.parse(readFileSync(repoPath('docs/benchmark-results.json'), 'utf8'))
const cache = process.env.DSH_E2E_CACHE || join(process.env.XDG_CACHE_HOME || join(os.homedir(), '.cache'), 'dsh-tool-search', 'measured-cost')
const scratch = mkdtempSync(join(os.tmpdir(), 'dsh-tool-search-flash-'))
const cleanUp = () => rmSync(scratch, { recursive: true, force: true, maxRetries: 3 })
onInterrupt(cleanUp, log)

/** @typedef {{row: string, steps: number, column: string, rc8: Figures, flash: Figures}} Line */
/** @typedef {{cost: number, cacheBreaks: number, cachedShare: number}} Figures */
/** @type {Line[]} */
const lines = []
try {
  await measureCost({
    tokens: recorded.tokens,
    parameters,
    rows: list(options.rows),
    steps: list(options.steps).map(Number),
    columns: list(options.columns),
    cache,
    scratch,
    log,
    onRun({ row, steps, column, run, tokenizer }) {
      const billing = { steps, stepsPerTurn: parameters.session.stepsPerTurn, prices: parameters.prices, unit: CACHE_UNIT.tokens, tokenizer }
      const figures = (/** @type {typeof run} */ played) => {
        const { cost, cacheBreaks, cachedShare } = billSession(played, billing).figures
        return { cost, cacheBreaks, cachedShare: cachedShare.mean }
      }
      lines.push({ row, steps, column, rc8: figures(run), flash: figures({ ...run, requests: projectToFlash(run.requests) }) })
    },
  })
} finally {
  cleanUp()
}

const dollars = (/** @type {number} */ x) => `$${x.toFixed(4)}`
const pct = (/** @type {number} */ x) => `${(x * 100).toFixed(1)}%`
console.log('What sessions cost on DSH 0.1.0-rc.8 (measured) and on DSH 0.1.7\'s deepseek-flash route (emulated from rc.8\'s requests).')
console.log(`Prices: ${parameters.prices.name}; the measured sessions of docs/cost.md, played again by the real dsh ${recorded.measuredCost?.parameters?.dsh ?? ''}.`)
console.log('')
console.log(['catalog', 'steps', 'column', 'rc.8 cost', 'breaks', 'cached', '0.1.7 flash cost (emulated)', 'breaks', 'cached', 'against every tool offered, 0.1.7'].join(' | '))
for (const line of lines) {
  const all = lines.find((other) => other.row === line.row && other.steps === line.steps && other.column === BASELINE)
  const change = all === undefined || line.column === BASELINE ? undefined : line.flash.cost / all.flash.cost - 1
  const versus = change === undefined ? '' : `${pct(Math.abs(change))} ${change <= 0 ? 'less' : 'more'}`
  console.log([line.row, line.steps, line.column, dollars(line.rc8.cost), line.rc8.cacheBreaks, pct(line.rc8.cachedShare),
    dollars(line.flash.cost), line.flash.cacheBreaks, pct(line.flash.cachedShare), versus].join(' | '))
}
