// What the scripted model does in each run, and what the run must show.
//
// The model decides from the conversation it is sent, like a real one: it
// searches, then calls whatever tool the search ranked first, then answers
// with the tool's result. The checks run afterwards on the recorded requests,
// so every verdict compares something DSH really sent or really did.
import { isDeepStrictEqual } from 'node:util'
import { fixtureTools } from '../fixture-plugin/tools.js'
import { completedCalls, mentions, offeredTools, parseJson, sdkSection, systemPrompt, withoutOutline } from './observe.mjs'

export const FIXTURE_TOOLS = fixtureTools(() => '').map((tool) => tool.name)
export const TARGET = 'get_weather_forecast'
/** What a user would ask; shares no identifier with the tool it should find. */
export const QUERY = "what's the weather forecast in Paris"
const CITY = { city: 'Paris' }
const ANSWER_PREFIX = 'Scripted answer:'
const OTHERS = FIXTURE_TOOLS.filter((name) => name !== TARGET)

const call = (name, args) => ({ toolCalls: [{ name, arguments: args }] })
const runCode = (code, description) => call('run_code', { code, description })
const answer = (result) => ({ text: `${ANSWER_PREFIX} ${result}` })
const topHit = (text) => parseJson(text)?.tools?.[0]?.name

/**
 * @param {{mode: 'native'|'code', withPlugin: boolean, missingBinary?: string, defer?: 'always'|'auto'}} run
 *   `missingBinary`: the plugin was installed without this platform package (name@version);
 *   `defer` is the plugin's setting: under `auto` the five fixture tools stay below its threshold.
 * @returns {{model: (body: object) => object, check: (observed: object, checks: import('./report.mjs').Checks) => void}}
 */
export function scenario({ mode, withPlugin, missingBinary, defer = 'always' }) {
  if (missingBinary !== undefined) return withoutBinary(missingBinary)
  if (mode === 'native') return !withPlugin ? nativeBaseline : defer === 'auto' ? nativeAutoBelowThreshold : nativeSearch
  return withPlugin ? codeSearch : codeBaseline
}

/**
 * The model of a scenario that searches: `search` first, then `use` the top hit on the city (or
 * say that the search found nothing), then answer with what the tool returned.
 * @param {() => unknown} search
 * @param {(found: string) => unknown} use
 */
function searchThenUse(search, use) {
  return (body) => {
    const calls = completedCalls(body)
    if (calls.length === 0) return search()
    if (calls.length === 1) {
      const found = topHit(calls[0].result)
      return found ? use(found) : answer('tool_search found nothing')
    }
    return answer(calls.at(-1).result)
  }
}

const nativeSearch = {
  model: searchThenUse(() => call('tool_search', { query: QUERY }), (found) => call(found, CITY)),
  check(observed, checks) {
    const [first, second, third] = observed.requests
    commonChecks(observed, checks, 3)
    checks.add('request 1 offers tool_search', offeredTools(first).includes('tool_search'), {
      observed: offeredTools(first),
    })
    checks.add('request 1 offers none of the fixture tools', first !== undefined && fixturesIn(offeredTools(first)).length === 0, {
      expected: [], observed: fixturesIn(offeredTools(first)),
    })
    const search = completedCalls(second).find((done) => done.name === 'tool_search')
    searchResultChecks(checks, search?.arguments?.query, search?.result, { compact: true })
    checks.add('request 2 offers the found tool', offeredTools(second).includes(TARGET), {
      expected: TARGET, observed: fixturesIn(offeredTools(second)),
    })
    checks.add('request 2 offers none of the other fixture tools', second !== undefined && othersIn(offeredTools(second)).length === 0, {
      expected: [], observed: othersIn(offeredTools(second)),
    })
    const used = completedCalls(third)[1]
    checks.add('the model called the found tool by its real name', used?.name === TARGET, {
      expected: TARGET, observed: used?.name,
    })
    executionChecks(observed, checks, used?.result)
  },
}

