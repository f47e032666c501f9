/**
 * The read-only view the web settings page and its catalog route consume. Everything is read live
 * on each call; nothing here can change the plugin's state (settings are written through
 * `ctx.settings` under the `tool-search` namespace).
 */

import type { SessionId } from '@deepseek-ai/dsh-session'
import type { ToolSearchSettings } from './config.ts'
import type { CatalogRow, ChoiceOf } from '../contract.ts'

/** One attached Agent. */
export interface AgentRow {
  readonly id: SessionId
  /** Tools this Agent has found with tool_search or prefetch so far (hidden ones included). */
  readonly selected: number
  /** Of those, the ones a prefetch found first. */
  readonly prefetched: number
  /** How its found tools load (the `loading` in force). */
  readonly loading: ChoiceOf<'loading'>
  /** The names of the tools it has found. */
  readonly found: readonly string[]
  /** Its last request's offered schemas (and Code Mode SDK), estimated tokens; absent before its first request. */
  readonly offeredTokens?: number
  /** What offering every registered tool would weigh instead. */
  readonly allTokens?: number
  /** How often its offered tools changed after its first request, each a break of the cached prefix. */
  readonly cacheBreaks?: number
}

export interface ToolSearchView {
  /** The normalized settings in force. */
  settings(): ToolSearchSettings
  /**
   * Every tool a registry view sees, with its policy, sorted by name (`run_code` excluded).
   * @param scope - the view to read: an Agent or a preset's standing scope key. Omitted, the
   *   global layer, which is empty in the web profile: there presets mount the tools, and
   *   `agentPresets.standingKeyFor()` names the default preset's view.
   * @throws when the registry cannot project its schemas (a tool with non-JSON parameters).
   */
  catalog(scope?: object): CatalogRow[]
  /** Every Agent the plugin tracks, in attach order. */
  agents(): AgentRow[]
  /**
   * Why `tool_search` is not offered (every tool then is): the native core did not load, or another
   * plugin owns the name, worded as in the error logged. Undefined while it is offered.
   */
  unavailable(): string | undefined
}
