/**
 * DSH plugin entry: keeps deferred tools out of the model's prompt and gives it `tool_search`.
 * Named exports only: DSH's loader drops `inject` from a module with a default export.
 * @module @anionex/dsh-tool-search
 */

import type { Context } from '@deepseek-ai/cordis'
import { PLUGIN_ID } from './contract.ts'
import { installCatalogRoute } from './host/catalog-route.ts'
import type { AppliedConfig } from './host/config.ts'
import { native, type NativeLoad } from './host/native.ts'
import { ToolSearchRuntime } from './host/runtime.ts'
import { installToolSearchSettings } from './host/settings.ts'
import type { ToolSearchView } from './host/view.ts'

declare module '@deepseek-ai/cordis' {
  interface Context {
    /** Read-only view of dsh-tool-search's catalog, policies and per-Agent selection counts. */
    toolSearch: ToolSearchView
  }
}

export { Config, normalizeSettings, type AppliedConfig, type ToolSearchSettings } from './host/config.ts'
export { CATALOG_ROUTE_PATH, MAX_LIMIT, TOOL_SEARCH_NAME, type CatalogResponse, type CatalogRow, type StandingPolicy } from './contract.ts'
export { DEFAULT_CORE_TOOLS } from './offer/core-tools.ts'
export { TOOL_SEARCH_SETTINGS_NAMESPACE } from './host/settings.ts'
export type { ToolSearchPayload } from './search/payload.ts'
export type { ToolPolicy } from './offer/visibility.ts'
export type { AgentRow, ToolSearchView } from './host/view.ts'

export const name = PLUGIN_ID

/**
 * `settings` and `webServer` are optional: each is picked up whenever it is mounted, whichever
 * generation of DSH's settings service it is (see `installToolSearchSettings` and
 * `installCatalogRoute`).
 */
export const inject = ['tools', 'systemPrompt', 'agents']

export function apply(ctx: Context, config: AppliedConfig): void {
  applyWith(ctx, config, native)
}

/**
 * `apply` on a given load of the native core: the plugin as it runs where its binary did not load,
 * for tests, which cannot uninstall the binary from under a running process.
 * @internal
 */
export function applyWith(ctx: Context, config: AppliedConfig, core: NativeLoad): void {
  const settings = installToolSearchSettings(ctx, config)
  const runtime = new ToolSearchRuntime(ctx, settings, core)
  // The seam for the web settings page and its GET catalog route: a read-only view, provided as
  // `ctx.toolSearch` so a route (in this plugin or another) reads the same live state.
  ctx.provide('toolSearch', runtime.view)
  installCatalogRoute(ctx, runtime.view)
}
