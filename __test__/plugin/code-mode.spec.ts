import { afterEach, describe, expect, it } from 'vitest'
import { renderOfferedSdk } from '../../plugin/offer/sdk.ts'
import { DEFERRED_NAMES } from '../support/fixtures.ts'
import { createHarness, type Harness, NATIVE } from '../support/harness.ts'
import { DeclarationOnlyPythonRuntime, runCode, sdkTools } from '../support/code-runtime.ts'
import { reply, toolCall } from '../support/scripted-model.ts'
import { foundNames, loggedDispatch, loggedResult } from '../support/session.ts'

const WEATHER = 'mcp__weather__forecast'
const GITHUB = 'mcp__github__create_issue'

let harness: Harness
afterEach(async () => { await harness.close() })

describe('Code Mode (`code`): only run_code is native, tools live in the SDK section', () => {
  it('declares only offered tools in the SDK, and a search made inside run_code commits and shows up', async () => {
    harness = await createHarness({ plugin: NATIVE, mode: 'code' })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'weather in Paris?',
      runCode('c1', 'const found = await tools.tool_search({ query: "weather forecast" }); return found.tools.map(t => t.name)'),
      runCode('c2', `return await tools.${WEATHER}({ city: "Paris" })`),
      reply('sunny'))

    const [first, second] = harness.model.requests
    expect(harness.model.toolNames(first)).toEqual(['run_code'])
    expect(sdkTools(harness.model.system(first))).toEqual(['bash', 'grep', 'read', 'todo_write', 'tool_search'])

    expect(foundNames(loggedDispatch(agent, 'c1:code:1'))).toContain(WEATHER)
    expect(harness.model.toolNames(second)).toEqual(['run_code'])
    expect(sdkTools(harness.model.system(second))).toEqual(['bash', 'grep', WEATHER, 'read', 'todo_write', 'tool_search'].sort())
    expect(loggedResult(agent, 'c2').isError).toBe(false)
    expect(harness.log.calls).toEqual([{ name: WEATHER, args: { city: 'Paris' } }])
  })

  it('renders exactly DSH\'s own SDK text when nothing is hidden', async () => {
    harness = await createHarness({ mode: 'code', plugin: { ...NATIVE, alwaysVisible: DEFERRED_NAMES } })
    let original: string | undefined
    const { agent } = await harness.agent('a', {
      // An inner (non-prepended) listener sees the assembly DSH built, before the plugin filters it.
      setup: (agentCtx) => {
        agentCtx.on('system-prompt/assemble', async (_assembly, _context, next) => {
          const built = await next()
          original = built.sections.find(section => section.name === 'tools:sdk')?.text
          return built
        })
      },
    })
    await harness.run(agent, 'hi', reply('ok'))
    expect(original).toContain('interface ToolArgsMap')
    expect(harness.model.system()).toContain(original)
  })

  it('rebuilds the selection from run_code sub-calls when a fork attaches', async () => {
    harness = await createHarness({ plugin: NATIVE, mode: 'code' })
    const { agent: parent } = await harness.agent('parent')
    await harness.run(parent, 'weather?',
      runCode('c1', 'return (await tools.tool_search({ query: "weather forecast" })).tools.length'),
      reply('ok'))
    const { agent: child } = await harness.fork('child', parent)
    await harness.run(child, 'continue', reply('ok'))
    expect(sdkTools(harness.model.system())).toContain(WEATHER)
    expect(sdkTools(harness.model.system())).not.toContain(GITHUB)
  })

  it('commits a successful sub-call search even when the program fails afterwards, as replay does', async () => {
    harness = await createHarness({ plugin: NATIVE, mode: 'code' })
    const { agent: parent } = await harness.agent('parent')
    await harness.run(parent, 'weather?',
      runCode('c1', 'await tools.tool_search({ query: "weather forecast" }); throw new Error("program bug")'),
      reply('ok'))
    expect(loggedResult(parent, 'c1').isError).toBe(true)
    expect(sdkTools(harness.model.system())).toContain(WEATHER)

    // The sub-call's tool/code-dispatch event is logged whatever the program does next, so the
    // replayed selection of a fork agrees with the live one.
    const { agent: child } = await harness.fork('child', parent)
    await harness.run(child, 'continue', reply('ok'))
    expect(sdkTools(harness.model.system())).toContain(WEATHER)
  })

  it('a failed search inside run_code commits nothing', async () => {
    harness = await createHarness({ plugin: NATIVE, mode: 'code' })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'weather?',
      runCode('c1', 'try { await tools.tool_search({ query: "weather", limit: 50 }) } catch (e) { return String(e) }'),
      reply('ok'))
    expect(loggedDispatch(agent, 'c1:code:1').isError).toBe(true)
    expect(sdkTools(harness.model.system())).not.toContain(WEATHER)
  })
})

describe('`both`: native schemas and the SDK are filtered alike', () => {
  it('offers the same tools natively and in the SDK, before and after a native search', async () => {
    harness = await createHarness({ plugin: NATIVE, mode: 'both' })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast' }), reply('ok'))

    const [first, second] = harness.model.requests
    const offered = ['bash', 'grep', 'read', 'todo_write', 'tool_search']
    expect(harness.model.toolNames(first).sort()).toEqual([...offered, 'run_code'].sort())
    expect(sdkTools(harness.model.system(first))).toEqual(offered)
    expect(harness.model.toolNames(second).sort()).toEqual([...offered, 'run_code', WEATHER].sort())
    expect(sdkTools(harness.model.system(second))).toEqual([...offered, WEATHER].sort())
  })
})

describe('a Python code runtime', () => {
  it('gets the filtered SDK rendered by DSH\'s Python renderer', async () => {
    harness = await createHarness({ plugin: NATIVE, mode: 'code', codeRuntime: DeclarationOnlyPythonRuntime })
    const { agent } = await harness.agent('a')
    await harness.run(agent, 'hi', reply('ok'))
    const system = harness.model.system()
    expect(system).toContain('class Tools(Protocol)')
    expect(system).toMatch(/async def tool_search\(/)
    expect(system).toMatch(/async def bash\(/)
    expect(system).not.toContain(WEATHER)
  })
})

describe('a code runtime language the plugin has no renderer for', () => {
  // DSH 0.1.x itself rejects such a runtime before the plugin sees the assembly; a later DSH that
  // adds a language must not get the unfiltered SDK from this plugin either.
  it('fails the assembly with a clear error instead of leaking the SDK', async () => {
    harness = await createHarness({ plugin: NATIVE })
    const { agent } = await harness.agent('a')
    expect(() => renderOfferedSdk(harness.ctx, agent, ['bash'], 'lua'))
      .toThrow('dsh-tool-search: cannot filter the tools:sdk prompt section for PTC runtime language "lua" (known: typescript, python)')
  })
})
