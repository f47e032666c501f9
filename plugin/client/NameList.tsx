/** One of the two name lists (always visible, never search): its names, each removable, and an add box. */

import { useId, useState, type FormEvent } from 'react'
import type { Translate } from './host.ts'
import { nameProblem, type ListField } from './policy.ts'

export interface NameListProps {
  readonly t: Translate
  readonly field: ListField
  readonly names: readonly string[]
  /** The id of a datalist of known tool names. */
  readonly suggestions: string
  readonly disabled: boolean
  readonly onAdd: (name: string) => Promise<{ ok: boolean }>
  readonly onRemove: (name: string) => unknown
}

const COPY = {
  alwaysVisible: { label: 'alwaysLabel', hint: 'alwaysHint' },
  neverSearch: { label: 'neverLabel', hint: 'neverHint' },
} as const

export function NameList({ t, field, names, suggestions, disabled, onAdd, onRemove }: NameListProps) {
  const id = useId()
  const [draft, setDraft] = useState('')
  const [problem, setProblem] = useState<ReturnType<typeof nameProblem>>(undefined)
  const label = t(COPY[field].label)
  const add = async (event: FormEvent) => {
    event.preventDefault()
    const found = nameProblem(draft, field)
    setProblem(found)
    if (found !== undefined || disabled) return
    // A failed write keeps the text, so the user can retry without typing it again.
    if ((await onAdd(draft.trim())).ok) setDraft('')
  }
  return (
    <fieldset className="dts-list">
      <legend className="dts-label">{label}</legend>
      <p className="dts-hint">{t(COPY[field].hint)}</p>
      <ul className="dts-chips" aria-label={label}>
        {names.length === 0 ? <li className="dts-chips-empty">{t('listEmpty')}</li> : names.map(name => (
          <li key={name} className="dts-chip">
            <code>{name}</code>
            <button
              type="button"
              className="dts-chip-remove"
              aria-label={t('remove', { name, list: label })}
              title={t('remove', { name, list: label })}
              disabled={disabled}
              onClick={() => { onRemove(name) }}
            >
              <svg width="10" height="10" viewBox="0 0 10 10" aria-hidden="true" focusable="false">
                <path d="M2 2l6 6M8 2 2 8" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" />
              </svg>
            </button>
          </li>
        ))}
      </ul>
      <form className="dts-inline" onSubmit={(event) => { void add(event) }} noValidate>
        <label className="dts-visually-hidden" htmlFor={id}>{t('addLabel', { list: label })}</label>
        <input
          id={id}
          className={problem === undefined ? 'dts-input' : 'dts-input dts-input-invalid'}
          type="text"
          list={suggestions}
          autoComplete="off"
          spellCheck={false}
          value={draft}
          disabled={disabled}
          aria-invalid={problem !== undefined}
          aria-describedby={problem === undefined ? undefined : `${id}-problem`}
          onChange={(event) => { setDraft(event.target.value); setProblem(undefined) }}
        />
        <button type="submit" className="dts-button dts-button-secondary" disabled={disabled}>{t('add')}</button>
      </form>
      {problem === undefined ? null : (
        <p id={`${id}-problem`} className="dts-invalid">{t(problem === 'empty' ? 'nameEmpty' : 'nameUnblockable')}</p>
      )}
    </fieldset>
  )
}
