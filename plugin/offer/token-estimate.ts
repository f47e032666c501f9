/**
 * A cheap count of the tokens a text costs a model, for the sizes the plugin must know without
 * carrying a tokenizer: the deferred schemas `defer: auto` weighs against its threshold, and the
 * catalog outline's budget in `tool_search`'s description. One pass over the text, no allocation.
 *
 * Modelled on o200k_base, the tokenizer the benchmark counts with, whose pre-tokenizer splits
 * words at case changes, gives a word the one mark before it, and keeps digits apart: a run of
 * ASCII letters (split where a capital follows a small letter) costs one token per started 9
 * letters and takes in the punctuation mark just before it; a run of digits one per started 3,
 * and the single space before it one more; a run of ASCII punctuation one per started 3
 * characters; a run of two or more whitespace characters one, a single space before a word none;
 * every other character (CJK, accented letters, emoji) one. On tool definitions as DSH sends them
 * it lands within a few percent of o200k for a whole catalog; on identifier-heavy text with rare
 * words (outline names, which o200k splits into several pieces) it runs low, which the outline's
 * budget allows for. `bench/tokens/estimate-error.mjs` prints both; the benchmark prints the
 * error on every catalog it measures.
 */

import type { ToolSchema } from '@deepseek-ai/dsh-llm'

/** What kind of run a character belongs to; `OTHER` characters cost a token each and form no run. */
const OTHER = 0
const LETTERS = 1
const DIGITS = 2
const PUNCTUATION = 3
const SPACE = 4
type Run = typeof OTHER | typeof LETTERS | typeof DIGITS | typeof PUNCTUATION | typeof SPACE

/** How many characters of a run one token covers. */
const LETTERS_PER_TOKEN = 9
const DIGITS_PER_TOKEN = 3
const PUNCTUATION_PER_TOKEN = 3

/**
 * @param text - any text.
 * @returns its estimated o200k_base token count.
 */
export function estimateTokens(text: string): number {
  let tokens = 0
  let run: Run = OTHER
  let length = 0
  const close = (): void => {
    if (run === LETTERS) tokens += Math.ceil(length / LETTERS_PER_TOKEN)
    else if (run === DIGITS) tokens += Math.ceil(length / DIGITS_PER_TOKEN)
    else if (run === PUNCTUATION) tokens += Math.ceil(length / PUNCTUATION_PER_TOKEN)
    else if (run === SPACE && length > 1) tokens += 1
  }
  let lower = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const kind = classify(code)
    // o200k splits words at a capital after a small letter (`getWeather` is two pieces).
    const upper = code >= 0x41 && code <= 0x5a
    if (kind === LETTERS && run === LETTERS && upper && lower) {
      close()
      length = 0
    }
    lower = code >= 0x61 && code <= 0x7a
    if (kind === OTHER) {
      close()
      run = OTHER
      length = 0
      tokens += 1
      // A surrogate pair is one character.
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
        const low = text.charCodeAt(i + 1)
        if (low >= 0xdc00 && low <= 0xdfff) i++
      }
      continue
    }
    if (kind !== run) {
      // o200k gives digits no leading space: the space before a number is a token of its own.
      if (kind === DIGITS && run === SPACE && length === 1) tokens += 1
      // A word takes the one mark before it into its own token (`_weather`, `.factorial`).
      if (kind === LETTERS && run === PUNCTUATION) length -= 1
      close()
      run = kind
      length = 0
    }
    length++
  }
  close()
  return tokens
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

function classify(code: number): Run {
  if (code >= 0x80) return OTHER
  const lower = code | 0x20
  if (lower >= 0x61 && lower <= 0x7a) return LETTERS
  if (code >= 0x30 && code <= 0x39) return DIGITS
  if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0b || code === 0x0c) return SPACE
  return PUNCTUATION
}
