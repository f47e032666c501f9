/**
 * Emulated: DSH 0.1.5+'s programmatic tool calling (PTC), which renamed rc.8's Code Mode, on the
 * real rc.8 `dsh-tools` and worker-thread code runtime. Sources (docs/dsh-versions.md, "PTC", lists them too):
 * zsagi1368/deepseek-harness-zDSH packages/core/tools/src/index.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68
 * (the `tools` row's mode `native | ptc | both`, the runtime read as `ctx.get('ptcRuntime')`, the
 * sections `tools:ptc-only` and `tools:sdk`), packages/core/tools/src/ptc.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e
 * (sub-call ids `<run_code call>:ptc:<n>`, events `tool/ptc-dispatch-start` and
 * `tool/ptc-dispatch`), packages/ptc-runtime/ptc-runtime/src/index.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e
 * (the `PtcRuntime` service: `language`, `isolation`, `resolve`, `run`), and the section orders
 * 800 and 5000 of karaka-ai/karaka packages/core/tools/README.md@cadc7643 (0.1.5-rc.2; 800 from
 * unattributed copies only).
 *
 * What changes for the plugin: the mode is `ptc` (rc.8's `code` is refused), the runtime is the
 * `ptcRuntime` service and no `codeRuntime` is mounted, the program-only rule is the section
 * `tools:ptc-only`, and `run_code`'s calls are logged under the ptc names and ids. The run itself
 * is rc.8's: the worker-thread runtime, mounted out of sight (an isolated `codeRuntime`) behind a
 * `ptcRuntime`. Not emulated: the `run_code` parameters and description of 0.1.7 (`timeoutMs`,
 * sandbox fields), the SDK renderers' text (the same exports, unverified text), the
 * `tools/ptc-dispatch-log` rename, `maxParallelSubCalls`'s schema.
 */

import { Service, type Context } from '@deepseek-ai/cordis'
import type { CodeRuntime, CodeRunRequest, CodeRunResult } from '@deepseek-ai/dsh-code-runtime'
import { Session } from '@deepseek-ai/dsh-session'
import ToolRuntime, { type ToolPresentationMode } from '@deepseek-ai/dsh-tools'
import z from '@deepseek-ai/schemastery'
import type { CodeRuntimePlugin, HostReshaping } from '../harness.ts'

/** The mode names of 0.1.5+. */
export type PtcMode = 'native' | 'ptc' | 'both'

/** What 0.1.7's `PtcRuntime` asks of a run: rc.8's request, plus where and how long. */
interface PtcRunRequest extends CodeRunRequest {
  readonly cwd?: string
  readonly timeoutMs?: number | null
}

/** A `ptcRuntime` service in front of an rc.8 code runtime that no other plugin can see. */
function ptcRuntimeOver(backend: CodeRuntime): new (ctx: Context) => Service {
  return class EmulatedPtcRuntime extends Service {
    readonly language = backend.language
    readonly isolation = backend.isolation
    readonly executionInstructions = ''

    constructor(ctx: Context) {
      super(ctx, 'ptcRuntime')
    }

    resolve(request: PtcRunRequest): PtcRunRequest {
      return { ...request, cwd: request.cwd ?? process.cwd(), timeoutMs: request.timeoutMs ?? null }
    }

    /** 0.1.7 runs what `resolve` made; rc.8's `run_code` underneath hands the request as is. */
    run(spec: PtcRunRequest): Promise<CodeRunResult> {
      return backend.run({ program: spec.program, bindings: spec.bindings, ...(spec.signal === undefined ? {} : { signal: spec.signal }) })
    }
  }
}

/** rc.8's section and runtime helpers, which the emulated tools row replaces (private in its types). */
interface ToolRuntimeInternals {
  collapseSection(): { name: string; order: number }
  sdkSection(): { name: string; order: number }
  requireCodeRuntime(mode: string): unknown
}

const RC8 = ToolRuntime.prototype as unknown as ToolRuntimeInternals

/** rc.8's tools row renamed: `ptc` for `code`, `ptcRuntime` for `codeRuntime`, `tools:ptc-only` for `tools:code-only`. */
class EmulatedPtcToolRuntime extends ToolRuntime {
  static override Config = z.object({
    mode: z.union(['native', 'ptc', 'both']).default('native'),
    maxParallelSubCalls: z.natural().min(1).default(10),
  }) as unknown as typeof ToolRuntime.Config

