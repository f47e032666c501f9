/**
 * The found tools' definitions under `loading: stable`: what the model reads in place of the
 * native schemas that loading leaves out of the request. They stay in the conversation, so they
 * are rendered compactly: the description only where the search hit's 240-character summary cut
 * it (the hit is in the same result), the arguments as a TypeScript-like type (signature.ts; the
 * JSON Schema where that cannot say them in full), and the tool's own
 * `tool:<name>` prompt guidance when it has some. In Code Mode, where found tools are called
 * inside `run_code`, each comes as a declaration in the SDK's language instead of JSON.
 */

import type { JsonValue } from '@deepseek-ai/dsh-session'
import { jsonSchemaToTs, renderToolsSdkPy } from '@deepseek-ai/dsh-tools'
import { CALL_TOOL_NAME } from '../contract.ts'
import { parameterType } from './signature.ts'

/** One found tool's definition, as a stable result carries it. */
export interface PayloadDefinition {
  readonly name: string
  /** The full description, when the hit's summary does not already say all of it. */
  readonly description?: string
  /** The arguments as a TypeScript-like type (through `call_tool`; see signature.ts). */
  readonly arguments?: string
  /** The parameters' JSON Schema, where neither a type nor a declaration says them in full. */
  readonly parameters?: JsonValue
  /** A Code Mode declaration in the SDK's language. */
  readonly declaration?: string
  /** The tool's `tool:<name>` prompt section. */
  readonly guidance?: string
}

/** A result's definitions and how the found tools are run. */
export interface PayloadDefinitions {
  readonly via: 'call_tool' | 'run_code'
  readonly tools: PayloadDefinition[]
}

/** A registered tool, as the calling Agent's scope resolves it. */
export interface DefinedTool {
  readonly name: string
  readonly description: string
  readonly parameters: JsonValue
  /** Its output schema (Code Mode declares what a call returns). */
  readonly output?: JsonValue
  readonly guidance?: string
}

/** How found tools are run: through `call_tool`, or inside `run_code` in a language. */
export type DefinitionForm = { readonly via: 'call_tool' } | { readonly via: 'run_code'; readonly language: string | undefined }

/**
 * @param tools - the found tools, in result order.
 * @param form - how they are run.
 * @param summaries - the summary each tool's hit carries beside the definitions (none for a
 *   message that has no hits, such as a prefetch's).
 */
export function defineTools(tools: readonly DefinedTool[], form: DefinitionForm, summaries: ReadonlyMap<string, string> = new Map()): PayloadDefinitions {
  return {
    via: form.via,
    tools: tools.map((tool): PayloadDefinition => {
      const summary = summaries.get(tool.name)
      const said = summary !== undefined && summary === collapsed(tool.description)
      const declaration = form.via === 'run_code' ? declare(tool, form.language) : undefined
      const type = declaration === undefined ? parameterType(tool.parameters) : undefined
      return {
        name: tool.name,
        ...(said || tool.description.trim() === '' ? {} : { description: tool.description }),
        ...(declaration !== undefined ? { declaration } : type !== undefined ? { arguments: type } : { parameters: tool.parameters }),
        ...(tool.guidance === undefined || tool.guidance.trim() === '' ? {} : { guidance: tool.guidance }),
      }
    }),
  }
}

/** The definitions as the text the model reads. */
export function renderDefinitions(definitions: PayloadDefinitions): string {
  const head = definitions.via === 'call_tool'
    ? `Definitions of the found tools. Run one with ${CALL_TOOL_NAME}({"name": "<tool name>", "arguments": {...}}), the arguments matching its type (\`?\`: optional).`
    : 'Definitions of the found tools. Call them inside run_code like the SDK\'s tools: await tools.<tool name>(args).'
  const parts = definitions.tools.map((tool) => {
    const lines = [`## ${tool.name}`]
    if (tool.description !== undefined) lines.push(tool.description.trim())
    if (tool.declaration !== undefined) lines.push(tool.declaration)
    if (tool.arguments !== undefined) lines.push(`arguments: ${tool.arguments}`)
    if (tool.parameters !== undefined) lines.push(`parameters: ${JSON.stringify(tool.parameters)}`)
    if (tool.guidance !== undefined) lines.push(`guidance:\n${tool.guidance.trim()}`)
    return lines.join('\n')
  })
  return [head, ...parts].join('\n\n')
}

/**
 * A tool's declaration in the code runtime's language, fenced; undefined where none renders it
 * (an unknown language, or a TypeScript schema outside what DSH's renderer reads), so the JSON
 * goes instead.
 * TypeScript uses `jsonSchemaToTs`, the SDK's own type renderer. In Python `jsonSchemaToPy` types
 * an object as `dict[str, Any]`, so the declaration is the SDK renderer's own `TypedDict` block
 * for this one tool, without the usage notes the `tools:sdk` section already gives.
 */
function declare(tool: DefinedTool, language: string | undefined): string | undefined {
  if (language === 'typescript') {
    const args = jsonSchemaToTs(tool.parameters as never)
    if (args === 'unknown') return undefined
    const output = tool.output === undefined ? 'unknown' : jsonSchemaToTs(tool.output as never)
    const member = /^[A-Za-z_$][\w$]*$/.test(tool.name) ? `.${tool.name}` : `[${JSON.stringify(tool.name)}]`
    return `\`\`\`ts\ntools${member}(args: ${args}): Promise<${output}>\n\`\`\``
  }
  if (language === 'python') {
    const sdk = renderToolsSdkPy([{ name: tool.name, description: '', parameters: tool.parameters as never, output: (tool.output ?? {}) as never }])
    const start = sdk.indexOf('```python')
    return start < 0 ? undefined : sdk.slice(start)
  }
  return undefined
}

/** Whitespace runs as one space, trimmed: how the core summarizes a description. */
function collapsed(text: string): string {
  return text.split(/\s+/).filter(word => word !== '').join(' ')
}
