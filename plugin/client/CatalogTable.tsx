/**
 * The live catalog: every tool the default preset registers with its effective policy, how many
 * live Agents selected it, and a control that changes its policy. The route filters by text (so
 * its row cap applies to the matches); the policy filter works on the rows the page holds.
 */

import { useId, useState } from 'react'
import type { CatalogRow } from '../contract.ts'
import type { CardState } from './card-controller.ts'
import type { Translate } from './host.ts'
import { choiceOf, isCore, type PolicyChoice } from './policy.ts'

/** What the table shows in the Policy column: the standing policy, or `selected`. */
type ShownPolicy = CatalogRow['policy'] | 'selected'

const SHOWN_POLICIES: readonly ShownPolicy[] = ['core', 'always', 'deferred', 'selected', 'never', 'search']

export interface CatalogTableProps {
  readonly t: Translate
  readonly state: CardState
  readonly onFilter: (text: string) => void
  readonly onPolicy: (tool: string, choice: PolicyChoice) => unknown
  readonly onRetry: () => void
}

export function CatalogTable({ t, state, onFilter, onPolicy, onRetry }: CatalogTableProps) {
  const id = useId()
  const [shown, setShown] = useState<ShownPolicy | 'all'>('all')
  const { catalog } = state
  const response = catalog.response
  const rows = (response?.tools ?? []).filter(row => shown === 'all' || shownPolicy(row) === shown)
  return (
    <section className="dts-catalog" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="dts-section-title">{t('catalogTitle')}</h3>
      <div className="dts-toolbar">
        <div className="dts-toolbar-item dts-grow">
          <label className="dts-label" htmlFor={`${id}-filter`}>{t('filterLabel')}</label>
          <input
            id={`${id}-filter`}
            className="dts-input"
            type="search"
            autoComplete="off"
            spellCheck={false}
            placeholder={t('filterPlaceholder')}
            value={catalog.filter}
            onChange={(event) => { onFilter(event.target.value) }}
          />
        </div>
        <div className="dts-toolbar-item">
          <label className="dts-label" htmlFor={`${id}-show`}>{t('showLabel')}</label>
          <select id={`${id}-show`} className="dts-select" value={shown} onChange={(event) => { setShown(event.target.value as ShownPolicy | 'all') }}>
            <option value="all">{t('showAll')}</option>
            {SHOWN_POLICIES.map(policy => <option key={policy} value={policy}>{t(`policy_${policy}`)}</option>)}
          </select>
        </div>
      </div>
      {catalog.status === 'failed' ? (
        <p className="dts-failure-inline" role="alert">
          {t('catalogFailed', { detail: catalog.error })}{' '}
          <button type="button" className="dts-button dts-button-quiet" onClick={onRetry}>{t('retry')}</button>
        </p>
      ) : null}
      {response === undefined ? (
        catalog.status === 'failed' ? null : <p className="dts-note" role="status">{t('catalogLoading')}</p>
      ) : (
        <>
          <p className="dts-summary" role="status">
            {t('summary', { shown: rows.length, total: response.total, agents: response.agents })}
          </p>
          {response.truncated ? <p className="dts-note">{t('truncated', { count: response.tools.length })}</p> : null}
          {rows.length === 0 ? <p className="dts-note">{t('noMatches')}</p> : (
            <table className="dts-table" aria-labelledby={`${id}-title`}>
              <thead>
                <tr>
                  <th scope="col">{t('colTool')}</th>
                  <th scope="col">{t('colPolicy')}</th>
                  <th scope="col">{t('colSelected')}</th>
                  <th scope="col">{t('colChange')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map(row => (
                  <ToolRow key={row.name} t={t} row={row} state={state} agents={response.agents} onPolicy={onPolicy} />
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  )
}

function ToolRow({ t, row, state, agents, onPolicy }: {
  t: Translate
  row: CatalogRow
  state: CardState
  agents: number
  onPolicy: CatalogTableProps['onPolicy']
}) {
  const policy = shownPolicy(row)
  const pending = state.pending.get(row.name)
  const choice = pending ?? choiceOf(state.section!, row.name)
  const core = isCore(row.name)
  return (
    <tr data-tool={row.name} data-policy={policy}>
      <th scope="row" className="dts-cell-tool" data-label={t('colTool')}>
        <code className="dts-tool-name">{row.name}</code>
        {/* The space keeps name and description apart in the row header's accessible name. */}
        {row.description === '' ? null : <>{' '}<span className="dts-tool-description">{row.description}</span></>}
      </th>
      <td data-label={t('colPolicy')}>
        <span className={`dts-badge dts-badge-${policy}`}>{t(`policy_${policy}`)}</span>
      </td>
      <td data-label={t('colSelected')} className="dts-cell-count">
        <span aria-label={t('selectedBy', { count: row.selectedBy, agents })} title={t('selectedBy', { count: row.selectedBy, agents })}>
          {row.selectedBy}
        </span>
      </td>
      <td data-label={t('colChange')}>
        {row.policy === 'search' ? <span className="dts-hint">{t('policy_search')}</span> : (
          <span className="dts-inline">
            <select
              className="dts-select"
              aria-label={t('policyFor', { name: row.name })}
              value={choice}
              disabled={!state.writable}
              onChange={(event) => { onPolicy(row.name, event.target.value as PolicyChoice) }}
            >
              <option value="default">{t(core ? 'choice_default_core' : 'choice_default_deferred')}</option>
              {/* alwaysVisible adds nothing to a core tool; offered only to undo it. */}
              {!core || choice === 'always' ? <option value="always">{t('choice_always')}</option> : null}
              <option value="never">{t('choice_never')}</option>
            </select>
            {pending === undefined ? null : <span className="dts-hint" role="status">{t('saving')}</span>}
          </span>
        )}
      </td>
    </tr>
  )
}

function shownPolicy(row: CatalogRow): ShownPolicy {
  return row.policy === 'deferred' && row.selectedBy > 0 ? 'selected' : row.policy
}
