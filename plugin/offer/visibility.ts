/**
 * Which tools an Agent is offered and which ones `tool_search` may return.
 *
 * Visibility is a prompt-size optimization, not an authorization boundary: a hidden tool stays
 * registered and a call naming it runs DSH's normal pipeline (approval, guards, sandbox).
 */

import { RUN_CODE_NAME } from '@deepseek-ai/dsh-tools'
import type { ToolSearchSettings } from '../host/config.ts'
import { CALL_TOOL_NAME, TOOL_SEARCH_NAME, type StandingPolicy } from '../contract.ts'
import { DEFAULT_CORE_TOOLS } from './core-tools.ts'

/** {@link StandingPolicy}, plus `selected`: a deferred tool this Agent's searches found. */
export type ToolPolicy = StandingPolicy | 'selected'

/**
 * The visibility rules for one settings value and loading mode. Under `stable` loading a
 * selection never changes what is offered: found tools stay deferred and run through
 * `call_tool`, which is offered beside `tool_search`.
 */
export class VisibilityPolicy {
  private readonly core: ReadonlySet<string>
  private readonly always: ReadonlySet<string>
  private readonly never: ReadonlySet<string>
  /**
   * The rules this policy applies, as text: two policies with the same key decide every name
   * alike, so what was computed under one (an outline, a deferral's size) holds under the other.
   */
  readonly key: string

  /** @param stable - whether found tools load through `call_tool` (`loading: stable` in force). */
  constructor(settings: Pick<ToolSearchSettings, 'alwaysVisible' | 'neverSearch'>, core: readonly string[], readonly stable = false) {
    this.core = new Set(core)
    this.always = new Set(settings.alwaysVisible)
    this.never = new Set(settings.neverSearch)
    this.key = JSON.stringify([[...this.core].sort(), settings.alwaysVisible, settings.neverSearch, stable])
  }

  /** The rule for `name` that holds for every Agent (what the settings page shows). */
  standing(name: string): StandingPolicy {
    if (name === TOOL_SEARCH_NAME || (this.stable && name === CALL_TOOL_NAME)) return 'search'
    if (this.never.has(name)) return 'never'
    if (this.core.has(name)) return 'core'
    if (this.always.has(name)) return 'always'
    return 'deferred'
  }

  /**
   * @param name - a registered tool name.
   * @param selected - the Agent's selected set (empty for a caller without an Agent).
   * @returns the rule that decides the tool's visibility for that Agent.
   */
  classify(name: string, selected: ReadonlySet<string>): ToolPolicy {
    const standing = this.standing(name)
    return standing === 'deferred' && !this.stable && selected.has(name) ? 'selected' : standing
  }

  /** Whether the model is offered `name`. `run_code` is Code Mode's transport and is left to DSH. */
  offers(name: string, selected: ReadonlySet<string>): boolean {
    if (name === RUN_CODE_NAME) return true
    const policy = this.classify(name, selected)
    return policy !== 'never' && policy !== 'deferred'
  }

  /** Whether `name` belongs in the search corpus. */
  searchable(name: string): boolean {
    return this.standing(name) !== 'search' && name !== RUN_CODE_NAME && !this.never.has(name)
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
    for (const list of [[TOOL_SEARCH_NAME, CALL_TOOL_NAME], this.core, this.always, selected]) {
      for (const name of list) {
        if (registered.has(name) && this.offers(name, selected) && name !== RUN_CODE_NAME) names.add(name)
      }
    }
    return [...names]
  }
}

/**
 * The one policy in force, from the settings and whether stable loading is: remade only when
 * either changes, and replaced only when the rules it applies do (a `defaultLimit` change keeps
 * it), so every reader holds the same object until then.
 */
export class PolicyInForce {
  private last: { readonly settings: ToolSearchSettings; readonly stable: boolean; readonly policy: VisibilityPolicy } | undefined

  /** @param stable - whether found tools load through `call_tool` now. */
  of(settings: ToolSearchSettings, stable: boolean): VisibilityPolicy {
    if (this.last?.settings === settings && this.last.stable === stable) return this.last.policy
    const made = new VisibilityPolicy(settings, DEFAULT_CORE_TOOLS, stable)
    const policy = this.last?.policy.key === made.key ? this.last.policy : made
    this.last = { settings, stable, policy }
    return policy
  }
}
