/**
 * Which tools an Agent is offered and which ones `tool_search` may return.
 *
 * Visibility is a prompt-size optimization, not an authorization boundary: a hidden tool stays
 * registered and a call naming it runs DSH's normal pipeline (approval, guards, sandbox).
 */

import { RUN_CODE_NAME } from '@deepseek-ai/dsh-tools'
import { TOOL_SEARCH_NAME, type ToolSearchSettings } from './config.ts'

/** Why a tool is or is not offered, in precedence order. */
export type ToolPolicy =
  | 'search' // tool_search itself: always offered
  | 'never' // neverSearch: hidden and unsearchable, wins over everything below
  | 'core' // the default core set
  | 'always' // alwaysVisible
  | 'selected' // found by a tool_search of this Agent
  | 'deferred' // registered, searchable, not offered

/** The visibility rules for one settings value. */
export class VisibilityPolicy {
  private readonly core: ReadonlySet<string>
  private readonly always: ReadonlySet<string>
  private readonly never: ReadonlySet<string>

  constructor(settings: ToolSearchSettings, core: readonly string[]) {
    this.core = new Set(core)
    this.always = new Set(settings.alwaysVisible)
    this.never = new Set(settings.neverSearch)
  }

  /**
   * @param name - a registered tool name.
   * @param selected - the Agent's selected set (empty for a caller without an Agent).
   * @returns the rule that decides the tool's visibility.
   */
  classify(name: string, selected: ReadonlySet<string>): ToolPolicy {
    if (name === TOOL_SEARCH_NAME) return 'search'
    if (this.never.has(name)) return 'never'
    if (this.core.has(name)) return 'core'
    if (this.always.has(name)) return 'always'
    if (selected.has(name)) return 'selected'
    return 'deferred'
  }

  /** Whether the model is offered `name`. `run_code` is Code Mode's transport and is left to DSH. */
  offers(name: string, selected: ReadonlySet<string>): boolean {
    if (name === RUN_CODE_NAME) return true
    const policy = this.classify(name, selected)
    return policy !== 'never' && policy !== 'deferred'
  }

  /** Whether `name` belongs in the search corpus. */
  searchable(name: string): boolean {
    return name !== TOOL_SEARCH_NAME && name !== RUN_CODE_NAME && !this.never.has(name)
  }

  /**
   * The registered tools an Agent is offered, computed from the candidate lists rather than by
   * scanning the whole registry, so it stays cheap with thousands of deferred tools.
   * @param registered - every tool name the Agent's scope registers.
   * @param selected - the Agent's selected set.
   * @returns the offered names, without `run_code`.
   */
  offered(registered: ReadonlySet<string>, selected: ReadonlySet<string>): string[] {
    const names = new Set<string>()
    for (const list of [[TOOL_SEARCH_NAME], this.core, this.always, selected]) {
      for (const name of list) {
        if (registered.has(name) && this.offers(name, selected) && name !== RUN_CODE_NAME) names.add(name)
      }
    }
    return [...names]
  }
}
