/**
 * An in-process DSH: the real core plugins (llm, session, system-prompt, tools, agent registry,
 * agent loop, and on request JSONL persistence, file settings and the worker-thread code runtime),
 * the real `dsh-tool-todo`, fixture tools, and this plugin. Only the model is scripted.
 */

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Context } from '@deepseek-ai/cordis'
import AgentRegistry, { type Agent, type AgentHandle, type CreateAgentOptions } from '@deepseek-ai/dsh-agent'
import AgentLoop from '@deepseek-ai/dsh-agent-loop'
import * as CommandCompact from '@deepseek-ai/dsh-command-compact'
import CommandRuntime from '@deepseek-ai/dsh-commands'
import BasicCompactionEngine from '@deepseek-ai/dsh-compaction-basic'
import ToolResultPruner from '@deepseek-ai/dsh-compaction-tool-result-pruner'
import type { CodeRuntime } from '@deepseek-ai/dsh-code-runtime'
import WorkerThreadCodeRuntime from '@deepseek-ai/dsh-code-runtime-worker-thread'
import LlmRuntime, { createUserMessage } from '@deepseek-ai/dsh-llm'
import SessionStore, { SessionId } from '@deepseek-ai/dsh-session'
import JsonlSessionPersistence from '@deepseek-ai/dsh-session-persistence-jsonl'
import * as AgentLoopInvariant from '@deepseek-ai/dsh-agent-loop/invariant'
import * as AgentInvariant from '@deepseek-ai/dsh-agent/invariant'
import InvariantRegistry from '@deepseek-ai/dsh-invariants'
import * as SessionInvariant from '@deepseek-ai/dsh-session/invariant'
import FileSettingsProvider from '@deepseek-ai/dsh-settings-file'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import * as ToolTodo from '@deepseek-ai/dsh-tool-todo'
import TokenMeter from '@deepseek-ai/dsh-token-meter'
import ToolRuntime, { type ToolPresentationMode } from '@deepseek-ai/dsh-tools'
import * as ToolsInvariant from '@deepseek-ai/dsh-tools/invariant'
import * as ToolSearch from '../../plugin/index.ts'
import type { Config } from '../../plugin/host/config.ts'
import type { NativeLoad } from '../../plugin/host/native.ts'
import { CORE_FIXTURES, DEFERRED_FIXTURES, registerFixtures, type CallLog, type FixtureTool } from './fixtures.ts'
import { ScriptedModel, type Step } from './scripted-model.ts'

export interface HarnessOptions {
  /** `tools` row presentation mode; `code`/`both` also mount a code runtime. */
  readonly mode?: ToolPresentationMode
  /** The code runtime for `code`/`both` (default: DSH's worker-thread TypeScript runtime). */
  readonly codeRuntime?: CodeRuntimePlugin
  /** Row config for this plugin; `false` leaves the plugin out (a baseline DSH). */
  readonly plugin?: Partial<Config> | false
  /** The native core's load the plugin is given (default: this process's, see plugin/host/native.ts). */
  readonly core?: NativeLoad
  /**
   * Mount `dsh-settings-file` on a fresh document in a temporary directory; a provider class built
   * on it (a later DSH's emulated service) is mounted in its place.
   */
  readonly settings?: boolean | typeof FileSettingsProvider
  /** Mount JSONL session persistence under this directory (see {@link tempDir}). */
  readonly persistenceRoot?: string
  /** Its on-disk encoding: DSH's default zstd, or plain JSONL (`none`). */
  readonly persistenceCompression?: 'zstd' | 'none'
  /** Fixture tools to register before the plugin loads (default: core + deferred fixtures). */
  readonly tools?: readonly FixtureTool[]
  /**
   * Mount DSH's invariant service with the companions of the session log, the Agent, the loop
   * and the tool pipeline: a violated invariant then fails the turn.
   */
  readonly invariants?: boolean
  /**
   * Mount DSH's compaction as its base bundle does: the token meter, `dsh-compaction-basic`, the
   * tool-result pruner and `/compact` with the command registry. `true` gives the pruner the
   * bundle's budgets (results over 8,192 characters keep their first 4,096 and last 1,024);
   * budgets of its own stand for a user's tighter row config.
   */
  readonly compaction?: boolean | PrunerBudgets
  /**
   * A later DSH, emulated on the rc.8 packages (`later-hosts/`): its reshapings, installed before
   * anything is mounted and undone when the harness closes.
   */
  readonly reshape?: readonly HostReshaping[]
}

