// Token cost of the tool surface, with and without this plugin, on real DSH turns (see
// dsh-turn.mjs). Counts are o200k_base tokens (gpt-tokenizer) of the JSON text DSH sends: the
// request's `tools` array, and the `tool_search` result the model reads back (the tool message's
// content, the plugin's canonical payload). A provider's chat template wraps these in its own
// markup, so absolute counts differ a little per provider; the differences between rows do not.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { ToolIndex } from '../../index.js'
import { recordTurn } from './dsh-turn.mjs'
import { estimatedToolsTokens } from './estimate.mjs'
import { outlineIn } from './outline.mjs'

/** @typedef {import('../../e2e/lib/model-server.mjs').ChatRequest} ChatRequest */

const toolsTokens = (/** @type {ChatRequest} */ body) => countTokens(JSON.stringify(body.tools ?? []))
const percent = (/** @type {number} */ part, /** @type {number} */ whole) => Math.round((part / whole) * 1000) / 10

/**
 * Has this process embed the tools DSH sent (the names and descriptions the plugin's index will
 * hold) and waits for them. A hybrid index takes the transformer's vectors of texts its process
 * has embedded at once, so the plugin's search then ranks as it does once its vectors are in
 * place, whatever the machine's vector cache holds: without this, a warm cache made the search
 * use the transformer and a cold one only the word table, and the hits (so the tokens) differed.
 * @param {ChatRequest} baseline
 */
async function embedAhead(baseline) {
  // The core reads the request's OpenAI-shaped `tools` as a catalog.
  await ToolIndex.fromJson(JSON.stringify(baseline.tools ?? [])).ready()
}

/**
 * Measure one catalog: a turn without the plugin (everything offered), and a turn with it in which
 * the model searches once and the next request carries the Top-5 hits.
 * @param {ReturnType<typeof import('./token-catalogs.mjs').tokenCatalogs>[number]} catalog
 */
export async function tokenRow(catalog) {
  // recordTurn checks the number of requests: one without a query, two with one.
  const [baseline] = /** @type {[ChatRequest]} */ (await recordTurn({ ...catalog.setup(), plugin: false }))
  if (catalog.verbatim) {
    const recorded = JSON.stringify((catalog.setup().tools ?? []).map((tool) => ({ type: 'function', function: tool })))
    if (JSON.stringify(baseline.tools) !== recorded) throw new Error(`${catalog.id}: DSH no longer sends the recorded catalog unchanged; re-record it`)
  }
  await embedAhead(baseline)
  const [initial, afterSearch] = /** @type {[ChatRequest, ChatRequest]} */ (await recordTurn({ ...catalog.setup(), plugin: true, query: catalog.query }))
  const result = afterSearch.messages.at(-1)
  if (result?.role !== 'tool') throw new Error(`${catalog.id}: the request after the search does not end with its result`)
  /** @type {string[]} */
  const hits = JSON.parse(result.content).tools.map((/** @type {{name: string}} */ tool) => tool.name)
  const outline = await outlineIn(initial)

  const full = toolsTokens(baseline)
  const initialTokens = toolsTokens(initial)
  const afterTools = toolsTokens(afterSearch)
  const payload = countTokens(result.content)
  return {
    id: catalog.id,
    label: catalog.label,
    query: catalog.query,
    tools: baseline.tools.length,
    withoutPlugin: { tokens: full, estimated: await estimatedToolsTokens(baseline) },
    outline: { tokens: outline.tokens, estimate: outline.estimate, text: outline.text },
    withPlugin: {
      toolSearchSchemaTokens: outline.definitionTokens,
      initial: { offered: initial.tools.length, tokens: initialTokens, saved: full - initialTokens, savedPercent: percent(full - initialTokens, full) },
      afterSearch: {
        hits,
        offered: afterSearch.tools.length,
        toolsTokens: afterTools,
        payloadTokens: payload,
        tokens: afterTools + payload,
        saved: full - afterTools - payload,
        savedPercent: percent(full - afterTools - payload, full),
      },
    },
  }
}
