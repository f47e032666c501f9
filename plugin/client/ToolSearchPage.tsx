/**
 * The Tool Search card on DSH 0.1.7's Plugin Manager (`plugins.row.config`): the plugin's row gets
 * a configure control that opens this entry as a page, which DSH heads with the plugin's title and
 * description. `page` is the card's body, open, with the same controls and behaviour as the
 * Settings card; `summary` is the one-liner DSH shows where the row has no description of its own.
 */

import { useEffect } from 'react'
import { CardBody, whole, type ToolSearchCardProps } from './CardBody.tsx'
import type { RowConfigProps } from './host.ts'

export type ToolSearchPageProps = ToolSearchCardProps & RowConfigProps

// `form`, the page's own handle on the row's form, is left unread: the card reads the same shared
// form through configForms, as it reads the older hosts' settings, so it works the same on both.
export function ToolSearchPage({ view, form: _form, ...props }: ToolSearchPageProps) {
  return view === 'summary' ? <>{props.t('description')}</> : <PageBody {...props} />
}

function PageBody({ t, useToolSearchCard, ...actions }: ToolSearchCardProps) {
  const state = useToolSearchCard(whole)
  const { activate } = actions
  const served = state.status !== 'unavailable'
  useEffect(() => (served ? activate() : undefined), [served, activate])
  return (
    <div className="dts-body dts-page">
      {!served
        // Unlike the Settings card, a page the user opened cannot vanish: it says why it is empty.
        ? <p className="dts-note" role="status">{t('unavailable')}</p>
        : state.section === undefined
          ? <p className="dts-note" role="status">{t('loading')}</p>
          : <CardBody t={t} actions={actions} state={state} />}
    </div>
  )
}
