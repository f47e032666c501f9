/**
 * The card's controls and tables, shared by the disclosure card of DSH's Settings page
 * (ToolSearchCard.tsx) and the Plugin Manager's row page (ToolSearchPage.tsx).
 */

import { useId } from 'react'
import { SCALAR_SETTINGS, isChoiceKey, type ScalarKey } from '../contract.ts'
import { AgentList } from './AgentList.tsx'
import './card.css'
import { CatalogTable } from './CatalogTable.tsx'
import { ChoiceField } from './ChoiceField.tsx'
import type { CardState, ToolSearchCardActions, ToolSearchCardFace } from './card-controller.ts'
import type { InjectFace, Translate } from './host.ts'
import { NameList } from './NameList.tsx'
import { NumberField } from './NumberField.tsx'

/** The renderer's props for the card: its copy, `useToolSearchCard` and the card's actions. */
export type ToolSearchCardProps = InjectFace<ToolSearchCardFace> & { readonly t: Translate }

/** The selector that reads the whole card state. */
export const whole = (state: CardState): CardState => state

export function CardBody({ t, actions, state }: { t: Translate; actions: ToolSearchCardActions; state: CardState }) {
  const section = state.section!
  const disabled = !state.writable
  const suggestions = useId()
  const names = state.catalog.response?.tools.map(row => row.name) ?? []
  const unavailable = state.catalog.response?.searchUnavailable
  return (
    <>
      {unavailable === undefined ? null : (
        // The host's own words (they name the package to install); the lists still apply once it is back.
        <div className="dts-failure" role="alert">
          <p>{t('searchOff')}<span className="dts-detail">{unavailable}</span></p>
        </div>
      )}
      {disabled ? <p className="dts-note" role="status">{t('readOnly')}</p> : null}
      <FailureNotice t={t} state={state} onDismiss={actions.dismissFailure} />
      {SCALAR_SETTINGS.map(field => <ScalarField key={field} t={t} field={field} state={state} disabled={disabled} onSave={actions.saveSetting} />)}
      <div className="dts-lists">
        {(['alwaysVisible', 'neverSearch'] as const).map(field => (
          <NameList
            key={field}
            t={t}
            field={field}
            names={section[field]}
            suggestions={suggestions}
            disabled={disabled}
            onAdd={name => actions.addToList(field, name)}
            onRemove={name => actions.removeFromList(field, name)}
          />
        ))}
      </div>
      <datalist id={suggestions}>
        {names.map(name => <option key={name} value={name} />)}
      </datalist>
      <AgentList t={t} response={state.catalog.response} />
      <CatalogTable t={t} state={state} onFilter={actions.setFilter} onPolicy={actions.setPolicy} onRetry={actions.refresh} />
    </>
  )
}

/** The control of one number or choice field, by the field's kind in the contract. */
function ScalarField({ t, field, state, disabled, onSave }: {
  t: Translate
  field: ScalarKey
  state: CardState
  disabled: boolean
  onSave: ToolSearchCardActions['saveSetting']
}) {
  const section = state.section!
  const pending = state.settingsPending
  return isChoiceKey(field)
    ? <ChoiceField t={t} field={field} stored={section[field]} pending={pending[field]} disabled={disabled} onSave={onSave} />
    : <NumberField t={t} field={field} stored={section[field]} pending={pending[field]} disabled={disabled} onSave={onSave} />
}

function FailureNotice({ t, state, onDismiss }: { t: Translate; state: CardState; onDismiss: () => void }) {
  const { failure } = state
  const reason = failure === undefined ? '' : t(`reason_${failure.reason.replace('-', '_')}`)
  // Always rendered, so screen readers announce the message when it appears in the live region.
  return (
    <div className="dts-failure" role="alert">
      {failure === undefined ? null : (
        <>
          <p>
            {'tool' in failure.subject
              ? t('failedTool', { name: failure.subject.tool, reason })
              : t(`${failure.subject.setting}Failed`, { reason })}
            {' '}{t('unchanged')}
            {failure.detail === undefined ? null : <span className="dts-detail">{failure.detail}</span>}
          </p>
          <button type="button" className="dts-button dts-button-quiet" onClick={onDismiss}>{t('dismiss')}</button>
        </>
      )}
    </div>
  )
}