const codeSearch = {
  model: searchThenUse(
    () => runCode(`return await tools.tool_search(${JSON.stringify({ query: QUERY })})`, 'Find a tool for the forecast'),
    (found) => runCode(`return await tools[${JSON.stringify(found)}](${JSON.stringify(CITY)})`, 'Get the Paris forecast'),
  ),
  check(observed, checks) {
    const [first, second, third] = observed.requests
    commonChecks(observed, checks, 3)
    onlyRunCodeCheck(observed, checks)
    const before = sdkSection(systemPrompt(first))
    checks.add('request 1 has a tools:sdk section', before !== undefined, { observed: before ? `${before.text.length} chars` : 'absent' })
    checks.add('request 1 SDK declares tool_search', before?.declared.includes('tool_search') === true, {
      observed: before?.declared,
    })
    checks.add('request 1 SDK mentions none of the fixture tools outside tool_search\'s catalog outline', before !== undefined && mentions(withoutOutline(before.text), FIXTURE_TOOLS).length === 0, {
      expected: [], observed: before && mentions(withoutOutline(before.text), FIXTURE_TOOLS),
    })
    const program = completedCalls(second)[0]
    searchResultChecks(checks, parseJson(program?.result ?? '')?.query, program?.result, { compact: false })
    const after = sdkSection(systemPrompt(second))
    checks.add('request 2 SDK declares the found tool', after?.declared.includes(TARGET) === true, {
      expected: TARGET, observed: after && fixturesIn(after.declared),
    })
    checks.add('request 2 SDK mentions none of the other fixture tools outside the outline', after !== undefined && mentions(withoutOutline(after.text), OTHERS).length === 0, {
      expected: [], observed: after && mentions(withoutOutline(after.text), OTHERS),
    })
    executionChecks(observed, checks, completedCalls(third)[1]?.result)
  },
}

const nativeBaseline = {
  // A plain function, not a method: the scenarios below reuse it as their own.
  model: (body) => {
    const calls = completedCalls(body)
    return calls.length === 0 ? call(TARGET, CITY) : answer(calls.at(-1).result)
  },
  check(observed, checks) {
    offeredUpFrontChecks(observed, checks, 'without the plugin')
  },
}

/** Under `defer: auto` with a catalog below the threshold, nothing is deferred: as the baseline. */
const nativeAutoBelowThreshold = {
  model: nativeBaseline.model,
  check(observed, checks) {
    offeredUpFrontChecks(observed, checks, 'under defer: auto, the fixture schemas below autoMinTokens')
  },
}

/**
 * The plugin without its platform package steps aside: the model is offered
 * every tool and calls the one it needs directly, as in the baseline, and
 * dsh's standard error says once why, naming the package and its install.
 */
function withoutBinary(spec) {
  return {
    model: nativeBaseline.model,
    check(observed, checks) {
      offeredUpFrontChecks(observed, checks, 'while the plugin steps aside')
      const said = observed.dsh.stderr.split('\n').filter((line) => line.startsWith('dsh-tool-search: '))
      const expected = 'dsh-tool-search: tool_search is off and every tool stays offered: the native search core did not load: this machine is '
      checks.add(`standard error says once that tool_search is off, naming ${spec} and how to install it`, said.length === 1
        && said[0].startsWith(expected) && said[0].includes(`whose core is the package ${spec}`) && said[0].includes(`add ${spec}.`), {
        expected: `${expected}..., whose core is the package ${spec}, ...`, observed: said,
      })
    },
  }
}

const codeBaseline = {
  model(body) {
    const calls = completedCalls(body)
    return calls.length === 0
      ? runCode(`return await tools[${JSON.stringify(TARGET)}](${JSON.stringify(CITY)})`, 'Get the Paris forecast')
      : answer(calls.at(-1).result)
  },
  check(observed, checks) {
    const [first, second] = observed.requests
    commonChecks(observed, checks, 2)
    onlyRunCodeCheck(observed, checks)
    const sdk = sdkSection(systemPrompt(first))
    checks.add('request 1 SDK declares every fixture tool (nothing deferred without the plugin)', sdk !== undefined && fixturesIn(sdk.declared).length === FIXTURE_TOOLS.length, {
      expected: FIXTURE_TOOLS, observed: sdk && fixturesIn(sdk.declared),
    })
    checks.add('request 1 SDK does not declare tool_search', sdk !== undefined && !sdk.declared.includes('tool_search'), {
      observed: sdk?.declared.includes('tool_search'),
    })
    executionChecks(observed, checks, completedCalls(second)[0]?.result)
  },
}

const fixturesIn = (names) => FIXTURE_TOOLS.filter((name) => names.includes(name))
const othersIn = (names) => OTHERS.filter((name) => names.includes(name))

function commonChecks(observed, checks, expectedRequests) {
  checks.add('dsh exited 0', observed.dsh.code === 0 && !observed.dsh.timedOut, {
    expected: 0, observed: observed.dsh.timedOut ? 'timed out' : observed.dsh.code ?? observed.dsh.signal,
  })
  checks.add('the scripted model had an answer for every request', observed.failures.length === 0, {
    observed: observed.failures,
  })
  checks.add(`the agent made ${expectedRequests} model requests`, observed.requests.length === expectedRequests, {
    expected: expectedRequests, observed: observed.requests.length,
  })
}

/**
 * A run in which every tool is offered from the first request (no deferral): two requests, the
 * fixture tool called directly on the first and its result answered on the second.
 */
