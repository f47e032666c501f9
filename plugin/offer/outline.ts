/**
 * The catalog outline: a few sentences at the end of `tool_search`'s description that say what
 * is deferred, so a model can tell that a GitHub or Notion server is installed before it searches
 * (instead of answering "I have no tool for that"). MCP servers by name, each with a count and
 * the most distinctive words of its tool names (computed by the core), then the other deferred
 * tools by name while they fit:
 *
 *   Deferred tools, installed and loaded by tool_search. MCP servers (tools named
 *   mcp__<server>__<tool>): github (26 tools: pull, request, issue, get). Other tools: ralph,
 *   web_search. And 3 more.
 *
 * It costs at most {@link OUTLINE_BUDGET_TOKENS} tokens whatever the catalog: past the budget
 * the groups lose their words, then groups and names give way to a count. It depends only on
 * the registry and the settings, never on an Agent's selection, so the description (and with
 * it the cached prompt prefix) stays the same from step to step.
 */

import type { CatalogOutline, OutlineGroup } from '../host/native.ts'
import { estimateTokens } from './token-estimate.ts'

/** The most o200k_base tokens the outline may take. */
export const OUTLINE_BUDGET_TOKENS = 400
/**
 * What the outline is fitted to by the cheap estimate: three quarters of the budget. On outline
 * text the estimate runs up to a quarter below o200k (`bench/tokens/estimate-error.mjs`: rare
 * words in tool names it counts as one token, o200k as several), and the benchmark checks the
 * real count of every outline it prints against the budget.
 */
const OUTLINE_FIT_TOKENS = Math.floor(OUTLINE_BUDGET_TOKENS * 0.75)

const HEAD = 'Deferred tools, installed and loaded by tool_search.'
const MCP_PREFIX = 'mcp__'
const GROUPS = `MCP servers (tools named ${MCP_PREFIX}<server>__<tool>): `
const GROUP_SEPARATOR = '; '
const NAME_SEPARATOR = ', '

/** What an outline shows: the groups (with words or not), the names, and how many tools it leaves unnamed. */
interface Shown {
  readonly groups: readonly OutlineGroup[]
  readonly words: boolean
  readonly names: readonly string[]
  readonly hidden: number
}

/**
 * @param outline - the deferred tools, as the native index outlines them.
 * @param budget - the most estimated tokens the text may take.
 * @returns the outline text, or '' when nothing is deferred (or not even the count fits).
 */
export function renderOutline(outline: CatalogOutline, budget: number = OUTLINE_FIT_TOKENS): string {
  const total = outline.groups.reduce((sum, group) => sum + group.tools, 0) + outline.ungrouped.length
  if (total === 0) return ''
  const whole = text(outline, { groups: outline.groups, words: true, names: outline.ungrouped, hidden: 0 })
  if (estimateTokens(whole) <= budget) return whole
  for (const words of [true, false]) {
    const shown = fitted(outline, total, budget, words)
    const fit = shown === undefined ? undefined : text(outline, shown)
    if (fit !== undefined && estimateTokens(fit) <= budget) return fit
  }
  const count = countOnly(total)
  return estimateTokens(count) <= budget ? count : ''
}

/**
 * Every group, with words or not, then as many other names as fit; undefined when the groups
 * alone do not fit with words (the caller tries again without). Without words, groups that do
 * not fit give way to the count. The estimate of the parts is summed as they are added (joining
 * runs never costs more than the runs apart), with room for the count at the end kept from the
 * start, since any name may turn out to be the first left out.
 */
function fitted(outline: CatalogOutline, total: number, budget: number, words: boolean): Shown | undefined {
  let used = estimateTokens(HEAD) + estimateTokens(GROUPS) + estimateTokens(othersLabel(true)) + estimateTokens(tail(total))
  const groups: OutlineGroup[] = []
  let named = 0
  for (const group of outline.groups) {
    used += estimateTokens(groupText(group, words)) + estimateTokens(GROUP_SEPARATOR)
    if (used > budget) return words ? undefined : { groups, words, names: [], hidden: total - named }
    groups.push(group)
    named += group.tools
  }
  const names: string[] = []
  for (const name of outline.ungrouped) {
    used += estimateTokens(name) + estimateTokens(NAME_SEPARATOR)
    if (used > budget) break
    names.push(name)
  }
  return { groups, words, names, hidden: total - named - names.length }
}

function text(outline: CatalogOutline, shown: Shown): string {
  if (shown.groups.length === 0 && shown.names.length === 0) return countOnly(shown.hidden)
  const sentences = [HEAD]
  if (shown.groups.length > 0) sentences.push(`${GROUPS}${shown.groups.map(group => groupText(group, shown.words)).join(GROUP_SEPARATOR)}.`)
  if (shown.names.length > 0) sentences.push(`${othersLabel(outline.groups.length > 0)}${shown.names.join(NAME_SEPARATOR)}.`)
  if (shown.hidden > 0) sentences.push(tail(shown.hidden))
  return sentences.join(' ')
}

function groupText(group: OutlineGroup, words: boolean): string {
  const server = group.name.startsWith(MCP_PREFIX) ? group.name.slice(MCP_PREFIX.length) : group.name
  const count = `${group.tools} ${group.tools === 1 ? 'tool' : 'tools'}`
  return words && group.words.length > 0 ? `${server} (${count}: ${group.words.join(', ')})` : `${server} (${count})`
}

function othersLabel(afterGroups: boolean): string {
  return afterGroups ? 'Other tools: ' : 'Tools: '
}

function countOnly(total: number): string {
  return `Deferred tools, installed and loaded by tool_search: ${total}.`
}

/** What the outline ends with when `hidden` deferred tools are not named in it. */
function tail(hidden: number): string {
  return `And ${hidden} more.`
}

/**
 * `tool_search`'s description as the model reads it: the registered text, then the outline.
 * @param description - the registered description.
 * @param outline - from {@link renderOutline}; '' leaves the description as it is.
 */
export function describedSearch(description: string, outline: string): string {
  return outline === '' ? description : `${description}\n\n${outline}`
}
