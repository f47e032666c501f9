/**
 * Where the card is shown. DSH 0.1.7's Plugin Manager opens a configure page for a profile row
 * from `plugins.row.config`, keyed `<package name>#<row id>`; DSH 0.1.0-rc.8 (and, by reports, up
 * to 0.1.6) lists plugin cards on Settings > Plugins from `settings.plugin.item`, keyed by settings
 * namespace. Other client plugins declare these slots when they load, in no fixed order relative
 * to this module, and registering into an undeclared slot throws, so each registration waits in
 * `slots.inject`, which runs it whenever its slot is declared. A page declares one or the other.
 */

import { PACKAGE_NAME, PLUGIN_ID, SETTINGS_NAMESPACE } from '../contract.ts'
import type { ToolSearchCardController } from './card-controller.ts'
import type { ClientContext } from './host.ts'
import { LOCALE_NS } from './locales.ts'
import { ToolSearchCard } from './ToolSearchCard.tsx'
import { ToolSearchPage } from './ToolSearchPage.tsx'

/** The card's key in the Plugin Manager's `plugins.row.config`. */
export const ROW_CONFIG_KEY = `${PACKAGE_NAME}#${PLUGIN_ID}`

/**
 * Register the card in every slot the page declares for it. Each entry reads its state through
 * the `hooks` compartment and acts through plain callbacks, as DSH's cards do.
 * @returns whether a slot holds the card.
 */
export function placeCard(ctx: ClientContext, card: ToolSearchCardController): () => boolean {
  const holding = new Set<string>()
  const place = (slot: string, register: () => () => void) => {
    ctx.slots.inject(slot, () => {
      let unregister: () => void
      try {
        unregister = register()
      } catch (error) {
        // A slot whose contract changed must not take the page down; the other slot may still hold the card.
        console.warn(`dsh-tool-search: the Tool Search card could not be placed in ${slot}: ${error instanceof Error ? error.message : String(error)}`)
        return () => undefined
      }
      holding.add(slot)
      return () => {
        holding.delete(slot)
        unregister()
      }
    })
  }
  const inject = () => card.inject()
  place('plugins.row.config', () => ctx.slots.register({ name: 'plugins.row.config', key: ROW_CONFIG_KEY, locale: LOCALE_NS, inject }, ToolSearchPage))
  place('settings.plugin.item', () => ctx.slots.register({ name: 'settings.plugin.item', key: SETTINGS_NAMESPACE, locale: LOCALE_NS, inject }, ToolSearchCard))
  return () => holding.size > 0
}
