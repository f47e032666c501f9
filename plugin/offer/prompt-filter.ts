/**
 * Filtering one prompt assembly down to the offered tools.
 */

import type { PromptAssembly } from '@deepseek-ai/dsh-system-prompt'
import { SDK_SECTION_NAME } from './sdk.ts'

/** Per-tool guidance sections are named `tool:<tool name>` by DSH's tool plugins. */
const TOOL_SECTION_PREFIX = 'tool:'

/** What the filter needs to know about one Agent at one step. */
export interface AssemblyFilter {
  /** Every tool the Agent's scope registers. */
  readonly registered: ReadonlySet<string>
  /** Whether the model is offered `name` (always true for `run_code`). */
  offers(name: string): boolean
  /** The SDK text for the offered tools; called only when the assembly carries an SDK section. */
  sdk(): string
}

/** Whether an assembly is in a Code Mode presentation (`code` or `both`). */
export function hasSdkSection(assembly: PromptAssembly): boolean {
  return assembly.sections.some(section => section.name === SDK_SECTION_NAME && section.text !== '')
}

/**
 * Drop the schemas and the `tool:<name>` guidance of tools the model is not offered, and rewrite
 * the Code Mode SDK. A section named after something that is not a registered tool (DSH's
 * `tool:jobs` and `tool:goal` cover a family of tools) carries no tool provenance and is kept.
 * @param assembly - the assembly every inner listener has already produced.
 * @param filter - the Agent's view.
 * @returns a new assembly; the input is not mutated.
 */
export function filterAssembly(assembly: PromptAssembly, filter: AssemblyFilter): PromptAssembly {
  const sections = assembly.sections.flatMap((section) => {
    if (section.name === SDK_SECTION_NAME) return section.text === '' ? [section] : [{ ...section, text: filter.sdk() }]
    if (section.name.startsWith(TOOL_SECTION_PREFIX)) {
      const tool = section.name.slice(TOOL_SECTION_PREFIX.length)
      if (filter.registered.has(tool) && !filter.offers(tool)) return []
    }
    return [section]
  })
  return { ...assembly, sections, tools: assembly.tools.filter(tool => filter.offers(tool.name)) }
}
