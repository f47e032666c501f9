/**
 * The settings page's edits as pure functions of the stored section: which list a tool is on, the
 * lists after a policy change, and the numbers the page accepts.
 */

import { TOOL_SEARCH_NAME, compareNames, inBounds, sameNames, type NamesKey, type NumberSetting } from '../contract.ts'
import { DEFAULT_CORE_TOOLS } from '../offer/core-tools.ts'
import type { ToolSearchSection } from './host.ts'

/** What the user picks for one tool: no list (core or deferred), alwaysVisible, or neverSearch. */
export type PolicyChoice = 'default' | 'always' | 'never'

/** The two lists a policy change may touch. */
export type ListField = NamesKey

const CORE = new Set(DEFAULT_CORE_TOOLS)

/** Whether `name` is offered without a search when it is on no list. */
export function isCore(name: string): boolean {
  return CORE.has(name)
}

/** The choice the stored lists make for `name`; neverSearch wins, as in the plugin. */
export function choiceOf(section: ToolSearchSection, name: string): PolicyChoice {
  if (listed(section.neverSearch, name)) return 'never'
  if (listed(section.alwaysVisible, name)) return 'always'
  return 'default'
}

/** Whether a stored list names `name` (the plugin trims the names it reads). */
function listed(list: readonly string[], name: string): boolean {
  return list.some(entry => entry.trim() === name)
}

/**
 * The lists after giving `name` the policy `choice`: the name leaves both lists and joins the
 * chosen one. Only the lists that change are returned, so a move between the two lists is the
 * one change that touches two fields.
 */
export function listsWithChoice(section: ToolSearchSection, name: string, choice: PolicyChoice): Partial<Record<ListField, string[]>> {
  const next: Record<ListField, string[]> = {
    alwaysVisible: section.alwaysVisible.filter(entry => entry.trim() !== name),
    neverSearch: section.neverSearch.filter(entry => entry.trim() !== name),
  }
  if (choice === 'always') next.alwaysVisible = sortedNames([...next.alwaysVisible, name])
  if (choice === 'never') next.neverSearch = sortedNames([...next.neverSearch, name])
  const changed: Partial<Record<ListField, string[]>> = {}
  for (const field of ['alwaysVisible', 'neverSearch'] as const) {
    if (!sameNames(next[field], section[field])) changed[field] = next[field]
  }
  return changed
}

/** The choice a list stands for. */
export function choiceFor(field: ListField): PolicyChoice {
  return field === 'alwaysVisible' ? 'always' : 'never'
}

/** Why a name typed into a list cannot be added, or undefined when it can. */
export function nameProblem(name: string, field: ListField): 'empty' | 'search-unblockable' | undefined {
  if (name.trim() === '') return 'empty'
  if (field === 'neverSearch' && name.trim() === TOOL_SEARCH_NAME) return 'search-unblockable'
  return undefined
}

/**
 * The number typed into the page for `field`, if it is a whole number within the field's bounds
 * and has no more digits than its maximum. Text rather than a number input's value, so "2.5",
 * "7x" and "" are reported instead of silently coerced.
 */
export function parseSettingNumber(field: NumberSetting, text: string): number | undefined {
  const trimmed = text.trim()
  if (!/^\d+$/.test(trimmed) || trimmed.length > String(field.max).length) return undefined
  const value = Number(trimmed)
  return inBounds(field, value) ? value : undefined
}

/** De-duplicated and in the plugin's name order. */
function sortedNames(names: readonly string[]): string[] {
  return [...new Set(names)].sort(compareNames)
}
