#!/usr/bin/env node
// What the arguments of a recorded MCP server's tools cost in a stable search result, in o200k
// tokens: written as JSON Schema, and as the TypeScript-like type the plugin writes instead
// (plugin/search/signature.ts, built to dist/). docs/loading.md quotes it.
//
//   node bench/tokens/definitions.mjs
import { readFileSync } from 'node:fs'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { built } from '../lib/built.mjs'
import { repoPath } from '../lib/repo.mjs'

const { parameterType } = await built('search/signature.js')

for (const server of ['github', 'notion', 'playwright']) {
  const { tools } = JSON.parse(readFileSync(repoPath(`catalogs/mcp/${server}.json`), 'utf8'))
  let json = 0
  let typed = 0
  let asJson = 0
  for (const tool of tools) {
    const schema = JSON.stringify(tool.inputSchema)
    const type = parameterType(tool.inputSchema)
    json += countTokens(schema)
    typed += countTokens(type ?? schema)
    if (type === undefined) asJson += 1
  }
  console.log(`${server}: ${tools.length} tools, JSON Schema ${json.toLocaleString('en-US')} tokens, as types ${typed.toLocaleString('en-US')} (${asJson} left as JSON)`)
}
