/**
 * Browser half of dsh-tool-search: the Tool Search card on DSH's web settings page.
 *
 * Served by DSH as `/plugins/@anionex/dsh-tool-search/client.js` (the `./client` export, built by
 * scripts/bundle-client.mjs). The card registers under the plugin's settings namespace, so it
 * renders exactly while the host half serves that namespace.
 * @module @anionex/dsh-tool-search/client
 */

import { SETTINGS_NAMESPACE } from '../contract.ts'
import { catalogFetcher } from './catalog-fetch.ts'
import { ToolSearchCardController } from './card-controller.ts'
import type { ClientContext, ToolSearchSection } from './host.ts'
import { LOCALE_NS, en, zh } from './locales.ts'
import { SettingsWriter } from './settings-writer.ts'
import { ToolSearchCard } from './ToolSearchCard.tsx'

/** The browser services the card uses. */
export const inject = ['slots', 'locale', 'connection', 'settingsScope']

export function apply(ctx: ClientContext): void {
  ctx.effect(() => ctx.locale.register(LOCALE_NS, { en, zh }), 'dsh-tool-search: card copy')
  const scope = ctx.settingsScope.bind<ToolSearchSection>({ namespace: SETTINGS_NAMESPACE })
  const { api } = ctx.get('connection')
  const writer = new SettingsWriter(
    SETTINGS_NAMESPACE,
    scope,
    payload => api.settings.mutate(payload),
    view => { ctx.settingsScope.describe().acceptView(view) },
  )
  const card = new ToolSearchCardController(scope, writer, catalogFetcher())
  ctx.effect(() => () => { card.dispose() }, 'dsh-tool-search: card state')
  // The Plugins section declares this slot when it loads, in no fixed order relative to this
  // module; `inject` registers the card whenever the slot is (re)declared. The card reads its
  // state through the `hooks` compartment and acts through plain callbacks, as DSH's cards do.
  ctx.slots.inject('settings.plugin.item', () => ctx.slots.register({
    name: 'settings.plugin.item',
    key: SETTINGS_NAMESPACE,
    locale: LOCALE_NS,
    inject: () => card.inject(),
  }, ToolSearchCard))
}
