/**
 * The settings page's edits as pure functions of the stored section: which list a tool is on, the
 * lists after a policy change, and the result count the page accepts.
 */

import { DEFAULT_CORE_TOOLS } from '../core-tools.ts'
import type { ToolSearchSection } from './host.ts'

// The same values as config.ts, restated: config.ts builds the schemastery schema at import time,
// which the browser bundle has no use for (a test keeps the two in step).
export const TOOL_SEARCH_NAME = 'tool_search'
export const MIN_LIMIT = 1
export const MAX_LIMIT = 20

/** What the user picks for one tool: no list (core or deferred), alwaysVisible, or neverSearch. */
export type PolicyChoice = 'default' | 'always' | 'never'

/** The two lists a policy change may touch. */
export type ListField = 'alwaysVisible' | 'neverSearch'

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
 * The result count typed into the page, if it is a whole number from 1 to 20. Text rather than a
 * number input's value, so "2.5", "7x" and "" are reported instead of silently coerced.
 */
export function parseDefaultLimit(text: string): number | undefined {
  const trimmed = text.trim()
  if (!/^\d{1,2}$/.test(trimmed)) return undefined
  const value = Number(trimmed)
  return value >= MIN_LIMIT && value <= MAX_LIMIT ? value : undefined
}

/** De-duplicated and in code-point order, as the plugin normalizes them. */
function sortedNames(names: readonly string[]): string[] {
  return [...new Set(names)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i])
}
