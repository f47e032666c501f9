#!/usr/bin/env node
// A stdio MCP server that lists the tools recorded in one catalogs/mcp/<server>.json fixture
// (see capture-mcp.mjs), so the benchmark runs DSH's real MCP bridge (dsh-mcp-client) over the
// real protocol without the original server, its dependencies or the network. It answers
// `initialize`, `ping` and `tools/list`; a tool call is an error, since the benchmark never runs one.
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'

const { source, tools } = JSON.parse(readFileSync(/** @type {string} */ (process.argv[2]), 'utf8'))

/** @type {Record<string, (params: {protocolVersion?: string}) => object>} */
const results = {
  initialize: (params) => ({
    protocolVersion: params.protocolVersion,
    capabilities: { tools: {} },
    serverInfo: source.server,
  }),
  ping: () => ({}),
  'tools/list': () => ({ tools }),
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line)
  if (message.id === undefined) return // notifications need no answer
  const result = results[message.method]
  const reply = result === undefined
    ? { error: { code: -32601, message: `replayed ${source.package} serves only initialize, ping and tools/list` } }
    : { result: result(message.params ?? {}) }
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, ...reply })}\n`)
})
