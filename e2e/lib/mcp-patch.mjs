// A patch layer that bridges one MCP server through DSH's own MCP client (dsh-mcp-client), for
// runs that replay a recorded server (bench/tokens/mcp-replay-server.mjs) instead of the real one.

/**
 * The rows a patch layer inserts: DSH's MCP client on a replayed server.
 * @param {{node: string, server: string, fixture: string, serverName: string, args?: string[]}} options
 *   `serverName`: the name the bridge prefixes its tools with (`mcp__<serverName>__<tool>`);
 *   `args`: more arguments for the replay server, after the fixture.
 * @returns {string} YAML for a `--patch` file.
 */
export function mcpClientPatch({ node, server, fixture, serverName, args = [] }) {
  return `- insert:
    - id: e2e-mcp-${serverName}
      name: '@deepseek-ai/dsh-mcp-client'
      config:
        serverName: ${serverName}
        transport: stdio
        command: ${JSON.stringify(node)}
        args: [${[server, fixture, ...args].map((arg) => JSON.stringify(arg)).join(', ')}]
        failOnStartupError: true
`
}