function offeredUpFrontChecks(observed, checks, why) {
  const [first, second] = observed.requests
  commonChecks(observed, checks, 2)
  everyToolUpFront(first, checks, why)
  executionChecks(observed, checks, completedCalls(second)[0]?.result)
}

/** Request 1 offers every fixture tool and no tool_search, for the reason given. */
function everyToolUpFront(first, checks, why) {
  checks.add(`request 1 offers every fixture tool (nothing deferred ${why})`, fixturesIn(offeredTools(first)).length === FIXTURE_TOOLS.length, {
    expected: FIXTURE_TOOLS, observed: fixturesIn(offeredTools(first)),
  })
  checks.add('request 1 does not offer tool_search', first !== undefined && !offeredTools(first).includes('tool_search'), {
    observed: offeredTools(first).includes('tool_search'),
  })
}

function onlyRunCodeCheck(observed, checks) {
  const offered = observed.requests.map(offeredTools)
  checks.add('every request offers only run_code', offered.length > 0 && offered.every((names) => isDeepStrictEqual(names, ['run_code'])), {
    expected: ['run_code'], observed: offered,
  })
}

/** The search query, its result payload, and the ranking, as the model saw them. */
function searchResultChecks(checks, query, resultText, { compact }) {
  checks.add('the search query is natural language, not a tool name', query === QUERY && !FIXTURE_TOOLS.some((name) => query.includes(name)), {
    expected: QUERY, observed: query,
  })
  const problems = resultText === undefined ? ['no tool_search result in the next request'] : payloadProblems(resultText, compact)
  checks.add('the tool_search result is the canonical {schemaVersion:1, query, tools:[{name, description, score}]} payload', problems.length === 0, {
    observed: problems.length === 0 ? resultText : problems,
  })
  checks.add('the tool_search result carries no schemas', resultText !== undefined && !/"(parameters|properties)"/.test(resultText), {
    observed: resultText === undefined ? 'no result' : resultText.match(/"(parameters|properties)"/)?.[0] ?? 'none',
  })
  checks.add('tool_search ranks the weather tool first', topHit(resultText ?? '') === TARGET, {
    expected: TARGET, observed: parseJson(resultText ?? '')?.tools?.map?.((tool) => tool.name),
  })
}

/** Everything that can be wrong with a tool_search result text. */
function payloadProblems(text, compact) {
  const value = parseJson(text)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return ['not a JSON object']
  const problems = []
  // Native content is the persisted payload itself; in Code Mode it is
  // run_code's pretty rendering of the same value, so only native is compact.
  if (compact && text !== JSON.stringify(value)) problems.push('not compact canonical JSON')
  if (!isDeepStrictEqual(Object.keys(value), ['schemaVersion', 'query', 'tools'])) problems.push(`keys ${Object.keys(value).join(',')}`)
  if (value.schemaVersion !== 1) problems.push(`schemaVersion ${value.schemaVersion}`)
  if (value.query !== QUERY) problems.push(`query ${JSON.stringify(value.query)}`)
  if (!Array.isArray(value.tools) || value.tools.length === 0) return [...problems, 'tools is not a non-empty array']
  for (const [index, hit] of value.tools.entries()) {
    const where = `tools[${index}]`
    if (hit === null || typeof hit !== 'object') { problems.push(`${where} is not an object`); continue }
    if (!isDeepStrictEqual(Object.keys(hit), ['name', 'description', 'score'])) problems.push(`${where} keys ${Object.keys(hit).join(',')}`)
    if (typeof hit.name !== 'string' || hit.name === '') problems.push(`${where}.name`)
    if (typeof hit.description !== 'string' || hit.description.length > 240 || /\s{2}|[\n\t]/.test(hit.description)) {
      problems.push(`${where}.description is not collapsed text of at most 240 chars`)
    }
    if (!Number.isFinite(hit.score) || Number(hit.score.toFixed(6)) !== hit.score) problems.push(`${where}.score ${hit.score} has more than 6 decimals`)
  }
  return problems
}

/** The tool body really ran, its result went back to the model, and dsh printed the answer. */
function executionChecks(observed, checks, resultText) {
  checks.add('the fixture tool ran once, with the model\'s arguments', isDeepStrictEqual(observed.fixtureCalls.map(({ tool, args }) => ({ tool, args })), [{ tool: TARGET, args: CITY }]), {
    expected: [{ tool: TARGET, args: CITY }], observed: observed.fixtureCalls,
  })
  checks.add('its result, carrying this run\'s nonce, reached the model', resultText?.includes(observed.nonce) === true, {
    expected: observed.nonce, observed: resultText,
  })
  checks.add('dsh printed the final answer', observed.dsh.stdout.includes(ANSWER_PREFIX) && observed.dsh.stdout.includes(observed.nonce), {
    observed: observed.dsh.stdout.trim().slice(-400),
  })
}
