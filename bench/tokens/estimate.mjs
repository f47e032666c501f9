// The plugin's own token estimate (plugin/offer/token-estimate.ts, what `defer: auto` weighs against
// its threshold) of a request's tools, so the benchmark can print how far it is from o200k.

/** @typedef {import('../../e2e/lib/model-server.mjs').ChatRequest} ChatRequest */

/** The built plugin's estimator (`pnpm run build:plugin` makes dist/). */
async function loadEstimator() {
  try {
    return await import('../../dist/offer/token-estimate.js')
  } catch (error) {
    throw new Error(`the built plugin (dist/offer/token-estimate.js) cannot be loaded; run \`pnpm run build:plugin\` first: ${/** @type {Error} */ (error).message}`)
  }
}

/**
 * @param {ChatRequest} body - a chat-completions request as DSH's DeepSeek adapter sent it.
 * @returns {Promise<number>} the estimate of its `tools`, summed tool by tool as the plugin sums them.
 */
export async function estimatedToolsTokens(body) {
  const { estimateToolTokens } = await loadEstimator()
  /** @type {{function: import('@deepseek-ai/dsh-llm').ToolSchema}[]} */
  const tools = body.tools ?? []
  return tools.reduce((sum, tool) => sum + estimateToolTokens(tool.function), 0)
}
