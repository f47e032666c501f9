/**
 * A cheap count of o200k_base tokens, for sizes the plugin must know on every registry change
 * without carrying a tokenizer: the deferred schemas `defer: auto` weighs against its threshold.
 *
 * o200k gives English prose and JSON punctuation a token per few characters and a CJK character
 * close to a token of its own, so the two are counted apart. The ratios were fitted on the
 * benchmark's catalogs (tool definitions as DSH sends them) and on the card's Chinese copy; the
 * benchmark prints how far the estimate is from o200k on every catalog it measures.
 */

import type { ToolSchema } from '@deepseek-ai/dsh-llm'

/** UTF-16 units per token outside the wide scripts. */
const NARROW_UNITS_PER_TOKEN = 4.6
/** Tokens per character of the wide scripts (CJK, kana, hangul and the rest from U+2E80 on). */
const WIDE_TOKENS_PER_CHAR = 0.8
const FIRST_WIDE_UNIT = 0x2e80

/** The estimated o200k tokens of `text`. */
export function estimateTokens(text: string): number {
  let wide = 0
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= FIRST_WIDE_UNIT) wide += 1
  return Math.ceil((text.length - wide) / NARROW_UNITS_PER_TOKEN + wide * WIDE_TOKENS_PER_CHAR)
}

/**
 * The estimated o200k tokens of one tool as DSH's DeepSeek adapter serializes it into a request's
 * `tools` (`{type: 'function', function: {name, description, parameters}}`). A schema that is not
 * JSON cannot be sent either and counts nothing.
 */
export function estimateToolTokens(tool: ToolSchema): number {
  try {
    return estimateTokens(JSON.stringify({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }))
  } catch {
    return 0
  }
}
