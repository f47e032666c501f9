/**
 * The `tool_search` result payload. The same canonical JSON is the tool's value, its content text
 * and what the session log keeps; the live commit and the replay of the log both read the
 * selection from that text with the native core (see selection.ts).
 *
 * Every field beyond `schemaVersion`, `query` and `tools` is optional and added only when it says
 * something, so version 1 still reads as it did: a plain search result is exactly the payload of
 * earlier versions, and replay of any version-1 log selects what it selected before.
 */

import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import type { JsonValue } from '@deepseek-ai/dsh-session'
import type { SearchHit } from '../host/native.ts'

/** Bumped only with a change replay must tell apart; the native replay reads version 1. */
export const PAYLOAD_SCHEMA_VERSION = 1

/** One returned tool; `parameters` (its full schema) only in a `discover:` result. */
export interface PayloadTool extends SearchHit {
  readonly parameters?: JsonValue
}

/** A group of deferred tools, as an empty or weak result lists them. */
export interface PayloadGroup {
  readonly name: string
  readonly tools: number
  readonly words: string[]
}

export interface ToolSearchPayload {
  readonly schemaVersion: typeof PAYLOAD_SCHEMA_VERSION
  readonly query: string
  /** A `discover:` result: the tools come with their schemas and nothing is selected. */
  readonly discover?: true
  /** Names, short descriptions and scores; the selection. Schemas arrive as native tools next step. */
  readonly tools: PayloadTool[]
  /** Why `tools` is empty, and what to do next (an empty or weak result only). */
  readonly note?: string
  /** Matches too weak to load: shown, not selected. */
  readonly candidates?: SearchHit[]
  /** Names spelled like the query's words. */
  readonly nearest?: string[]
  /** The groups of deferred tools, largest first. */
  readonly groups?: PayloadGroup[]
  /** Deferred tools of no group. */
  readonly otherTools?: number
  /**
   * Only in an eviction record (see eviction.ts): the names that leave the selection. A search
   * result never carries it ({@link PAYLOAD_SCHEMA} does not declare it).
   */
  readonly deselect?: readonly string[]
}

const HIT_PROPERTIES = {
  name: { type: 'string', required: true },
  description: { type: 'string', required: true },
  score: { type: 'number', required: true },
} as const

/** The `output.schema` of `tool_search`, in `defineTool`'s schema DSL. */
export const PAYLOAD_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    schemaVersion: { type: 'integer', const: PAYLOAD_SCHEMA_VERSION, required: true },
    query: { type: 'string', required: true },
    discover: { type: 'boolean', const: true },
    tools: {
      type: 'array',
      required: true,
      items: {
        type: 'object',
        additionalProperties: false,
        properties: { ...HIT_PROPERTIES, parameters: { type: 'json' } },
      },
    },
    note: { type: 'string' },
    candidates: { type: 'array', items: { type: 'object', additionalProperties: false, properties: HIT_PROPERTIES } },
    nearest: { type: 'array', items: { type: 'string' } },
    groups: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          name: { type: 'string', required: true },
          tools: { type: 'integer', required: true },
          words: { type: 'array', required: true, items: { type: 'string' } },
        },
      },
    },
    otherTools: { type: 'integer' },
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
  const hit = ({ name, description, score }: SearchHit): SearchHit => ({ name, description, score })
  return {
    schemaVersion: PAYLOAD_SCHEMA_VERSION,
    query: value.query,
    ...(value.discover === true ? { discover: true } : {}),
    tools: value.tools.map(tool => (tool.parameters === undefined ? hit(tool) : { ...hit(tool), parameters: tool.parameters })),
    ...(value.note === undefined ? {} : { note: value.note }),
    ...(value.candidates === undefined ? {} : { candidates: value.candidates.map(hit) }),
    ...(value.nearest === undefined ? {} : { nearest: [...value.nearest] }),
    ...(value.groups === undefined ? {} : { groups: value.groups.map(({ name, tools, words }) => ({ name, tools, words: [...words] })) }),
    ...(value.otherTools === undefined ? {} : { otherTools: value.otherTools }),
    ...(value.deselect === undefined ? {} : { deselect: [...value.deselect] }),
  }
}

/** The payload as the single text block the model and the session log see. */
export function payloadContent(value: ToolSearchPayload): ContentBlock[] {
  return [{ type: 'text', text: JSON.stringify(canonicalPayload(value)) }]
}
