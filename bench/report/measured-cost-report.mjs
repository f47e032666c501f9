// The measured-cost section of the benchmark report, rendered from the results' `measuredCost`
// part alone (see bench/cost/measured/ and docs/cost.md for how it is measured).

import { dollars, int, list, pct, step } from './format.mjs'

/**
 * @typedef {import('../cost/measured/measure.mjs').MeasuredCostResults} MeasuredCostResults
 * @typedef {import('../cost/measured/measure.mjs').ColumnFigures} ColumnFigures
 */

const BASELINE = 'all'
/** The model's arms beside the measured columns they model. */
const MODELLED = /** @type {const} */ ({ all: 'all', native: 'deferred', 'native-prefetch': 'prefetch' })

const share = (/** @type {number | null} */ n) => (n === null ? '-' : `${Math.round(n * 100)}%`)
const minutes = (/** @type {number} */ seconds) => (seconds < 90 ? `${seconds} seconds` : `${Math.round(seconds / 60)} minutes`)

/**
 * @param {MeasuredCostResults | undefined} measured
 * @returns {string[]} the section's Markdown lines (none before the first measurement).
 */
export function measuredCostLines(measured) {
  if (measured === undefined) return []
  const { parameters: { prices, session, prefetch, sessionSteps, cacheUnit, dsh }, columns, rows, wallSeconds } = measured
  const ran = columns.filter((column) => column.ran)
  const others = ran.filter((column) => column.id !== BASELINE)
  const notRun = columns.filter((column) => !column.ran)
  const lines = [
    '### Cost measured on DSH\'s requests',
    '',
    `What the same sessions cost when the real \`dsh\` CLI (DSH ${dsh}, \`dsh --profile headless\`, the plugin installed as the profile E2E installs it) `
      + 'plays them through its real DeepSeek adapter against a scripted model on 127.0.0.1, one dsh process a session, all its turns in it: '
      + `${list(sessionSteps.map(String))} steps of the shape above (a ${int(session.userTokens)}-token user message every ${session.stepsPerTurn} steps, `
      + `${int(session.resultTokens)}-token tool results, ${int(session.outputTokens)} tokens of output a step; a search at the start of every other turn whose tool is not offered yet). `
      + 'Each request\'s cached part is the longest prefix, in o200k_base tokens, it shares with an earlier request of the session and the reply that request got, '
      + `in whole units of ${cacheUnit.tokens} tokens ("${cacheUnit.quote}", [DeepSeek's context-caching guide](${cacheUnit.source})); the rest is billed uncached; `
      + `priced at ${prices.name}, as above. Every catalog sits beside DSH's own 25 tools, as in the CLI. Columns are plugin settings in settings.yaml. `
      + `How it is measured, what the guide says of cache units today, and why the figures differ from the model: [docs/cost.md](cost.md). The whole run took ${minutes(wallSeconds)} on the machine of [Speed](#speed), one session at a time.`,
    '',
    `| Catalog | Steps | ${ran.map((column) => (column.id === BASELINE ? columnName(column) : `${columnName(column)} | Saved | Break-even`)).join(' | ')} |`,
    `| --- | ---: | ${ran.map((column) => (column.id === BASELINE ? '---:' : '---: | ---: | ---:')).join(' | ')} |`,
  ]
  for (const row of rows) {
    for (const { steps, columns: figures } of row.sessions) {
      const cells = ran.map((column) => {
        const at = figures[column.id]
        if (at === undefined) return column.id === BASELINE ? '-' : '- | - | -'
        return column.id === BASELINE ? dollars(at.cost) : `${dollars(at.cost)} | ${pct(at.savedPercent)} | ${step(at.breakEvenStep)}`
      })
      lines.push(`| ${row.label} | ${steps} | ${cells.join(' | ')} |`)
    }
  }
  lines.push('')
  if (notRun.length > 0) {
    /** @type {Map<string, string[]>} */
    const byReason = new Map()
    for (const column of notRun) byReason.set(column.reason ?? '', [...byReason.get(column.reason ?? '') ?? [], `\`${column.label}\``])
    lines.push(`Declared but not run: ${list([...byReason].map(([reason, labels]) => `${list(labels)} (${reason})`))}. `
      + 'The next `pnpm benchmark --measured-cost` on a plugin that has the setting fills them in.', '')
  }
  const modelled = ran.filter((column) => Object.hasOwn(MODELLED, column.id))
  lines.push(
    'Where the model and the measurement part. Each cell reads: the model (bench/cost/, from the token table) / the measured requests billed by the model\'s rule '
      + '(everything before the conversation as its "tools", billed uncached with the whole conversation whenever it changes) / measured. '
      + 'The first step is the sessions (DSH\'s system prompt and own tools, the real results, searches and prefetches), the second the cache arithmetic '
      + '(what a change leaves cached, whole units). "Searches, breaks" counts, in the `native` session, the `tool_search` calls and the requests that do not carry on '
      + 'from the one before (their tools or system prompt changed). '
      + 'The cached share of a request is its cached tokens over its input: the mean, and the lowest after the first request. '
      + `Prefetch in the model adds ${prefetch} tools every turn and spares no search; the plugin's prefetch loads only tools that match the user's message strongly.`,
    '',
    `| Catalog | Steps | ${modelled.map((column) => columnName(column)).join(' | ')} | Searches, breaks (\`native\`): model; measured | ${others.map((column) => `Cached share, ${columnName(column)}`).join(' | ')} |`,
    `| --- | ---: | ${modelled.map(() => '---:').join(' | ')} | ---: | ${others.map(() => '---:').join(' | ')} |`,
  )
  for (const row of rows) {
    for (const { steps, columns: figures, modelled: model } of row.sessions) {
      const triple = (/** @type {string} */ id) => {
        const at = figures[id]
        const modelCost = dollars(model[MODELLED[/** @type {keyof typeof MODELLED} */ (id)]])
        return at === undefined ? `${modelCost} / - / -` : `${modelCost} / ${dollars(at.costAsModelled)} / ${dollars(at.cost)}`
      }
      const shares = others.map((column) => {
        const at = figures[column.id]
        return at === undefined ? '-' : `${share(at.cachedShare.mean)} / ${share(at.cachedShare.minAfterFirst)}`
      })
      lines.push(`| ${row.label} | ${steps} | ${modelled.map((column) => triple(column.id)).join(' | ')} | ${model.searches}, ${model.breaks}; ${figures.native === undefined ? '-' : `${figures.native.toolSearches}, ${figures.native.cacheBreaks}`} | ${shares.join(' | ')} |`)
    }
  }
  lines.push('')
  return lines
}

/** @param {{id: string, label: string}} column */
function columnName({ id, label }) {
  return id === BASELINE ? 'Without the plugin' : `\`${label}\``
}
