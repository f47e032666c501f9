/**
 * One number setting: typed as text, checked as the user types, written on Save or Enter. Its copy
 * is `<field>Label` and `<field>Hint` in locales.ts, and its bounds come from the contract.
 */

import { useEffect, useId, useState, type FormEvent } from 'react'
import { SETTINGS, type NumberKey } from '../contract.ts'
import type { Translate } from './host.ts'
import { parseSettingNumber } from './policy.ts'

export interface NumberFieldProps {
  readonly t: Translate
  readonly field: NumberKey
  /** The value DSH holds. */
  readonly stored: number
  /** The value being written, if any. */
  readonly pending: number | undefined
  readonly disabled: boolean
  readonly onSave: (field: NumberKey, value: number) => unknown
}

export function NumberField({ t, field, stored, pending, disabled, onSave }: NumberFieldProps) {
  const id = useId()
  const bounds = SETTINGS[field]
  const [draft, setDraft] = useState(String(stored))
  // A saved value, or one changed elsewhere, replaces the draft; a refused one leaves the user's
  // text in place next to the error.
  useEffect(() => { setDraft(String(stored)) }, [stored])
  const value = parseSettingNumber(bounds, draft)
  const invalid = value === undefined
  const changed = value !== stored
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!disabled && value !== undefined && changed && pending === undefined) onSave(field, value)
  }
  return (
    <form className="dts-field" onSubmit={submit} noValidate>
      <label className="dts-label" htmlFor={id}>{t(`${field}Label`)}</label>
      <div className="dts-inline">
        <input
          id={id}
          className={invalid ? 'dts-input dts-input-invalid' : 'dts-input'}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          size={String(bounds.max).length + 2}
          value={draft}
          disabled={disabled}
          aria-invalid={invalid}
          aria-describedby={`${id}-hint`}
          onChange={(event) => { setDraft(event.target.value) }}
        />
        <button type="submit" className="dts-button" disabled={disabled || invalid || !changed || pending !== undefined}>
          {pending === undefined ? t('save') : t('saving')}
        </button>
      </div>
      <p id={`${id}-hint`} className={invalid ? 'dts-invalid' : 'dts-hint'}>
        {invalid ? t('numberInvalid', { min: bounds.min, max: bounds.max }) : t(`${field}Hint`)}
      </p>
    </form>
  )
}
