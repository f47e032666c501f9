// The runs under `loading: stable` (settings.yaml), in native and Code Mode: the scripted model
// searches twice and runs each tool it found, through call_tool natively and inside run_code in
// Code Mode. Every model request must carry the same `tools` bytes (and in Code Mode the same
// SDK section): no search may end DeepSeek's cached prompt prefix. The found tools must really
// run, and the fixture plugin's post-execute and approval hooks must see their real names.
import { isDeepStrictEqual } from 'node:util'
import { completedCalls, offeredTools, parseJson, sdkSection, systemPrompt } from './observe.mjs'
import { FIXTURE_TOOLS, QUERY, TARGET } from './scenarios.mjs'

const CITY = { city: 'Paris' }
const CURRENCY = 'convert_currency'
const MONEY = { amount: 100, from: 'EUR', to: 'JPY' }
const MONEY_QUERY = 'change an amount of euros into japanese yen'
const ANSWER_PREFIX = 'Scripted answer:'
/** The fixture tool whose call asks for approval in these runs (DSH_E2E_FIXTURE_ASK). */
export const ASKED = CURRENCY
export const STABLE_SETTINGS = 'tool-search:\n  loading: stable\n'

const call = (name, args) => ({ toolCalls: [{ name, arguments: args }] })
const runCode = (code, description) => call('run_code', { code, description })
const answer = (result) => ({ text: `${ANSWER_PREFIX} ${result}` })
/** The first tool a search result names: its JSON comes before the definitions. */
const topHit = (text) => parseJson(text.split('\n\n')[0])?.tools?.[0]?.name

/** @param {'native' | 'code'} mode */
export function stableScenario(mode) {
  return mode === 'native' ? nativeStable : codeStable
}

const nativeStable = {
  model(body) {
    const calls = completedCalls(body)
    if (calls.length === 0) return call('tool_search', { query: QUERY })
    if (calls.length === 1) return call('call_tool', { name: topHit(calls[0].result) ?? 'none', arguments: CITY })
    if (calls.length === 2) return call('tool_search', { query: MONEY_QUERY })
    if (calls.length === 3) return call('call_tool', { name: topHit(calls[2].result) ?? 'none', arguments: MONEY })
    return answer(calls.at(-1).result)
  },
  check(observed, checks) {
    sharedChecks(observed, checks)
    const offered = observed.requests.map(offeredTools)
    checks.add('every request offers tool_search and call_tool and none of the fixture tools', offered.length > 0 && offered.every((names) =>
      names.includes('tool_search') && names.includes('call_tool') && FIXTURE_TOOLS.every((name) => !names.includes(name))), { observed: offered })
    const search = completedCalls(observed.requests[1])[0]
    checks.add('the search result is the selecting JSON, then the found tool\'s definition with its arguments', topHit(search?.result ?? '') === TARGET
      && search.result.includes(`## ${TARGET}`) && search.result.includes('arguments: {\n  city: string'), { observed: search?.result })
  },
}

const codeStable = {
  model(body) {
    const calls = completedCalls(body)
    const search = (query) => runCode(`return await tools.tool_search(${JSON.stringify({ query })})`, 'Find a tool')
    const run = (name, args) => runCode(`return await tools[${JSON.stringify(name ?? 'none')}](${JSON.stringify(args)})`, 'Run the found tool')
    if (calls.length === 0) return search(QUERY)
    if (calls.length === 1) return run(parseJson(calls[0].result)?.tools?.[0]?.name, CITY)
    if (calls.length === 2) return search(MONEY_QUERY)
    if (calls.length === 3) return run(parseJson(calls[2].result)?.tools?.[0]?.name, MONEY)
    return answer(calls.at(-1).result)
  },
  check(observed, checks) {
    sharedChecks(observed, checks)
    const offered = observed.requests.map(offeredTools)
    checks.add('every request offers only run_code', offered.length > 0 && offered.every((names) => isDeepStrictEqual(names, ['run_code'])), { observed: offered })
    const sdks = observed.requests.map((request) => sdkSection(systemPrompt(request)))
    checks.add('every request carries the same tools:sdk section, declaring tool_search and no fixture tool', sdks.every((sdk) => sdk !== undefined && sdk.text === sdks[0].text)
      && sdks[0].declared.includes('tool_search') && FIXTURE_TOOLS.every((name) => !sdks[0].declared.includes(name)), {
      observed: sdks.map((sdk) => sdk && { chars: sdk.text.length, declared: sdk.declared }),
    })
    const search = completedCalls(observed.requests[1])[0]
    checks.add('the search result declares the found tool in TypeScript for run_code', search?.result?.includes(`tools.${TARGET}(args: {`) ?? false, { observed: search?.result })
  },
}

/** What both presentations must show. */
function sharedChecks(observed, checks) {
  checks.add('dsh exited 0', observed.dsh.code === 0 && !observed.dsh.timedOut, {
    expected: 0, observed: observed.dsh.timedOut ? 'timed out' : observed.dsh.code ?? observed.dsh.signal,
  })
  checks.add('the scripted model had an answer for every request', observed.failures.length === 0, { observed: observed.failures })
  checks.add('the agent made 5 model requests (two searches, two found-tool calls, the answer)', observed.requests.length === 5, {
    expected: 5, observed: observed.requests.length,
  })
  const bytes = observed.requests.map((request) => JSON.stringify(request.tools))
  checks.add('every model request carries the same tools bytes', bytes.length === 5 && bytes.every((text) => text === bytes[0]), {
    observed: bytes.map((text) => `${text.length} bytes`),
  })
  const expected = [{ tool: TARGET, args: CITY }, { tool: CURRENCY, args: MONEY }]
  checks.add('both found tools ran once each, with the model\'s arguments', isDeepStrictEqual(observed.fixtureCalls.map(({ tool, args }) => ({ tool, args })), expected), {
    expected, observed: observed.fixtureCalls,
  })
  const hooks = observed.hooks.map(({ hook, tool }) => `${hook} ${tool}`)
  checks.add('post-execute saw each found tool by its real name, and approval the asked one', isDeepStrictEqual(hooks, [`post-execute ${TARGET}`, `approval ${CURRENCY}`, `post-execute ${CURRENCY}`]), {
    observed: hooks,
  })
  const asked = observed.session.filter((event) => event.type === 'approval/asked').map((event) => event.data.toolName)
  checks.add('the session log records the approval under the real tool name', isDeepStrictEqual(asked, [CURRENCY]), { observed: asked })
  const last = completedCalls(observed.requests.at(-1)).at(-1)
  checks.add('the last found tool\'s result, carrying this run\'s nonce, reached the model', last?.result?.includes(observed.nonce) === true, { observed: last?.result })
  checks.add('dsh printed the final answer', observed.dsh.stdout.includes(ANSWER_PREFIX) && observed.dsh.stdout.includes(observed.nonce), {
    observed: observed.dsh.stdout.trim().slice(-400),
  })
}