/**
 * One way a later DSH differs from rc.8, emulated (see `later-hosts/`). Each part is optional.
 */
export interface HostReshaping {
  /** Reshape what rc.8's modules hold (a prototype, a shared set); returns the undo. */
  readonly install?: () => () => void
  /** Mount the `tools` row (and, unless `mode` is native, the runtime) in place of rc.8's. */
  readonly tools?: (ctx: Context, mode: ToolPresentationMode, runtime: CodeRuntimePlugin) => Promise<void>
  /** The session persistence in place of rc.8's JSONL store (same config). */
  readonly persistence?: typeof JsonlSessionPersistence
}

/** The tool-result pruner's config. */
export interface PrunerBudgets {
  readonly thresholdChars: number
  readonly headChars: number
  readonly tailChars: number
}

/** The budgets DSH's base bundle gives the tool-result pruner. */
export const BUNDLE_PRUNER: PrunerBudgets = { thresholdChars: 8192, headChars: 4096, tailChars: 1024 }

export interface Harness {
  readonly ctx: Context
  readonly model: ScriptedModel
  /** Every fixture tool execution. */
  readonly log: CallLog
  /** Every warning logged through cordis, formatted. */
  readonly warnings: string[]
  /** Every error logged through cordis, formatted. */
  readonly errors: string[]
  /** Create an Agent through `ctx.agents.create` (the path Web and subagents use). */
  agent(id: string, options?: Omit<CreateAgentOptions, 'sessionId' | 'agentOptions'>): Promise<AgentHandle>
  /** Resume a persisted session through `ctx.agents.resume`. */
  resume(id: string): Promise<AgentHandle>
  /**
   * Run `/compact` on an idle Agent as a user would (needs {@link HarnessOptions.compaction});
   * its summary is the next scripted step.
   * @returns the command's result text.
   */
  compact(agent: Agent, summary: Step): Promise<string>
  /**
   * Create an Agent on a copy of `parent`'s session, as DSH's Web fork and subagent_fork do: seeded
   * with its events (all of them, or the prefix a store's fork cut) and naming it as the parent.
   */
  fork(id: string, parent: Agent, seed?: NonNullable<CreateAgentOptions['seed']>): Promise<AgentHandle>
  /**
   * Run one user turn with the given model steps and wait until the Agent is idle again.
   * @throws when the Agent reported an error or left scripted steps unused.
   */
  run(agent: Agent, text: string, ...steps: Step[]): Promise<void>
  close(): Promise<void>
}

export type CodeRuntimePlugin = typeof WorkerThreadCodeRuntime | (new (ctx: Context) => CodeRuntime)

const MODEL = { provider: 'mock', model: 'mock' } as const

/** The row config a test of native loading pins (the shipped default is `stable`). */
export const NATIVE = { loading: 'native' } as const

export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const undo = (options.reshape ?? []).flatMap(reshaping => (reshaping.install === undefined ? [] : [reshaping.install()]))
  const restore = (): void => { for (const step of undo.splice(0).reverse()) step() }
  try {
    return await mount(options, restore)
  } catch (error) {
    restore()
    throw error
  }
}

