/**
 * One choice setting: its values in a list, the picked one written at once. Its copy is
 * `<field>Label`, `<field>Hint`, `<field>Failed` and `<field>_<value>` in locales.ts, and its
 * values come from the contract.
 */

import { useId } from 'react'
import { SETTINGS, type ChoiceKey, type ChoiceOf } from '../contract.ts'
import type { Translate } from './host.ts'

export interface ChoiceFieldProps {
  readonly t: Translate
  readonly field: ChoiceKey
  /** The value DSH holds. */
  readonly stored: ChoiceOf<ChoiceKey>
  /** The value being written, if any. */
  readonly pending: ChoiceOf<ChoiceKey> | undefined
  readonly disabled: boolean
  readonly onSave: (field: ChoiceKey, value: ChoiceOf<ChoiceKey>) => unknown
}

export function ChoiceField({ t, field, stored, pending, disabled, onSave }: ChoiceFieldProps) {
  const id = useId()
  const { choices } = SETTINGS[field]
  const pick = (value: string) => {
    const choice = choices.find(candidate => candidate === value)
    if (choice !== undefined && choice !== stored && pending === undefined) onSave(field, choice)
  }
  return (
    <div className="dts-field">
      <label className="dts-label" htmlFor={id}>{t(`${field}Label`)}</label>
      <div className="dts-inline">
        <select
          id={id}
          className="dts-select"
          value={pending ?? stored}
          disabled={disabled || pending !== undefined}
          aria-describedby={`${id}-hint`}
          onChange={(event) => { pick(event.target.value) }}
        >
          {choices.map(choice => <option key={choice} value={choice}>{t(`${field}_${choice}`)}</option>)}
        </select>
        {pending === undefined ? null : <span className="dts-hint" role="status">{t('saving')}</span>}
      </div>
      <p id={`${id}-hint`} className="dts-hint">{t(`${field}Hint`)}</p>
    </div>
  )
}
