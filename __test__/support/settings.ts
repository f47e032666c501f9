/**
 * Writing the plugin's settings through DSH's settings service, as the web card or an edit of
 * settings.yaml does.
 */

import { setImmediate as macrotask } from 'node:timers/promises'
import type { Config } from '../../plugin/host/config.ts'
import { TOOL_SEARCH_SETTINGS_NAMESPACE } from '../../plugin/host/settings.ts'
import type { Harness } from './harness.ts'

/** Write the `tool-search` section and let the settings service notify its watchers. */
export async function changeSettings(h: Harness, section: Partial<Config>): Promise<void> {
  await h.ctx.settings.replace(TOOL_SEARCH_SETTINGS_NAMESPACE, section)
  // Settings watchers run on a queued continuation after the write commits.
  await macrotask()
}
