/**
 * The `tool_search` result payload. The same canonical JSON is the tool's value, its content text
 * and what the session log keeps; the live commit and the replay of the log both read the
 * selection from that text with the native core (see selection/result.ts).
 *
 * Every field beyond `schemaVersion`, `query` and `tools` is optional and added only when it says
 * something, so version 1 still reads as it did: a plain search result is exactly the payload of
 * earlier versions, and replay of any version-1 log selects what it selected before.
 *
 * Under `loading: stable` the found tools' definitions come with the result. They are rendered
 * as a second text block after the payload's JSON (definitions.ts): the block that selects is
 * the first and small one, which DSH's tool-result pruner (it keeps the head and the tail of a
 * long result) leaves whole, and the definitions read as text rather than escaped JSON.
 */

import type { ContentBlock } from '@deepseek-ai/dsh-llm'
import type { JsonValue } from '@deepseek-ai/dsh-session'
import type { SearchHit } from '../host/native.ts'
import { renderDefinitions, type PayloadDefinitions } from './definitions.ts'

/** Bumped only with a change replay must tell apart; the native replay reads version 1. */
export const PAYLOAD_SCHEMA_VERSION = 1

/** How every payload's canonical JSON begins: its version is its first key. */
export const PAYLOAD_TEXT_START = '{"schemaVersion":'

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
  /** A result under `loading: stable`: the found tools are run through `call_tool`. */
  readonly loading?: 'stable'
  /**
   * Names, short descriptions and scores; the selection. Under native loading their schemas
   * arrive as native tools from the next step; under stable loading in {@link definitions}.
   */
  readonly tools: PayloadTool[]
  /** The found tools' definitions (`loading: stable` only), rendered as the result's second block. */
  readonly definitions?: PayloadDefinitions
  /** Why `tools` is empty or short, and what to do next (an empty, weak or cut result only). */
  readonly note?: string
  /** Matches too weak to load, or far below the leaders (leaders.ts): shown, never selected. */
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
    loading: { type: 'string', const: 'stable' },
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
    definitions: {
      type: 'object',
      additionalProperties: false,
      properties: {
        via: { type: 'string', required: true, enum: ['call_tool', 'run_code'] },
        tools: {
          type: 'array',
          required: true,
          items: {
            type: 'object',
            additionalProperties: false,
            properties: {
              name: { type: 'string', required: true },
              description: { type: 'string' },
              arguments: { type: 'string' },
              parameters: { type: 'json' },
              declaration: { type: 'string' },
              guidance: { type: 'string' },
            },
          },
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
  const hit = ({ name, description, score }: SearchHit): SearchHit => ({ name, description, score })
  return {
    schemaVersion: PAYLOAD_SCHEMA_VERSION,
    query: value.query,
    ...(value.discover === true ? { discover: true } : {}),
    ...(value.loading === 'stable' ? { loading: 'stable' } : {}),
    tools: value.tools.map(tool => (tool.parameters === undefined ? hit(tool) : { ...hit(tool), parameters: tool.parameters })),
    ...(value.note === undefined ? {} : { note: value.note }),
    ...(value.candidates === undefined ? {} : { candidates: value.candidates.map(hit) }),
    ...(value.nearest === undefined ? {} : { nearest: [...value.nearest] }),
    ...(value.groups === undefined ? {} : { groups: value.groups.map(({ name, tools, words }) => ({ name, tools, words: [...words] })) }),
    ...(value.otherTools === undefined ? {} : { otherTools: value.otherTools }),
    ...(value.deselect === undefined ? {} : { deselect: [...value.deselect] }),
  }
}

/**
 * The payload as the text blocks the model and the session log see: its canonical JSON, which
 * selects, and under stable loading the found tools' definitions after it.
 */
export function payloadContent(value: ToolSearchPayload): ContentBlock[] {
  const selection: ContentBlock = { type: 'text', text: JSON.stringify(canonicalPayload(value)) }
  const definitions = value.definitions === undefined || value.definitions.tools.length === 0 ? '' : renderDefinitions(value.definitions)
  // Adapters that flatten a result's text blocks (DSH's DeepSeek adapter joins them as they are)
  // still show the definitions apart from the JSON.
  return definitions === '' ? [selection] : [selection, { type: 'text', text: `\n\n${definitions}` }]
}
