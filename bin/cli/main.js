// The command line: picks the command, runs it, and turns input errors into one-line messages.
import { readFileSync } from 'node:fs'
import { native } from '../../dist/host/native.js'
import { parseCommandArgs } from './args.js'
import { InputError } from './errors.js'
import * as evaluate from './eval.js'
import * as explain from './explain.js'
import * as lint from './lint.js'
import * as search from './search.js'

const COMMANDS = new Map([search, explain, lint, evaluate].map(command => [command.name, command]))

const HELP = `Usage: dsh-tool-search <command> [options]

Search, explain and lint a tool catalog the way the dsh-tool-search plugin's tool_search
ranks it: the same Rust core, by words and meaning. Without --catalog, commands use an
embedded catalog: DeepSeek Harness 0.1.0-rc.8's own tools and the GitHub MCP server's.

Commands:
${[...COMMANDS.values()].map(c => `  ${c.name.padEnd(9)}${c.summary}`).join('\n')}

Examples:
  dsh-tool-search search "create a github issue"
  dsh-tool-search explain "find files by name" glob
  dsh-tool-search lint --catalog tools.json
  dsh-tool-search eval --catalog tools.json --requests requests.jsonl

Options:
  -h, --help     show this help; <command> --help shows a command's
  -v, --version  show the version`

/**
 * @param {string[]} argv the arguments after the program name
 * @param {import('../../dist/host/native.js').NativeLoad} core how the native core loaded; tests pass a failed load
 * @returns {Promise<{ stdout?: string, stderr?: string, code: number }>}
 */
export async function main(argv, core = native) {
  const [first, ...rest] = argv
  try {
    if (first === undefined) return { stderr: HELP, code: 2 }
    if (first === '-h' || first === '--help') return { stdout: HELP, code: 0 }
    if (first === '-v' || first === '--version') return { stdout: version(), code: 0 }
    if (first === 'help') {
      const command = rest[0] === undefined ? undefined : COMMANDS.get(rest[0])
      if (rest[0] !== undefined && !command) throw new InputError(`unknown command '${rest[0]}' (commands: ${[...COMMANDS.keys()].join(', ')})`)
      return { stdout: command?.help ?? HELP, code: 0 }
    }
    const command = COMMANDS.get(first)
    if (!command) throw new InputError(`unknown command '${first}' (commands: ${[...COMMANDS.keys()].join(', ')}; see: dsh-tool-search --help)`)
    const args = parseCommandArgs(command.name, rest, command.options)
    if (args.values['help']) return { stdout: command.help, code: 0 }
    // Every command ranks with the core; help and the version above need none.
    if (core.error !== undefined) return { stderr: `dsh-tool-search: ${core.error}`, code: 2 }
    return await command.run(args)
  } catch (error) {
    if (error instanceof InputError) return { stderr: `dsh-tool-search: ${error.message}`, code: 2 }
    throw error
  }
}

function version() {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
  return String(manifest.version)
}
