/**
 * The PTC SDK section (Code Mode on rc.8). In a presentation with programs (`ptc`, rc.8's `code`,
 * and `both`) DSH renders a `tools:sdk` prompt section that declares every registered tool; left
 * alone it would leak the whole deferred catalog. It is rendered again here, with DSH's own
 * renderers, from the offered tools only.
 */

import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { renderToolsSdk, renderToolsSdkPy } from '@deepseek-ai/dsh-tools'

/** The section DSH registers for programs (`dsh-tools`, `sdkSection()`), under this name in every generation. */
export const SDK_SECTION_NAME = 'tools:sdk'

type SdkSchema = Parameters<typeof renderToolsSdk>[0][number]

/** DSH's own language table, unchanged through 0.2.1: the same two renderers its registry picks from. */
const RENDERERS: Readonly<Record<string, (schemas: SdkSchema[]) => string>> = {
  typescript: renderToolsSdk,
  python: renderToolsSdkPy,
}

/**
 * Render the SDK for the offered tools.
 * @param ctx - the plugin context (for `tools`).
 * @param agent - the Agent whose scope resolves each tool.
 * @param offered - offered tool names, without `run_code`.
 * @param language - the runtime's, from `ptcLanguage` (host/dsh/ptc.ts).
 * @param describe - the description the SDK gives a tool, from its registered one (the catalog
 *   outline joins `tool_search`'s here, as it does the native definition).
 * @returns the section text.
 * @throws when no renderer matches the runtime: an unfiltered SDK would silently offer every
 *   deferred tool, so the assembly fails with a clear message instead.
 */
export function renderOfferedSdk(
  ctx: Context,
  agent: Agent,
  offered: readonly string[],
  language: string | undefined,
  describe: (name: string, description: string) => string = (_name, description) => description,
): string {
  const render = language === undefined || !Object.hasOwn(RENDERERS, language) ? undefined : RENDERERS[language]
  if (render === undefined) {
    throw new Error(`dsh-tool-search: cannot filter the ${SDK_SECTION_NAME} prompt section for PTC runtime language `
      + `${JSON.stringify(language)} (known: ${Object.keys(RENDERERS).join(', ')}); `
      + 'set the tools row to mode "native" or remove dsh-tool-search from this profile')
  }
  const schemas: SdkSchema[] = []
  for (const name of offered) {
    const tool = ctx.tools.get(name, agent)
    if (tool === undefined) continue
    schemas.push({ name, description: describe(name, tool.description), parameters: tool.parameters, output: tool.output.schema })
  }
  return render(schemas)
}
