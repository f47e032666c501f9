// `lint`: findability problems in a catalog, as errors (exit code 1) and warnings.
import { SETTINGS } from '../../dist/contract.js'
import { CATALOG_OPTIONS, COMMON_OPTIONS, RANKING_HELP, ranking as rankingChoice, usage, wholeNumber } from './args.js'
import { loadCatalog } from './catalog.js'
import { count, wrap, WIDTH } from './format.js'
import { lintCatalog } from './lint-checks.js'

/** tool_search's default number of results: a tool outside them is, by default, not offered. */
const DEFAULT_TOP = SETTINGS.defaultLimit.default

export const name = 'lint'
export const summary = 'check that every tool can be found, and found apart from the others'
/** @type {import('./args.js').OptionSpec} */
export const options = { ...CATALOG_OPTIONS, ...COMMON_OPTIONS, top: { type: 'string' } }
export const help = `Usage: dsh-tool-search lint [options]

Checks how findable each tool of a catalog is with tool_search. Exit code 1 when there are
errors, 0 when there are none (warnings alone do not fail), 2 when the catalog cannot be read
or the arguments are wrong.

Errors: the tool is lost in the catalog
  self-search            searching the tool's own description does not bring it into the top N
  no-description         the tool has no description
  duplicate-name         several tools share a name; only the first is searchable
Warnings: the tool ranks or reads worse than it could
  near-duplicate         two tools whose descriptions each score the other at 80% or more
                         of itself: queries in either's words split between them
  short-description      a one-line description of fewer than 12 words
  undescribed-parameter  parameters (nested ones too) without a description
  mcp-name               a name DSH's MCP bridge rewrites (characters outside [A-Za-z0-9_-],
                         or over 64 characters with the mcp__server__ prefix): it gets a hash
                         suffix and may lose words

Options:
  -c, --catalog FILE     tools to check (repeatable; - reads standard input); default: the
                         embedded DSH and GitHub MCP catalog (see: dsh-tool-search search --help)
      --mcp-server NAME  the catalog is an MCP server's tools/list: check the names DSH gives
                         them (mcp__NAME__tool) and search under them
${RANKING_HELP}
      --top N            the rank a tool's own description must reach (default ${DEFAULT_TOP},
                         tool_search's default limit)
      --json             print {catalog, tools, top, errors, warnings, findings: [{tool,
                         severity, check, message, ...details}]}
  -h, --help             show this help`

/**
 * @param {import('./args.js').Parsed} args
 * @returns {Promise<{ stdout: string, code: number }>}
 */
export async function run({ values, positionals }) {
  if (positionals.length > 0) throw usage(name, `unexpected argument '${positionals[0]}'`)
  const top = wholeNumber(name, 'top', /** @type {string | undefined} */ (values['top']), DEFAULT_TOP)
  const catalog = await loadCatalog({ files: /** @type {string[] | undefined} */ (values['catalog']), mcpServer: /** @type {string | undefined} */ (values['mcp-server']), ranking: rankingChoice(name, /** @type {string | undefined} */ (values['ranking'])) })
  const findings = lintCatalog({ tools: catalog.tools, index: catalog.index, top })
  const errors = findings.filter(f => f.severity === 'error').length
  const warnings = findings.length - errors
  const code = errors > 0 ? 1 : 0
  if (values['json']) {
    return { stdout: JSON.stringify({ catalog: catalog.label, tools: catalog.tools.length, top, errors, warnings, findings }, null, 2), code }
  }
  const lines = []
  const checkWidth = Math.max(0, ...findings.map(f => f.check.length))
  const indent = ' '.repeat(2 + 'warning'.length + 2 + checkWidth + 2)
  for (const [tool, own] of groupByTool(findings)) {
    lines.push(tool)
    for (const f of own) {
      const [first = '', ...rest] = wrap(f.message, WIDTH - indent.length)
      lines.push(`  ${f.severity.padEnd('warning'.length)}  ${f.check.padEnd(checkWidth)}  ${first}`, ...rest.map(line => indent + line))
    }
    lines.push('')
  }
  const tally = findings.length === 0 ? 'no problems' : `${count(errors, 'error')} and ${count(warnings, 'warning')}`
  lines.push(`${tally} in ${count(catalog.tools.length, 'tool')} (${catalog.label})`)
  return { stdout: lines.join('\n'), code }
}

/**
 * @param {import('./lint-checks.js').Finding[]} findings sorted by tool
 * @returns {Map<string, import('./lint-checks.js').Finding[]>}
 */
function groupByTool(findings) {
  const groups = new Map()
  for (const finding of findings) groups.set(finding.tool, [...groups.get(finding.tool) ?? [], finding])
  return groups
}
