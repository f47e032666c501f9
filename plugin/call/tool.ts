/**
 * `call_tool({name, arguments})`: under `loading: stable` the one tool through which the model
 * runs a tool that `tool_search` found, so that found tools never join the request's `tools`.
 *
 * The call is checked here (the name, the arguments' shape and size, the target's schema), and
 * then the real tool runs through `ToolRuntime.execute` with the calling Agent, this call's
 * token as `parent` and its abort signal: the same stages a native call takes (pre-execute,
 * approval and guards under the real name, `tools/execute`, the body, post-execute,
 * `finalizeContent`, `tools/result`), as `run_code`'s sub-calls do. Its content becomes this
 * call's content, its failure this call's failure, and the context it defers or its ending of the
 * turn are passed on. Bad input never reaches the target's body.
 */

import type { Agent } from '@deepseek-ai/dsh-agent'
import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import type { JsonValue } from '@deepseek-ai/dsh-session'
import type { ToolCallView, ToolDefinition, ToolResultView, ToolRuntime } from '@deepseek-ai/dsh-tools'
import { CALL_TOOL_NAME, MAX_CALL_ARGUMENTS_CHARS } from '../contract.ts'
import { CallId } from '../host/dsh/ids.ts'
import { schemaViolations } from './schema-check.ts'

/** What `call_tool` asks of the plugin: which tool a call may run, and how to show one. */
export interface CallRules {
  /**
   * The definition `agent` runs as `name`.
   * @throws (rejects with) an Error that says why it may not (unknown, blocked, not found yet,
   *   recursive) and what to do instead.
   */
  target(agent: Agent | undefined, name: string): Promise<ToolDefinition>
  /** The definition to present a call of `name` with, as far as one can be told without an Agent. */
  presenter(name: string): ToolDefinition | undefined
}

export const CALL_TOOL_DESCRIPTION = 'Run a tool that tool_search found. tool_search returns each found tool\'s '
  + 'definition (its description and parameters); pass the tool\'s exact name and an arguments object that '
  + 'matches those parameters. The tool runs exactly as if you had called it directly, with the same approval '
  + 'and result. Tools you were given directly are called directly, not through call_tool.'

/**
 * @param tools - the registry the target runs in.
 * @param rules - the plugin's answer to which tool a call may run.
 * @returns the registry-ready definition.
 */
export function createCallTool(tools: Pick<ToolRuntime, 'execute'>, rules: CallRules): ToolDefinition {
  // A failed target's own content (its error text, a policy's feedback), keyed by the call that
  // ran it: a thrown error would otherwise reach the model as a bare `Error: message`.
  const failures = new WeakMap<object, { readonly message: string; readonly content: ContentBlock[] }>()
  return {
    name: CALL_TOOL_NAME,
    description: CALL_TOOL_DESCRIPTION,
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The exact name of a tool tool_search returned.' },
        arguments: { type: 'object', description: 'The tool\'s arguments, matching its parameters ({} when it takes none).' },
      },
      required: ['name'],
      additionalProperties: false,
    },
    output: {
      schema: {},
      render: (_args, value) => (value as unknown as { content: ContentBlock[] }).content,
    },
    async execute(raw, exec) {
      const name = readName(raw)
      const target = await rules.target(exec.agent, name)
      const args = readArguments(field(raw, 'arguments'), name)
      const violations = schemaViolations(target.parameters, args)
      if (violations.length > 0) {
        throw new Error(`call_tool: the arguments do not match ${name}'s parameters: ${violations.join('; ')}. `
          + `Its parameters: ${JSON.stringify(target.parameters)}`)
      }
      const result = await tools.execute({
        callId: CallId(`${String(exec.callId)}:call`),
        rootCallId: exec.rootCallId,
        name,
        arguments: args,
        ...(exec.agent === undefined ? {} : { agent: exec.agent }),
        parent: exec.token,
        signal: exec.signal,
      })
      for (const context of result.additionalContexts ?? []) exec.deferContext(context)
      if (result.isError) {
        failures.set(exec, { message: result.error.message, content: [...result.content] })
        throw new Error(result.error.message)
      }
      if (result.concludesTurn === true) exec.concludeTurn()
      return { content: result.content as unknown as JsonValue }
    },
    finalizeContent(exec, result) {
      const failure = failures.get(exec)
      // Only the target's own failure: a post-execute policy that blocked this call keeps its words.
      return result.isError && failure !== undefined && failure.message === result.error.message ? failure.content : undefined
    },
    presentCall(raw) {
      const args = presentable(raw)
      if (args === undefined) return undefined
      const view = safely(() => rules.presenter(args.name)?.presentCall?.(args.arguments))
      return view ?? genericCall(args)
    },
    presentResult(raw, result) {
      const args = presentable(raw)
      if (args === undefined) return undefined
      return safely((): ToolResultView | undefined => rules.presenter(args.name)?.presentResult?.(args.arguments, result))
    },
  }
}

/** The name of the tool to run, or an Error the model can act on. */
function readName(raw: unknown): string {
  const name = field(raw, 'name')
  if (typeof name !== 'string' || name.trim() === '') {
    throw new Error('call_tool: name must be the exact name of a tool tool_search returned, for example {"name": "mcp__github__create_issue", "arguments": {...}}')
  }
  return name.trim()
}

/**
 * The arguments object. A model that sends it as a JSON string of an object means the object, so
 * that string is read; anything else that is not an object is refused.
 */
function readArguments(raw: unknown, name: string): Record<string, unknown> {
  if (raw === undefined || raw === null) return {}
  const text = typeof raw === 'string' ? raw : undefined
  const size = text?.length ?? jsonLength(raw)
  if (size > MAX_CALL_ARGUMENTS_CHARS) {
    throw new Error(`call_tool: the arguments for ${name} are ${size} characters of JSON, more than the ${MAX_CALL_ARGUMENTS_CHARS} call_tool passes on; send less data per call`)
  }
  const value = text === undefined ? raw : parseObject(text)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`call_tool: arguments must be a JSON object of ${name}'s parameters (for example {"name": "${name}", "arguments": {}}), got ${Array.isArray(raw) ? 'an array' : typeof raw}`)
  }
  return value as Record<string, unknown>
}

function parseObject(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0
  } catch {
    return Infinity
  }
}

/** The parts of logged arguments a card can show, or undefined for arguments no call could have run with. */
function presentable(raw: unknown): { name: string; arguments: unknown } | undefined {
  const name = field(raw, 'name')
  return typeof name === 'string' && name.trim() !== '' ? { name: name.trim(), arguments: field(raw, 'arguments') ?? {} } : undefined
}

/** The card of a target that presents none: its real name, and its arguments. */
function genericCall(args: { name: string; arguments: unknown }): ToolCallView {
  return { card: 'generic', title: args.name, rawInput: args.arguments }
}

/** A presenter that throws falls back to the generic card, as DSH's own callers do. */
function safely<T>(present: () => T | undefined): T | undefined {
  try {
    return present()
  } catch {
    return undefined
  }
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined
}
