// DeepSeek's web search as DSH calls it, played on 127.0.0.1: DSH's `web_search` tool asks
// DeepSeek's Anthropic-compatible Messages API (`POST <DEEPSEEK_SEARCH_BASE_URL>/messages`) to run
// its native `web_search` server tool, and reads the sources from the answer's
// `web_search_tool_result` block and their snippets from the citations of its text blocks
// (@deepseek-ai/dsh-web-search-deepseek, `mapAnthropicResponse`). This endpoint answers every
// search with the same few sources and filler snippets, and keeps the requests: the only
// DSH built-in that reaches the network in a measured session runs here without it.
import { createServer } from 'node:http'
import { fillerText } from './session-plugin/filler.js'

/** Sources per answer, and filler words per snippet: with DSH's source list, about 1,000 tokens. */
const SOURCES = 5
const SNIPPET_WORDS = 170

/** @returns {Promise<{baseUrl: string, requests: unknown[], close: () => Promise<void>}>} */
export async function startSearchEndpoint() {
  /** @type {unknown[]} */
  const requests = []
  const server = createServer((req, res) => {
    /** @type {Buffer[]} */
    const parts = []
    req.on('data', (part) => parts.push(part))
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}')
      requests.push(body)
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(JSON.stringify(body.messages ?? []))))
    })
  })
  await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', resolve)))
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address())
  return {
    baseUrl: `http://127.0.0.1:${port}/anthropic/v1`,
    requests,
    close: () => /** @type {Promise<void>} */ (new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })),
  }
}

/** @param {string} seed */
function answer(seed) {
  const sources = Array.from({ length: SOURCES }, (_, i) => ({ url: `https://example.com/notes/${i + 1}`, title: `Notes, part ${i + 1}` }))
  return {
    type: 'message',
    role: 'assistant',
    content: [
      { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: sources.map((source) => ({ type: 'web_search_result', ...source })) },
      ...sources.map((source, i) => ({
        type: 'text',
        text: `Source ${i + 1}.`,
        citations: [{ type: 'web_search_result_location', url: source.url, title: source.title, cited_text: fillerText(`${seed} ${i}`, SNIPPET_WORDS) }],
      })),
    ],
    stop_reason: 'end_turn',
  }
}
