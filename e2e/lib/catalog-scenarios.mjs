// The runs after the main one, in the same DSH home, about what the model knows before it
// searches, both under `loading: native` (their found tools join the request's tools): with `prefetch: 3` in settings.yaml a model that never calls tool_search finds the
// weather tool offered on its first request; a `discover:` search returns the tool's parameters
// and the next request offers nothing new. Both runs also bridge the recorded GitHub MCP server
// through DSH's own MCP client (replayed by bench/tokens/mcp-replay-server.mjs), and check that
// the first request's tool_search description names its group.
import { isDeepStrictEqual } from 'node:util'
import { CODE_DISPATCH_EVENT, PREFETCH_RECORD, RECORD_ID_PREFIX } from '../../dist/contract.js'
import { mcpClientPatch } from './mcp-patch.mjs'
import { completedCalls, offeredTools, parseJson, sdkSection, systemPrompt } from './observe.mjs'
import { FIXTURE_TOOLS, QUERY, TARGET } from './scenarios.mjs'

const CITY = { city: 'Paris' }
const ANSWER_PREFIX = 'Scripted answer:'
/** The server name the MCP fixture is bridged under, and how the outline names its group. */
export const MCP_SERVER = 'github'
const GROUP = `MCP servers (tools named mcp__<server>__<tool>): ${MCP_SERVER} (26 tools: `

const call = (name, args) => ({ toolCalls: [{ name, arguments: args }] })
const runCode = (code, description) => call('run_code', { code, description })
const answer = (result) => ({ text: `${ANSWER_PREFIX} ${result}` })
const fixturesIn = (names) => FIXTURE_TOOLS.filter((name) => names.includes(name))

/**
 * The rows a patch layer inserts for these runs: DSH's MCP client on the replayed GitHub server.
 * @param {{node: string, server: string, fixture: string}} paths
 */
export function mcpPatch(paths) {
  return mcpClientPatch({ ...paths, serverName: MCP_SERVER })
}

/**
 * @param {'native' | 'code'} mode
 * @returns {{name: string, settings: string, model: (body: object) => object, check: (observed: object, checks: import('./report.mjs').Checks) => void}[]}
 */
export function catalogScenarios(mode) {
  return [prefetchRun(mode), discoverRun(mode)]
}

/** What one request offers the model: native tool names, or the names the Code Mode SDK declares. */
function offered(body, mode) {
  return mode === 'native' ? offeredTools(body) : sdkSection(systemPrompt(body))?.declared ?? []
}

/** tool_search's description as the model read it: the native definition, or the SDK text. */
function searchDescription(body, mode) {
  if (mode === 'code') return sdkSection(systemPrompt(body))?.text ?? ''
  return (body?.tools ?? []).find((tool) => tool.function?.name === 'tool_search')?.function.description ?? ''
}

function prefetchRun(mode) {
  return {
    name: 'prefetch',
    settings: 'tool-search:\n  loading: native\n  prefetch: 3\n',
    model(body) {
      const calls = completedCalls(body)
      if (calls.length > 0) return answer(calls.at(-1).result)
      if (!offered(body, mode).includes(TARGET)) return answer('the weather tool was not offered')
      return mode === 'native' ? call(TARGET, CITY) : runCode(`return await tools[${JSON.stringify(TARGET)}](${JSON.stringify(CITY)})`, 'Get the Paris forecast')
    },
    check(observed, checks) {
      const [first] = observed.requests
      runChecks(observed, checks, mode)
      checks.add('request 1 offers the weather tool, found from the user\'s message', offered(first, mode).includes(TARGET), {
        expected: TARGET, observed: fixturesIn(offered(first, mode)),
      })
      checks.add('request 1 offers none of the other fixture tools', fixturesIn(offered(first, mode)).length === 1, {
        observed: fixturesIn(offered(first, mode)),
      })
      const searched = observed.requests.flatMap(completedCalls).some((done) => done.name === 'tool_search' || /tool_search/.test(JSON.stringify(done.arguments)))
      checks.add('the model never called tool_search', !searched)
      checks.add('the weather tool ran once, with the model\'s arguments', isDeepStrictEqual(observed.fixtureCalls.map(({ tool, args }) => ({ tool, args })), [{ tool: TARGET, args: CITY }]), {
        observed: observed.fixtureCalls,
      })
      const records = observed.session.filter((event) => event.type === CODE_DISPATCH_EVENT && String(event.data?.rootCallId).startsWith(`${RECORD_ID_PREFIX}${PREFETCH_RECORD}:`))
      const recorded = records.flatMap((event) => parseJson(event.data.content?.[0]?.text ?? '')?.tools?.map((tool) => tool.name) ?? [])
      checks.add('the session log holds one prefetch record, naming the weather tool', records.length === 1 && recorded.includes(TARGET), {
        observed: records.map((event) => event.data),
      })
    },
  }
}

function discoverRun(mode) {
  const query = `discover:${QUERY}`
  return {
    name: 'discover',
    settings: 'tool-search:\n  loading: native\n',
    model(body) {
      const calls = completedCalls(body)
      if (calls.length > 0) return answer(calls.at(-1).result.length)
      return mode === 'native'
        ? call('tool_search', { query })
        : runCode(`return await tools.tool_search(${JSON.stringify({ query })})`, 'Look at the forecast tool')
    },
    check(observed, checks) {
      const [first, second] = observed.requests
      runChecks(observed, checks, mode)
      const result = parseJson(completedCalls(second)[0]?.result ?? '')
      const top = result?.tools?.[0]
      checks.add('the result is marked discover and returns the weather tool first', result?.discover === true && top?.name === TARGET, {
        observed: result === undefined ? completedCalls(second)[0]?.result : { discover: result.discover, tools: result.tools?.map((tool) => tool.name) },
      })
      checks.add('the weather tool comes with its full parameter schema', top?.parameters?.properties?.city?.type === 'string', {
        observed: top?.parameters,
      })
      checks.add('request 2 offers nothing new', isDeepStrictEqual(offered(second, mode), offered(first, mode)) && fixturesIn(offered(second, mode)).length === 0, {
        expected: offered(first, mode), observed: offered(second, mode),
      })
      checks.add('no fixture tool ran', observed.fixtureCalls.length === 0, { observed: observed.fixtureCalls })
    },
  }
}

/** What both runs must show: a clean exit, two requests, and the outline naming the MCP group. */
function runChecks(observed, checks, mode) {
  checks.add('dsh exited 0', observed.dsh.code === 0 && !observed.dsh.timedOut, {
    observed: observed.dsh.timedOut ? 'timed out' : observed.dsh.code ?? observed.dsh.signal,
  })
  checks.add('the scripted model had an answer for every request', observed.failures.length === 0, { observed: observed.failures })
  checks.add('the agent made 2 model requests', observed.requests.length === 2, { observed: observed.requests.length })
  const description = searchDescription(observed.requests[0], mode)
  const outline = description.indexOf('Deferred tools')
  checks.add(`request 1's tool_search description names the bridged MCP server's group ("${GROUP}...")`, description.includes(GROUP), {
    observed: outline < 0 ? 'no outline' : description.slice(outline, outline + 300),
  })
}
