/**
 * Filtering one prompt assembly down to the offered tools.
 */

import type { PromptAssembly } from '@deepseek-ai/dsh-system-prompt'
import { RUN_CODE_NAME } from '@deepseek-ai/dsh-tools'
import type { Presentation } from '../host/dsh/ptc.ts'
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

/** Whether an assembly presents tools to programs (`ptc`, rc.8's `code`, or `both`). */
export function hasSdkSection(assembly: PromptAssembly): boolean {
  return assembly.sections.some(section => section.name === SDK_SECTION_NAME && section.text !== '')
}

/**
 * How an assembly presents tools: only `run_code` and the SDK (`ptc`), both forms, or native
 * schemas. Read from what the assembly carries, so it holds whatever the host calls the mode.
 */
export function presentationOf(assembly: PromptAssembly): Presentation {
  if (!hasSdkSection(assembly)) return 'native'
  return assembly.tools.every(tool => tool.name === RUN_CODE_NAME) ? 'ptc' : 'both'
}

/** The `tool:<name>` guidance sections of an assembly, by tool name. */
export function toolSections(assembly: PromptAssembly): Map<string, string> {
  const sections = new Map<string, string>()
  for (const section of assembly.sections) {
    if (section.name.startsWith(TOOL_SECTION_PREFIX)) sections.set(section.name.slice(TOOL_SECTION_PREFIX.length), section.text)
  }
  return sections
}

/**
 * Drop the schemas and the `tool:<name>` guidance of tools the model is not offered, and rewrite
 * the SDK. A section named after something that is not a registered tool (DSH's `tool:jobs` and
 * `tool:goal` cover a family of tools) carries no tool provenance and is kept; so are the
 * sections of the `tools:` family, such as the program-only rule (`tools:code-only` on rc.8,
 * `tools:ptc-only` from 0.1.5), which name no tool.
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
