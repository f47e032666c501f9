/**
 * The one console line for a page that offers the card no settings or no place. The plugin's host
 * half and tool_search do not depend on the card, so nothing else changes; the line says so.
 */

import type { ClientContext } from './host.ts'

/**
 * How long after the module starts the page has to offer the card's settings service and slot:
 * DSH loads its client plugins in no fixed order, each declaring its services and slots as it
 * starts, within moments of the page opening.
 */
export const HOST_SETTLE_MS = 10_000

/**
 * Say once, {@link HOST_SETTLE_MS} after the module starts, what the card lacks, if anything.
 * @param offered - whether the page offers a settings service, and a slot for the card.
 */
export function noticeMissingHost(ctx: ClientContext, offered: { readonly settings: () => boolean; readonly slot: () => boolean }): void {
  ctx.effect(() => {
    const timer = setTimeout(() => {
      const missing = [
        ...offered.settings() ? [] : ['no settings service the card can read (configForms on DSH 0.1.7 and later, settingsScope before)'],
        ...offered.slot() ? [] : ['no place for the card (the Plugin Manager\'s plugins.row.config on DSH 0.1.7 and later, Settings\' settings.plugin.item before)'],
      ]
      if (missing.length === 0) return
      console.warn(`dsh-tool-search: the Tool Search card cannot show the plugin's settings: ${HOST_SETTLE_MS / 1000} s after loading, this page offers ${missing.join(', and ')}. tool_search itself runs as configured; its settings can still be changed in the profile's plugin row or in settings.yaml.`)
    }, HOST_SETTLE_MS)
    return () => { clearTimeout(timer) }
  }, 'dsh-tool-search: missing host check')
}
