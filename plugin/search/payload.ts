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
import { DESELECT_FIELD, DISCOVER_FIELD, PAYLOAD_SCHEMA_VERSION, TOOLS_FIELD, TOOL_NAME_FIELD, VERSION_FIELD } from '../contract.ts'
import type { SearchHit } from '../host/native.ts'
import { renderDefinitions, type PayloadDefinitions } from './definitions.ts'

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
  readonly [VERSION_FIELD]: typeof PAYLOAD_SCHEMA_VERSION
  readonly query: string
  /** A `discover:` result: the tools come with their schemas and nothing is selected. */
  readonly [DISCOVER_FIELD]?: true
  /** A result under `loading: stable`: the found tools are run through `call_tool`. */
  readonly loading?: 'stable'
  /**
   * Names, short descriptions and scores; the selection. Under native loading their schemas
   * arrive as native tools from the next step; under stable loading in {@link definitions}.
   */
  readonly [TOOLS_FIELD]: PayloadTool[]
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
   * result never carries it ({@link PAYLOAD_SCHEMA} does not declare it; {@link RECORD_FIELDS} does).
   */
  readonly [DESELECT_FIELD]?: readonly string[]
}

/** A field as `defineTool`'s schema DSL declares it, as far as the canonical JSON reads it. */
interface FieldSchema {
  readonly type: string
  readonly properties?: Readonly<Record<string, FieldSchema>>
  readonly items?: FieldSchema
}

const HIT_PROPERTIES = {
  [TOOL_NAME_FIELD]: { type: 'string', required: true },
  description: { type: 'string', required: true },
  score: { type: 'number', required: true },
} as const

/**
 * The `output.schema` of `tool_search`, in `defineTool`'s schema DSL, and the one declaration of
 * the payload's fields: the canonical JSON writes them, and the fields of their objects, in the
 * order they are declared here.
 */
export const PAYLOAD_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    [VERSION_FIELD]: { type: 'integer', const: PAYLOAD_SCHEMA_VERSION, required: true },
    query: { type: 'string', required: true },
    [DISCOVER_FIELD]: { type: 'boolean', const: true },
    loading: { type: 'string', const: 'stable' },
    [TOOLS_FIELD]: {
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

/** The fields only the plugin's selection records carry (record.ts), after the search result's. */
const RECORD_FIELDS = { [DESELECT_FIELD]: { type: 'array', items: { type: 'string' } } } as const

/**
 * Every field of a payload, in canonical order; a field of {@link ToolSearchPayload} missing here
 * fails the type check. `definitions` is among them but not in the JSON: it is rendered as the
 * result's second block.
 */
const PAYLOAD_FIELDS = { ...PAYLOAD_SCHEMA.properties, ...RECORD_FIELDS } satisfies Record<keyof ToolSearchPayload, FieldSchema>
const RENDERED_APART: keyof ToolSearchPayload = 'definitions'

/** How every payload's canonical JSON begins: with its first field, the version. */
export const PAYLOAD_TEXT_START = `{${JSON.stringify(Object.keys(PAYLOAD_FIELDS)[0])}:`

/**
 * A value rebuilt with its keys in the order `schema` declares them, at every level. A
 * `tools/post-execute` listener may replace the payload with an equal-but-reordered object; the
 * registry has validated it against {@link PAYLOAD_SCHEMA}, so only the order can differ.
 * @throws for a field the schema does not declare: it would otherwise be dropped from the log
 *   without a word.
 */
function canonical(value: unknown, schema: FieldSchema, path: string): unknown {
  if (Array.isArray(value) && schema.items !== undefined) {
    const items = schema.items
    return value.map((item, at) => canonical(item, items, `${path}[${at}]`))
  }
  const fields = schema.properties
  if (fields === undefined || typeof value !== 'object' || value === null) return value
  const record = value as Record<string, unknown>
  const stray = Object.keys(record).find(key => !Object.hasOwn(fields, key) && record[key] !== undefined)
  if (stray !== undefined) throw new Error(`tool_search: the payload field ${path}.${stray} is not declared in payload.ts`)
  const out: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(fields)) {
    if (record[key] !== undefined) out[key] = canonical(record[key], field, `${path}.${key}`)
  }
  return out
}

/**
 * The payload as the text blocks the model and the session log see: its canonical JSON, which
 * selects, and under stable loading the found tools' definitions after it.
 */
export function payloadContent(value: ToolSearchPayload): ContentBlock[] {
  const json = { ...value, [RENDERED_APART]: undefined }
  const selection: ContentBlock = { type: 'text', text: JSON.stringify(canonical(json, { type: 'object', properties: PAYLOAD_FIELDS }, 'payload')) }
  const definitions = value.definitions === undefined || value.definitions.tools.length === 0 ? '' : renderDefinitions(value.definitions)
  // Adapters that flatten a result's text blocks (DSH's DeepSeek adapter joins them as they are)
  // still show the definitions apart from the JSON.
  return definitions === '' ? [selection] : [selection, { type: 'text', text: `\n\n${definitions}` }]
}
