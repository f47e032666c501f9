/**
 * Fixture tools, registered through the real `ToolRuntime`. Their names mirror what a DSH profile
 * registers (core stand-ins such as `read` and `bash`; MCP-style deferred tools), because the
 * plugin's default core set is a list of names.
 */

import type { Context } from '@deepseek-ai/cordis'
import { defineTool } from '@deepseek-ai/dsh-tools'

export interface FixtureTool {
  readonly name: string
  readonly description: string
  /** Property name to description, all strings, all optional. */
  readonly properties?: Readonly<Record<string, string>>
}

/** Stand-ins for DSH core tools (in the default core set). */
export const CORE_FIXTURES: readonly FixtureTool[] = [
  { name: 'bash', description: 'Run a shell command in the workspace.', properties: { command: 'The command line.' } },
  { name: 'read', description: 'Read a text file from the workspace.', properties: { path: 'File path.' } },
  { name: 'grep', description: 'Search file contents with a regular expression.', properties: { pattern: 'Regex.' } },
]

/** Tools the plugin defers: MCP servers and an uncommon built-in. */
export const DEFERRED_FIXTURES: readonly FixtureTool[] = [
  {
    name: 'mcp__weather__forecast',
    description: 'Get the weather forecast for a city for the next days.',
    properties: { city: 'City name.', days: 'How many days ahead.' },
  },
  {
    name: 'mcp__github__create_issue',
    description: 'Create an issue in a GitHub repository.',
    properties: { repo: 'owner/name of the repository.', title: 'Issue title.', body: 'Issue body in markdown.' },
  },
  {
    name: 'mcp__postgres__query',
    description: 'Run a read-only SQL query against the Postgres database.',
    properties: { sql: 'The SQL statement.' },
  },
  {
    name: 'mcp__mail__send_email',
    description: 'Send an email message to one or more recipients.',
    properties: { to: 'Recipient addresses.', subject: 'Subject line.', text: 'Message body.' },
  },
  { name: 'web_search', description: 'Search the web and return result snippets.', properties: { query: 'Search terms.' } },
]

export const CORE_NAMES = CORE_FIXTURES.map(tool => tool.name)
export const DEFERRED_NAMES = DEFERRED_FIXTURES.map(tool => tool.name)

/** Every fixture call, in execution order (name and parsed arguments). */
export interface CallLog {
  readonly calls: { name: string; args: unknown }[]
}

/**
 * Register fixture tools on `ctx.tools` (owned by `ctx`'s fiber).
 * @returns the shared call log.
 */
export function registerFixtures(ctx: Context, tools: readonly FixtureTool[], log: CallLog = { calls: [] }): CallLog {
  for (const tool of tools) ctx.tools.register(fixtureTool(tool, log))
  return log
}

export function fixtureTool(tool: FixtureTool, log: CallLog = { calls: [] }): ReturnType<typeof defineTool> {
  const properties = Object.fromEntries(
    Object.entries(tool.properties ?? {}).map(([key, description]) => [key, { type: 'string', description } as const]),
  )
  return defineTool({
    name: tool.name,
    description: tool.description,
    parameters: properties,
    output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
    execute(args) {
      log.calls.push({ name: tool.name, args })
      return Promise.resolve(`${tool.name} ran`)
    },
  })
}
