/**
 * Programmatic tool calling (PTC) as each DSH generation names it. rc.8 to 0.1.3 call it Code
 * Mode: the tools row's mode is `native | code | both`, the runtime is the `codeRuntime`
 * service, the program-only rule is the prompt section `tools:code-only`, a program's calls are
 * `<run_code call>:code:<n>`. From 0.1.5 it is PTC: `native | ptc | both`, `ptcRuntime`,
 * `tools:ptc-only`, `<run_code call>:ptc:<n>` (docs/dsh-versions.md, "PTC"; zsagi1368/deepseek-harness-zDSH
 * packages/core/tools/src/index.ts and ptc.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68).
 *
 * The plugin reads none of those names from configuration: it tells a presentation from what an
 * assembly carries (offer/prompt-filter.ts), leaves the program-only section as DSH wrote it, and
 * never parses a sub-call id. What it needs from the host is the runtime's language, which picks
 * the SDK renderer.
 */

import type { Context } from '@deepseek-ai/cordis'

/**
 * How an Agent's requests present tools. `ptc`: only `run_code` is a native tool, and every tool
 * is declared in the SDK section (the mode rc.8 calls `code`); `both`: native schemas and the
 * SDK; `native`: schemas only.
 */
export type Presentation = 'native' | 'ptc' | 'both'

/** The runtime services, the current name first (0.1.5+), then rc.8's. */
const RUNTIME_SERVICES = ['ptcRuntime', 'codeRuntime'] as const

/** What the plugin reads of a runtime (both generations declare `language` alike). */
interface Runtime {
  readonly language?: unknown
}

/**
 * The language of the mounted PTC runtime, which picks the SDK renderer as it does in DSH;
 * undefined when none is mounted or it names no language.
 */
export function ptcLanguage(ctx: Context): string | undefined {
  for (const service of RUNTIME_SERVICES) {
    const runtime = ctx.get(service) as Runtime | undefined
    if (runtime !== undefined) return typeof runtime.language === 'string' ? runtime.language : undefined
  }
  return undefined
}
