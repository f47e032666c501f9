#!/usr/bin/env node
// A stdio MCP server that lists the tools recorded in one catalogs/mcp/<server>.json fixture
// (see capture-mcp.mjs), so the benchmark runs DSH's real MCP bridge (dsh-mcp-client) over the
// real protocol without the original server, its dependencies or the network. It answers
// `initialize`, `ping` and `tools/list`. A tool call is an error, since the token benchmark never
// runs one, unless a number of words follows the fixture (`mcp-replay-server.mjs <fixture>
// <words>`): then every call answers with that much deterministic filler text, seeded by the
// call, as the measured-cost sessions' tools do (bench/cost/measured/session-plugin/filler.js).
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { fillerText } from '../cost/measured/session-plugin/filler.js'

const { source, tools } = JSON.parse(readFileSync(/** @type {string} */ (process.argv[2]), 'utf8'))
const resultWords = process.argv[3] === undefined ? undefined : Number(process.argv[3])

/** @type {Record<string, (params: any) => object>} */
const results = {
  initialize: (params) => ({
    protocolVersion: params.protocolVersion,
    capabilities: { tools: {} },
    serverInfo: source.server,
  }),
  ping: () => ({}),
  'tools/list': () => ({ tools }),
  ...resultWords !== undefined && {
    'tools/call': (/** @type {{name?: string, arguments?: unknown}} */ params) => ({
      content: [{ type: 'text', text: fillerText(`${params.name} ${JSON.stringify(params.arguments ?? {})}`, resultWords) }],
    }),
  },
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line)
  if (message.id === undefined) return // notifications need no answer
  const result = results[message.method]
  const reply = result === undefined
    ? { error: { code: -32601, message: `replayed ${source.package} serves only ${Object.keys(results).join(', ')}` } }
    : { result: result(message.params ?? {}) }
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, ...reply })}\n`)
})
