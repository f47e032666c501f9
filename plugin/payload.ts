/**
 * The `tool_search` result payload. The same canonical JSON is the tool's value, its content text
 * and what the session log keeps; the live commit and the replay of the log both read the
 * selection from that text with the native core (see selection.ts).
 */

import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import type { SearchHit } from './native.ts'

/** Bumped only with a change replay must tell apart; the native replay reads version 1. */
export const PAYLOAD_SCHEMA_VERSION = 1

export interface ToolSearchPayload {
  readonly schemaVersion: typeof PAYLOAD_SCHEMA_VERSION
  readonly query: string
  /** Names, short descriptions and scores only; schemas arrive as native tools on the next step. */
  readonly tools: readonly SearchHit[]
  /**
   * Only in an eviction record (see eviction.ts): the names that leave the selection. A search
   * result never carries it ({@link PAYLOAD_SCHEMA} allows no other key).
   */
  readonly deselect?: readonly string[]
}

/** The `output.schema` of `tool_search`, in `defineTool`'s schema DSL. */
export const PAYLOAD_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    schemaVersion: { type: 'integer', const: PAYLOAD_SCHEMA_VERSION, required: true },
    query: { type: 'string', required: true },
    tools: {
      type: 'array',
      required: true,
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          name: { type: 'string', required: true },
          description: { type: 'string', required: true },
          score: { type: 'number', required: true },
        },
      },
    },
  },
} as const

/**
 * Rebuild a payload with its keys in canonical order. A `tools/post-execute` listener may replace
 * the value with an equal-but-reordered object; the registry has validated it against
 * {@link PAYLOAD_SCHEMA}, so only the order can differ.
 * @param value - a value valid under {@link PAYLOAD_SCHEMA}.
 * @returns the canonical payload.
 */
function canonicalPayload(value: ToolSearchPayload): ToolSearchPayload {
  return {
    schemaVersion: PAYLOAD_SCHEMA_VERSION,
    query: value.query,
    tools: value.tools.map(({ name, description, score }) => ({ name, description, score })),
    ...(value.deselect === undefined ? {} : { deselect: [...value.deselect] }),
  }
}

/** The payload as the single text block the model and the session log see. */
export function payloadContent(value: ToolSearchPayload): ContentBlock[] {
  return [{ type: 'text', text: JSON.stringify(canonicalPayload(value)) }]
}