  constructor(ctx: Context, config: { mode?: PtcMode; maxParallelSubCalls?: number } = {}) {
    // rc.8's logic runs underneath, under its own name for the mode.
    super(ctx, { ...config, mode: config.mode === 'ptc' ? 'code' : config.mode ?? 'native' })
  }
}

Object.defineProperties(EmulatedPtcToolRuntime.prototype, {
  collapseSection: { value(this: ToolRuntimeInternals) { return { ...RC8.collapseSection.call(this), name: 'tools:ptc-only', order: 800 } } },
  sdkSection: { value(this: ToolRuntimeInternals) { return { ...RC8.sdkSection.call(this), order: 5000 } } },
  requireCodeRuntime: {
    value(this: { ctx: Context }, mode: string) {
      const runtime = this.ctx.get('ptcRuntime') as { language?: string } | undefined
      const shown = mode === 'code' ? 'ptc' : mode
      if (runtime === undefined) throw new Error(`dsh-tools: mode "${shown}" requires a PTC runtime — load a ctx.ptcRuntime implementation (e.g. @deepseek-ai/dsh-ptc-runtime-node) or set tools mode to "native"`)
      if (runtime.language !== 'typescript' && runtime.language !== 'python') {
        throw new Error(`dsh-tools: no SDK renderer registered for runtime language ${JSON.stringify(runtime.language)} (known: "typescript", "python")`)
      }
      return runtime
    },
  },
})

/** A `:code:<n>` step of a sub-call id, as 0.1.5+ spells it. */
const ptcId = (id: unknown): unknown => (typeof id === 'string' ? id.replace(/:code:(\d+)/g, ':ptc:$1') : id)

/** Whether the caller of `append` (the frame below it) is rc.8's `dsh-tools`, not the plugin. */
const fromDshTools = (): boolean => /[/\\]dsh-tools[/\\]lib[/\\]/.test((new Error().stack ?? '').split('\n')[3] ?? '')

/**
 * The reshaping: the tools row and its runtime renamed, and the events `run_code` logs. A harness
 * `mode` of rc.8's names maps `code` to `ptc`.
 */
export function laterPtcTools(): HostReshaping {
  return {
    async tools(ctx: Context, mode: ToolPresentationMode, runtime: CodeRuntimePlugin) {
      const ptcMode: PtcMode = mode === 'code' ? 'ptc' : mode
      // The row's config in 0.1.5's names, which rc.8's types do not have.
      await ctx.plugin(EmulatedPtcToolRuntime, { mode: ptcMode } as unknown as { mode: ToolPresentationMode })
      if (mode === 'native') return
      const hidden = ctx.isolate('codeRuntime')
      await hidden.plugin(runtime, {})
      const backend = hidden.get('codeRuntime') as CodeRuntime | undefined
      if (backend === undefined) throw new Error('the emulated ptcRuntime found no code runtime to run programs on')
      await ctx.plugin(ptcRuntimeOver(backend))
    },
    install() {
      const append = Object.getOwnPropertyDescriptor(Session.prototype, 'append')
      const original = append?.value as ((this: Session, type: string, data: Record<string, unknown>, ...rest: unknown[]) => unknown) | undefined
      if (original === undefined) throw new Error('rc.8\'s Session.append is not where the emulation expects it')
      Object.defineProperty(Session.prototype, 'append', {
        configurable: true,
        writable: true,
        value(this: Session, type: string, data: Record<string, unknown>, ...rest: unknown[]) {
          if (!type.startsWith('tool/code-dispatch') || !fromDshTools()) return original.call(this, type, data, ...rest)
          const renamed = { ...data, subCallId: ptcId(data.subCallId), parentCallId: ptcId(data.parentCallId) }
          return original.call(this, type.replace('tool/code-dispatch', 'tool/ptc-dispatch'), renamed, ...rest)
        },
      })
      return () => { Object.defineProperty(Session.prototype, 'append', append as PropertyDescriptor) }
    },
  }
}
