/**
 * What the Code Mode (PTC from DSH 0.1.5) tests share: a program call, the tools an SDK declares,
 * and a runtime that declares the Python SDK.
 */

import { CodeRuntime, type CodeRunResult } from '@deepseek-ai/dsh-code-runtime'
import { toolCall } from './scripted-model.ts'

/** A `run_code` call whose program is `code` (the body of an async TypeScript function). */
export function runCode(id: string, code: string) {
  return toolCall(id, 'run_code', { code, description: 'Run a program against the tools' })
}

/** The names declared in the TypeScript SDK's `ToolArgsMap` of one rendered system prompt. */
export function sdkTools(system: string): string[] {
  const args = /interface ToolArgsMap \{([\s\S]*?)\n\}/.exec(system)?.[1] ?? ''
  return [...args.matchAll(/^ {2}([A-Za-z_][A-Za-z0-9_]*): /gm)].map(match => match[1] ?? '').sort()
}

/**
 * DSH 0.1.x renders a Python SDK for a runtime whose language is `python`, but publishes no
 * Python backend. This stand-in implements DSH's abstract `CodeRuntime` seam so the Python
 * rendering path can be checked; no program is run.
 */
export class DeclarationOnlyPythonRuntime extends CodeRuntime {
  readonly language = 'python'
  readonly isolation = 'none'
  run(): Promise<CodeRunResult> {
    return Promise.reject(new Error('this test runtime declares the Python SDK but runs nothing'))
  }
}
