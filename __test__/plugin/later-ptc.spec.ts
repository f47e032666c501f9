// Code Mode as DSH 0.1.5 renamed it, programmatic tool calling (PTC), emulated on the real rc.8
// tools row and worker-thread runtime (__test__/support/later-hosts/ptc-tools.ts names its
// sources), beside 0.1.3 (rc.8's Code Mode under the later Session API): the mode `ptc`, the
// runtime reached only as `ptcRuntime`, the rule section `tools:ptc-only`, sub-calls logged as
// `tool/ptc-dispatch` under `<call>:ptc:<n>`. The plugin filters the SDK, commits a search made
// inside a program, and a resume through the emulated store replays it.
import { describe, expect, it } from 'vitest'
import type { PromptAssembly } from '@deepseek-ai/dsh-system-prompt'
import { DeclarationOnlyPythonRuntime, runCode, sdkTools } from '../support/code-runtime.ts'
import { NATIVE, type HarnessOptions } from '../support/harness.ts'
import { dsh013, dsh015, dsh017 } from '../support/later-hosts/session-hosts.ts'
import { perTest } from '../support/per-test.ts'
import { reply } from '../support/scripted-model.ts'
import { foundNames, loggedDispatch } from '../support/session.ts'

const WEATHER = 'mcp__weather__forecast'
const OFFERED = ['bash', 'grep', 'read', 'todo_write', 'tool_search']

const scope = perTest()

describe.each([
  { host: dsh013(), rule: 'tools:code-only', kind: 'code' },
  { host: dsh015(), rule: 'tools:ptc-only', kind: 'ptc' },
  { host: dsh017(), rule: 'tools:ptc-only', kind: 'ptc' },
])('$host.name', ({ host, rule, kind }) => {
  const on = (options: HarnessOptions = {}) => scope.harness({ mode: 'code', plugin: NATIVE, ...options, reshape: host.reshape })

  it('a search inside run_code commits, the SDK declares only what is offered, the rule section passes through, a resume replays the sub-call', async () => {
    const root = await scope.dir()
    const live = await on({ persistenceRoot: root })
    let built: PromptAssembly | undefined
    const { agent } = await live.agent('a1', {
      // An inner listener sees the assembly DSH built, before the plugin filters it.
      setup: (agentCtx) => {
        agentCtx.on('system-prompt/assemble', async (_assembly, _context, next) => (built = await next()))
      },
    })
    await live.run(agent, 'weather in Paris?',
      runCode('c1', 'const found = await tools.tool_search({ query: "weather forecast" }); return found.tools.map(t => t.name)'),
      reply('sunny'))
    const [first, second] = live.model.requests
    expect(live.model.toolNames(first)).toEqual(['run_code'])
    expect(sdkTools(live.model.system(first))).toEqual(OFFERED)
    expect(foundNames(loggedDispatch(agent, `c1:${kind}:1`))).toContain(WEATHER)
    expect(sdkTools(live.model.system(second))).toEqual([...OFFERED, WEATHER].sort())
    // The host's rule, as DSH wrote it, reaches the model untouched.
    const text = built?.sections.find(section => section.name === rule)?.text ?? ''
    expect(text).toContain('is the only tool you can call directly')
    expect(live.model.system(second)).toContain(text)
    await live.ctx.sessions.flush(agent.session)
    await scope.close(live)

    const resumed = await on({ persistenceRoot: root })
    const { agent: again } = await resumed.resume('a1')
    await resumed.run(again, 'and tomorrow?', reply('ok'))
    expect(sdkTools(resumed.model.system())).toEqual([...OFFERED, WEATHER].sort())
  })

  it('renders the SDK in the runtime\'s language: a Python runtime gets the Python SDK, filtered', async () => {
    const h = await on({ codeRuntime: DeclarationOnlyPythonRuntime })
    const { agent } = await h.agent('a')
    await h.run(agent, 'hi', reply('ok'))
    const system = h.model.system()
    expect(system).toContain('class Tools(Protocol)')
    expect(system).toMatch(/async def tool_search\(/)
    expect(system).not.toContain(WEATHER)
  })

  it('under stable loading, a search inside run_code defines the found tool for a program', async () => {
    const h = await on({ plugin: { loading: 'stable' } })
    const { agent } = await h.agent('a')
    await h.run(agent, 'the weather in Lyon',
      runCode('p1', 'const found = await tools.tool_search({ query: "weather forecast", limit: 1 }); return found'),
      runCode('p2', `return await tools.${WEATHER}({ city: "Lyon" })`),
      reply('done'))
    expect(loggedDispatch(agent, `p1:${kind}:1`).text).toContain(`tools.${WEATHER}(args: {`)
    expect(h.log.calls).toEqual([{ name: WEATHER, args: { city: 'Lyon' } }])
  })
})
