/**
 * The host's id brands, without importing them: DSH's brand functions are identities with no
 * state (rc.8 dsh-llm lib/index.js `CallId`; zsagi1368/deepseek-harness-zDSH
 * packages/util/brand/src/index.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e `brandString`), and
 * their names changed: `CallId` is `ToolCallId` by 0.1.3-alpha.1 with no alias left (zDSH
 * packages/llm/llm/src/brand.ts@85e854eadfe808b1d9b9df7e55e210747c8b8dc6, Kinetick
 * packages/llm/llm/src/brand.ts@2fc60a6cfcccaee31a4381a59c015d499b202c8b). A missing named
 * import fails the whole module, so the brand is made here by a cast.
 */

import type { CallId as HostCallId } from '@deepseek-ai/dsh-llm'

/** A tool call's id, as the host's types brand it. */
export type CallId = HostCallId

/** Brand a string as a tool call's id, as the host's own brand function does (it returns it unchanged). */
export function CallId(id: string): CallId {
  return id as CallId
}
