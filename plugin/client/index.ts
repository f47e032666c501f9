/**
 * Browser half of dsh-tool-search: the Tool Search card on DSH's web UI.
 *
 * Served by DSH from the package's `./client` export (built by scripts/bundle-client.mjs). Which
 * settings service and which slot a page offers the card depends on the DSH release, so the module
 * waits for neither: it declares only the services every release has, and takes its settings from
 * whichever service arrives (host-settings.ts) and its place from whichever slot is declared
 * (card-slots.ts). Where the page offers it neither, it says so once on the console.
 * @module @anionex/dsh-tool-search/client
 */

import { catalogFetcher } from './catalog-fetch.ts'
import { ToolSearchCardController } from './card-controller.ts'
import { placeCard } from './card-slots.ts'
import type { ClientContext } from './host.ts'
import { noticeMissingHost } from './host-notice.ts'
import { HostSettings, followHostSettings } from './host-settings.ts'
import { LOCALE_NS, en, zh } from './locales.ts'
import { SettingsWriter } from './settings-writer.ts'

/** The browser services the card waits for: those every DSH release's page provides. */
export const inject = ['slots', 'locale']

export function apply(ctx: ClientContext): void {
  ctx.effect(() => ctx.locale.register(LOCALE_NS, { en, zh }), 'dsh-tool-search: card copy')
  const settings = new HostSettings()
  followHostSettings(ctx, settings)
  const card = new ToolSearchCardController(settings, new SettingsWriter(settings), catalogFetcher())
  ctx.effect(() => () => { card.dispose() }, 'dsh-tool-search: card state')
  const placed = placeCard(ctx, card)
  noticeMissingHost(ctx, { settings: () => settings.offered, slot: placed })
}
