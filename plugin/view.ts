/**
 * The read-only view the web settings page and its catalog route consume. Everything is read live
 * on each call; nothing here can change the plugin's state (settings are written through
 * `ctx.settings` under the `tool-search` namespace).
 */

import type { SessionId } from '@deepseek-ai/dsh-session'
import type { ToolSearchSettings } from './config.ts'
import type { StandingPolicy } from './visibility.ts'

/** One registered tool, as the settings page lists it. */
export interface CatalogRow {
  readonly name: string
  readonly description: string
  /** The rule that decides its visibility before any search. */
  readonly policy: StandingPolicy
}

/** One attached Agent. */
export interface AgentRow {
  readonly id: SessionId
  /** Tools this Agent has found with tool_search so far (hidden ones included). */
  readonly selected: number
}

export interface ToolSearchView {
  /** The normalized settings in force. */
  settings(): ToolSearchSettings
  /**
   * Every globally registered tool with its policy, sorted by name (`run_code` excluded).
   * @throws when the registry cannot project its schemas (a tool with non-JSON parameters).
   */
  catalog(): CatalogRow[]
  /** Every Agent the plugin tracks, in attach order. */
  agents(): AgentRow[]
}
