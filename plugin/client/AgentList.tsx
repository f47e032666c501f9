/**
 * Per live Agent, how many tools its searches and prefetches selected and which, how they load,
 * what its last request's tools weigh against offering every tool and, under native loading, how
 * often a search changed them (each change ends the cached prompt prefix). From the catalog route,
 * which never carries session ids: rows are numbered in attach order.
 */

import { useId } from 'react'
import type { AgentSelection, CatalogResponse } from '../contract.ts'
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
              <span className="dts-agent-counts">
                {t('agentCounts', { selected: row.selected, prefetched: row.prefetched })}
                {row.loading === undefined ? null : ` · ${t(`agentMode_${row.loading}`)}`}
              </span>
              <AgentDetail t={t} row={row} />
            </li>
          ))}
          {more > 0 ? <li className="dts-agent dts-note">{t('agentsMore', { count: more })}</li> : null}
        </ol>
      )}
    </section>
  )
}

function AgentDetail({ t, row }: { readonly t: Translate; readonly row: AgentSelection }) {
  const lines: string[] = []
  if (row.found !== undefined) {
    const names = row.found.join(', ')
    const unlisted = row.selected - row.found.length
    lines.push(row.found.length === 0 ? t('agentFoundNone') : unlisted > 0 ? t('agentFound', { names: t('agentFoundMore', { names, count: unlisted }) }) : t('agentFound', { names }))
  }
  if (row.offeredTokens !== undefined && row.allTokens !== undefined) lines.push(t('agentWeight', { offered: row.offeredTokens, all: row.allTokens }))
  if (row.loading === 'native' && row.cacheBreaks !== undefined) lines.push(t('agentBreaks', { count: row.cacheBreaks }))
  if (lines.length === 0) return null
  return (
    <span className="dts-agent-detail">
      {lines.map(line => <span key={line} className="dts-agent-line">{line}</span>)}
    </span>
  )
}
