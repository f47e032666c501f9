/**
 * The Tool Search card on Settings > Plugins > Plugin configuration (`settings.plugin.item`, DSH
 * 0.1.0-rc.8 and, by reports, up to 0.1.6). Like DSH's own cards it is a header button that
 * discloses the controls in place; unlike them it has no staged Save for the whole card: each
 * control writes when the user commits it, and the page shows what DSH holds.
 */

import { useEffect, useId, useState } from 'react'
import { CardBody, whole, type ToolSearchCardProps } from './CardBody.tsx'

export function ToolSearchCard({ t, useToolSearchCard, ...actions }: ToolSearchCardProps) {
  const state = useToolSearchCard(whole)
  const [open, setOpen] = useState(false)
  const bodyId = useId()
  const { activate } = actions
  useEffect(() => (open ? activate() : undefined), [open, activate])
  // As DSH's cards do: no trace of the card where its namespace is not served (or this browser
  // is remote and keeps settings in memory).
  if (state.status === 'unavailable') return null
  return (
    <li className={open ? 'dts-card dts-card-open' : 'dts-card'}>
      <button type="button" className="dts-header" aria-expanded={open} aria-controls={open ? bodyId : undefined} onClick={() => { setOpen(!open) }}>
        <span className="dts-head-text">
          <span className="dts-title">{t('title')}</span>
          <span className="dts-description">{t('description')}</span>
        </span>
        <svg className="dts-chevron" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true" focusable="false">
          <path d="M3.5 5.25 7 8.75l3.5-3.5" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      {open ? (
        <div id={bodyId} className="dts-body">
          {state.section === undefined ? <p className="dts-note" role="status">{t('loading')}</p> : <CardBody t={t} actions={actions} state={state} />}
        </div>
      ) : null}
    </li>
  )
}
