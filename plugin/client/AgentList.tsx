/**
 * Per live Agent, how many tools its searches and prefetches selected, from the catalog route
 * (which carries counts only, never session ids: rows are numbered in attach order).
 */

import { useId } from 'react'
import type { CatalogResponse } from '../contract.ts'
import type { Translate } from './host.ts'

export function AgentList({ t, response }: { readonly t: Translate; readonly response: CatalogResponse | undefined }) {
  const id = useId()
  const rows = response?.agentSelections
  if (response === undefined || rows === undefined) return null
  const more = response.agents - rows.length
  return (
    <section className="dts-agents" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="dts-section-title">{t('agentsTitle')}</h3>
      {rows.length === 0 ? <p className="dts-note">{t('agentsEmpty')}</p> : (
        <ol className="dts-agent-list">
          {rows.map((row, index) => (
            // Rows have no identity beyond their place: the route never names a session.
            <li key={index} className="dts-agent">
              <span className="dts-agent-name">{t('agentRow', { number: index + 1 })}</span>
              <span className="dts-agent-counts">{t('agentCounts', { selected: row.selected, prefetched: row.prefetched })}</span>
            </li>
          ))}
          {more > 0 ? <li className="dts-agent dts-note">{t('agentsMore', { count: more })}</li> : null}
        </ol>
      )}
    </section>
  )
}