async function mount(options: HarnessOptions, restore: () => void): Promise<Harness> {
  const later = (part: 'tools' | 'persistence') => options.reshape?.find(reshaping => reshaping[part] !== undefined)
  const ctx = new Context()
  const model = new ScriptedModel()
  const agentErrors: unknown[] = []
  const warnings: string[] = []
  const errors: string[] = []
  const cleanup: string[] = []
  // Level 2 is cordis' WARN; the default threshold (1) would drop warnings.
  ctx.logger.exporter({ levels: { default: 2 }, export: (message) => {
    if (message.type === 'warn') warnings.push(message.args.map(String).join(' '))
    if (message.type === 'error') errors.push(message.args.map(String).join(' '))
  } })

  await ctx.plugin(LlmRuntime)
  await ctx.plugin(SessionStore)
  if (options.invariants === true) {
    await ctx.plugin(InvariantRegistry, { enabled: true })
    for (const companion of [SessionInvariant, AgentInvariant, AgentLoopInvariant, ToolsInvariant]) await ctx.plugin(companion)
  }
  await ctx.plugin(SystemPrompt, { persona: '' })
  const tools = later('tools')?.tools
  const runtime = options.codeRuntime ?? WorkerThreadCodeRuntime
  if (tools === undefined) await ctx.plugin(ToolRuntime, { mode: options.mode ?? 'native' })
  else await tools(ctx, options.mode ?? 'native', runtime)
  await ctx.plugin(AgentRegistry)
  await ctx.plugin(AgentLoop, { agents: [] })
  if (options.persistenceRoot !== undefined) {
    await ctx.plugin(later('persistence')?.persistence ?? JsonlSessionPersistence, { root: options.persistenceRoot, compression: options.persistenceCompression ?? 'zstd' })
  }
  if (options.compaction !== undefined && options.compaction !== false) {
    await ctx.plugin(TokenMeter)
    await ctx.plugin(CommandRuntime)
    await ctx.plugin(BasicCompactionEngine)
    await ctx.plugin(CommandCompact)
    await ctx.plugin(ToolResultPruner, options.compaction === true ? BUNDLE_PRUNER : options.compaction)
  }
  if (options.settings !== undefined && options.settings !== false) {
    const dir = await tempDir()
    cleanup.push(dir)
    await ctx.plugin(options.settings === true ? FileSettingsProvider : options.settings, { path: join(dir, 'settings.yaml') })
  }
  if ((options.mode ?? 'native') !== 'native' && tools === undefined) await ctx.plugin(runtime, {})
  ctx.llm.registerAdapter(['mock'], model)
  await ctx.plugin(ToolTodo, { allowParallelInProgress: true })
  const log = registerFixtures(ctx, options.tools ?? [...CORE_FIXTURES, ...DEFERRED_FIXTURES])
  if (options.plugin !== false) {
    const { core } = options
    const plugin = core === undefined ? ToolSearch : { ...ToolSearch, apply: (c: Context, config: Config) => { ToolSearch.applyWith(c, config, core) } }
    await ctx.plugin(plugin, options.plugin ?? {})
  }
  ctx.on('agent/error', ({ error }) => { agentErrors.push(error) })

  return {
    ctx,
    model,
    log,
    warnings,
    errors,
    agent: (id, extra = {}) => ctx.agents.create({ ...extra, sessionId: SessionId(id), agentOptions: MODEL }),
    resume: id => ctx.agents.resume({ resumeSessionId: SessionId(id), agentOptions: MODEL }),
    async compact(agent, summary) {
      model.script(summary)
      const done = await ctx.commands.execute(agent, '/compact', [], new AbortController().signal)
      if (done === undefined) throw new Error('/compact is not registered')
      if (done.result.kind !== 'success') throw new Error(`/compact failed: ${done.result.text ?? ''}`)
      return done.result.text ?? ''
    },
    fork: (id, parent, seed = parent.session.events) => ctx.agents.create({
      seed,
      meta: { parentSession: parent.id, seedLength: seed.length },
      sessionId: SessionId(id),
      agentOptions: MODEL,
    }),
    async run(agent, text, ...steps) {
      const before = agentErrors.length
      model.script(...steps)
      agent.followup(createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }))
      await agent.whenIdle()
      if (agentErrors.length > before) throw new Error(`agent ${agent.id} failed: ${String(agentErrors.at(-1))}`)
      if (model.pending > 0) throw new Error(`agent ${agent.id} left ${model.pending} scripted step(s) unused`)
    },
    async close() {
      await ctx.fiber.dispose()
      restore()
      for (const dir of cleanup) await rm(dir, { recursive: true, force: true })
    },
  }
}

/** A fresh temporary directory (the caller removes it). */
export function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'dsh-tool-search-'))
}
