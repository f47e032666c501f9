// The cost section of the benchmark report, rendered from the results' `cost` part alone (see
// bench/cost/cost.mjs for the model it describes).

import { dollars, int, list, pct, step } from './format.mjs'

/**
 * @typedef {ReturnType<typeof import('../cost/cost.mjs').costSection>} CostResults
 * @typedef {CostResults['rows'][number]['sessions'][number]} SessionCosts
 */

/**
 * @param {CostResults} cost
 * @returns {string[]} the section's Markdown lines.
 */
export function costLines({ parameters: { prices, session, sessionSteps, prefetch }, rows, breakEvenDeferredTokens: breakEven, eviction }) {
  const longest = Math.max(...sessionSteps)
  const searchSteps = []
  for (let at = 1; at <= longest; at += session.stepsPerTurn * session.searchEveryTurns) searchSteps.push(String(at))
  const lines = [
    '## Cost with prompt caching',
    '',
    `What whole sessions cost on an API with a prompt cache, modelled from the token table above (\`bench/cost/\`) and priced at ${prices.name}: `
      + `${prices.currency} ${prices.cacheHit} per million input tokens served from the cache, ${prices.cacheMiss} per million not served from it, `
      + `${prices.output} per million output tokens ([DeepSeek's price page](${prices.source}), as read on ${prices.date}). `
      + 'A request reaches the model as [system prompt][tools][conversation]: DSH\'s DeepSeek adapter sends the system prompt as the first message '
      + 'and the offered tools in the request\'s `tools` field (`serializeRequest` in @deepseek-ai/dsh-llm-deepseek\'s lib/index.js), and DeepSeek\'s '
      + 'encoding writes the tool schemas after the system prompt, before the first user message. The cache bills everything from the first token '
      + 'that changed at the full price. So while the offered tools stay the same, a step pays the full price only for what is new since the step '
      + 'before; when they change (a search found tools, prefetch added some) the tools and the whole conversation so far are billed uncached, once. '
      + 'The first request of a session is uncached. The system prompt, before the tools, costs the same either way and is left out.',
    '',
    `The sessions: a user message of ${int(session.userTokens)} tokens every ${session.stepsPerTurn} steps; each step adds a ${int(session.resultTokens)}-token `
      + `tool result and ${int(session.outputTokens)} tokens of output. While tools remain deferred the model searches at the start of ${everyTurns(session.searchEveryTurns)} `
      + `(steps ${list(searchSteps)} of ${longest}), each search a request of its own (${session.searchCallTokens} `
      + 'tokens of output, then its result) that adds the tools the token table\'s search found. '
      + `"Prefetch ${prefetch}" adds ${prefetch} more tools from the first request of every turn, on top of the searches. `
      + '"Saved" is against offering every tool; "break-even" is the step from which the session costs less than offering every tool and stays '
      + 'cheaper to its end ("never": it is not cheaper at the end).',
    '',
    `| Catalog | Steps | Every tool offered | Deferred | Saved | Break-even | Prefetch ${prefetch} | Saved | Break-even |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ]
  for (const row of rows) {
    for (const costs of row.sessions) lines.push(`| ${row.label} | ${costs.steps} | ${sessionCells(costs)} |`)
  }
  const thresholds = breakEven.sessions.map(({ steps, tokens }) => `${tokens === null ? 'no size' : `${int(tokens)} tokens`} over ${steps} steps`)
  lines.push(
    '',
    'Deferring saves cache hits on every step and, once, the uncached first request; each search costs a request and bills the conversation '
      + 'uncached once more. The later the search, the longer the conversation it re-bills. '
      + `For a catalog of typical tools (${breakEven.perTool} tokens each, ${breakEven.payload}-token search results, no core tools), these sessions make `
      + `deferring cheaper than offering every tool once the deferred schemas exceed ${list(thresholds)}.`,
    '',
    `Evicting tools (\`maxSelected\`) weighs the other way. Dropping one search's tools (${eviction.tools} of them, ${int(eviction.tokens)} tokens) `
      + `at step ${eviction.step} of the ${eviction.steps}-step session bills the conversation uncached once, ${dollars(eviction.cost)}, and saves `
      + `$${eviction.savedPerStep.toFixed(7)} on every later step: it pays for itself after ${int(eviction.paybackSteps)} steps. Where the offered tools `
      + 'change at that request anyway (a search, a prefetch), an eviction adds nothing to pay.',
    '',
  )
  return lines
}

/** @param {SessionCosts} costs */
function sessionCells({ cost, saved, savedPercent, breakEvenStep }) {
  return [
    dollars(cost.all),
    dollars(cost.deferred), `${dollars(saved.deferred)} (${pct(savedPercent.deferred)})`, step(breakEvenStep.deferred),
    dollars(cost.prefetch), `${dollars(saved.prefetch)} (${pct(savedPercent.prefetch)})`, step(breakEvenStep.prefetch),
  ].join(' | ')
}

/** @param {number} n - 1 or more. */
function everyTurns(n) {
  const ordinals = ['', '', 'second ', 'third ', 'fourth ', 'fifth ']
  return `every ${ordinals[n] ?? `${n}th `}turn`
}
