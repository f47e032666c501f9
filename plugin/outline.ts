/**
 * The catalog outline: one line at the end of `tool_search`'s description that says what is
 * deferred, so a model can tell that a GitHub or Notion server is installed before it searches
 * (instead of answering "I have no tool for that"). MCP tools are named by server with a count and
 * their most distinctive words (computed by the core from the names), the other deferred tools by
 * name while they fit.
 *
 * It costs at most {@link OUTLINE_BUDGET_TOKENS} tokens whatever the catalog: past the budget
 * the groups lose their words, then groups and names give way to a count. It depends only on
 * the registry and the settings, never on an Agent's selection, so the description (and with
 * it the cached prompt prefix) stays the same from step to step.
 */

import type { CatalogOutline, OutlineGroup } from './native.ts'
import { estimateTokens } from './token-estimate.ts'

/** The most o200k_base tokens the outline may take, by the conservative estimate. */
export const OUTLINE_BUDGET_TOKENS = 400

const HEAD = 'Deferred tools (installed; tool_search loads them): '
const SEPARATOR = '; '
const OTHERS = 'other: '
const NAME_SEPARATOR = ', '

/**
 * @param outline - the deferred tools, as the native index outlines them.
 * @param budget - the most estimated tokens the text may take.
 * @returns the outline text, or '' when nothing is deferred (or not even the count fits).
 */
export function renderOutline(outline: CatalogOutline, budget: number = OUTLINE_BUDGET_TOKENS): string {
  const total = outline.groups.reduce((sum, group) => sum + group.tools, 0) + outline.ungrouped.length
  if (total === 0) return ''
  const whole = finish([...outline.groups.map(group => groupText(group, true)), ...others(outline.ungrouped)], 0)
  if (estimateTokens(whole) <= budget) return whole
  for (const withWords of [true, false]) {
    const text = fitted(outline, total, budget, withWords)
    if (text !== undefined && estimateTokens(text) <= budget) return text
  }
  const count = `${HEAD}${total} tools.`
  return estimateTokens(count) <= budget ? count : ''
}

/**
 * The outline with every group, words or not, and then as many other names as fit; undefined
 * when the groups alone do not fit with words (the caller tries again without). Without words,
 * groups that do not fit give way to the count. Room for the count at the end is kept from the
 * start, since any name may turn out to be the first left out.
 */
function fitted(outline: CatalogOutline, total: number, budget: number, withWords: boolean): string | undefined {
  // The sum of the parts' estimates bounds the estimate of the joined text from above: joining
  // runs never costs more than the runs apart.
  let used = estimateTokens(HEAD) + estimateTokens(tail(total))
  const parts: string[] = []
  let shown = 0
  for (const group of outline.groups) {
    const part = groupText(group, withWords)
    const cost = estimateTokens(part) + estimateTokens(SEPARATOR)
    if (used + cost > budget) {
      if (withWords) return undefined
      return finish(parts, total - shown)
    }
    parts.push(part)
    used += cost
    shown += group.tools
  }
  const names: string[] = []
  used += estimateTokens(OTHERS)
  for (const name of outline.ungrouped) {
    const cost = estimateTokens(name) + estimateTokens(NAME_SEPARATOR)
    if (used + cost > budget) break
    names.push(name)
    used += cost
  }
  return finish([...parts, ...others(names)], total - shown - names.length)
}

/** The part that names the tools of no group, if there are any. */
function others(names: readonly string[]): string[] {
  return names.length === 0 ? [] : [`${OTHERS}${names.join(NAME_SEPARATOR)}`]
}

function groupText(group: OutlineGroup, withWords: boolean): string {
  const count = `${group.tools} ${group.tools === 1 ? 'tool' : 'tools'}`
  return withWords && group.words.length > 0 ? `${group.name} (${count}: ${group.words.join(', ')})` : `${group.name} (${count})`
}

function finish(parts: readonly string[], hidden: number): string {
  if (parts.length === 0) return `${HEAD}${hidden} tools.`
  return `${HEAD}${parts.join(SEPARATOR)}${hidden > 0 ? tail(hidden) : '.'}`
}

/** What the outline ends with when `hidden` deferred tools are not named in it. */
function tail(hidden: number): string {
  return `, and ${hidden} more.`
}

/**
 * `tool_search`'s description as the model reads it: the registered text, then the outline.
 * @param description - the registered description.
 * @param outline - from {@link renderOutline}; '' leaves the description as it is.
 */
export function describedSearch(description: string, outline: string): string {
  return outline === '' ? description : `${description}\n\n${outline}`
}
