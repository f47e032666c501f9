// Reading a command's arguments: node's own parser, with its errors and our checks turned into
// one-line usage errors.
import { parseArgs } from 'node:util'
import { MAX_QUERY_CHARS, SETTINGS } from '../../dist/contract.js'
import { InputError } from './errors.js'

/**
 * @typedef {import('node:util').ParseArgsConfig['options']} OptionSpec
 * @typedef {{ values: Record<string, string | string[] | boolean | undefined>, positionals: string[] }} Parsed
 */

/** The options that choose a catalog and how it is ranked, taken by every command. */
export const CATALOG_OPTIONS = /** @type {const} */ ({
  catalog: { type: 'string', short: 'c', multiple: true },
  'mcp-server': { type: 'string' },
  ranking: { type: 'string' },
})

/** Help lines for `--ranking`, the plugin's `ranking` setting. */
export const RANKING_HELP = `      --ranking MODE     ${SETTINGS.ranking.choices.join(' or ')}, as the plugin's ranking setting
                         (default ${SETTINGS.ranking.default}: words and meaning when the model package is installed)`

/**
 * The `--ranking` choice, checked against the setting's choices.
 * @param {string} command
 * @param {string | undefined} text
 * @returns {import('../../dist/contract.js').ChoiceOf<'ranking'>}
 */
export function ranking(command, text) {
  return choice(command, 'ranking', text)
}

/**
 * The `--loading` choice, checked against the setting's choices.
 * @param {string} command
 * @param {string | undefined} text
 * @returns {import('../../dist/contract.js').ChoiceOf<'loading'>}
 */
export function loading(command, text) {
  return choice(command, 'loading', text)
}

/**
 * The value of an option named for a choice setting: its default when not given.
 * @template {'ranking' | 'loading'} K
 * @param {string} command
 * @param {K} key
 * @param {string | undefined} text
 * @returns {import('../../dist/contract.js').ChoiceOf<K>}
 */
function choice(command, key, text) {
  const setting = SETTINGS[key]
  if (text === undefined) return /** @type {import('../../dist/contract.js').ChoiceOf<K>} */ (setting.default)
  const choices = /** @type {readonly string[]} */ (setting.choices)
  if (!choices.includes(text)) throw usage(command, `--${key} must be ${choices.join(' or ')}, got '${text}'`)
  return /** @type {import('../../dist/contract.js').ChoiceOf<K>} */ (text)
}

export const COMMON_OPTIONS = /** @type {const} */ ({
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
})

/**
 * @param {string} command for messages
 * @param {string[]} argv the arguments after the command
 * @param {OptionSpec} options
 * @returns {Parsed}
 */
export function parseCommandArgs(command, argv, options) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true })
  } catch (error) {
    // Node's messages carry advice for programmers after the first sentence ("To specify a
    // positional argument starting with a '-', ...").
    const first = /** @type {Error} */ (error).message.split(/\.\s/)[0] ?? ''
    throw usage(command, first.charAt(0).toLowerCase() + first.slice(1))
  }
}

/**
 * A usage error that points at the command's help.
 * @param {string} command
 * @param {string} message
 */
export function usage(command, message) {
  return new InputError(`${message} (see: dsh-tool-search ${command} --help)`)
}

/**
 * The query of a command, trimmed, checked as tool_search checks it.
 * @param {string} command
 * @param {string} text
 */
export function query(command, text) {
  const trimmed = text.trim()
  if (!trimmed) throw usage(command, 'the query is empty')
  const chars = [...trimmed].length
  if (chars > MAX_QUERY_CHARS) throw usage(command, `the query is ${chars} characters long; tool_search takes at most ${MAX_QUERY_CHARS}`)
  return trimmed
}

/**
 * The value of a count option: a whole number, at least 1.
 * @param {string} command
 * @param {string} option its name, without dashes
 * @param {string | undefined} text
 * @param {number} fallback
 */
export function wholeNumber(command, option, text, fallback) {
  if (text === undefined) return fallback
  const n = Number(text)
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(n) || n < 1) {
    throw usage(command, `--${option} must be a whole number of at least 1, got '${text}'`)
  }
  return n
}
