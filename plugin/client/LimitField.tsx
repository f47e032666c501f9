/** The default result count: typed as text, checked as the user types, written on Save or Enter. */

import { useEffect, useId, useState, type FormEvent } from 'react'
import type { Translate } from './host.ts'
import { parseDefaultLimit } from './policy.ts'

export interface LimitFieldProps {
  readonly t: Translate
  /** The count DSH holds. */
  readonly stored: number
  /** The count being written, if any. */
  readonly pending: number | undefined
  readonly disabled: boolean
  readonly onSave: (limit: number) => unknown
}

export function LimitField({ t, stored, pending, disabled, onSave }: LimitFieldProps) {
  const id = useId()
  const [draft, setDraft] = useState(String(stored))
  // A saved value, or one changed elsewhere, replaces the draft; a refused one leaves the user's
  // text in place next to the error.
  useEffect(() => { setDraft(String(stored)) }, [stored])
  const value = parseDefaultLimit(draft)
  const invalid = value === undefined
  const changed = value !== stored
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!disabled && value !== undefined && changed && pending === undefined) onSave(value)
  }
  return (
    <form className="dts-field" onSubmit={submit} noValidate>
      <label className="dts-label" htmlFor={id}>{t('limitLabel')}</label>
      <div className="dts-inline">
        <input
          id={id}
          className={invalid ? 'dts-input dts-input-invalid' : 'dts-input'}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          size={4}
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
      <p id={`${id}-hint`} className={invalid ? 'dts-invalid' : 'dts-hint'}>{invalid ? t('limitInvalid') : t('limitHint')}</p>
    </form>
  )
}
