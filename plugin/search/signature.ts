/**
 * A tool's parameter schema written as a TypeScript-like type, for the definitions a stable
 * search result carries: they stay in the conversation and are read again on every later request,
 * and `{"type":"string"}` says in eleven tokens what `string` says in one. Property descriptions
 * and the constraints a caller must meet become comments. A local `$ref` names a type written
 * once below the arguments, and only the `$defs` the tool uses are written (MCP servers often
 * repeat one large `$defs` block in every tool). A schema that uses a keyword this rendering
 * does not know (`allOf`, `not`, a remote `$ref`, ...) is left as JSON, so nothing a tool asks
 * for is lost.
 */

import type { JsonValue } from '@deepseek-ai/dsh-session'

type Schema = { readonly [key: string]: JsonValue }

/** Keywords that shape the type, and those that only annotate it (written as comments or left out). */
const SHAPING = new Set(['type', 'properties', 'required', 'items', 'enum', 'const', 'anyOf', 'oneOf', 'additionalProperties', '$ref', '$defs', 'definitions'])
const NOTED = ['default', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems'] as const
const IGNORED = new Set(['description', 'title', '$schema', 'examples', 'propertyNames', 'uniqueItems', '$comment', 'nullable', ...NOTED])

/** Deepest nesting rendered; a deeper schema stays JSON. */
const MAX_DEPTH = 12

/**
 * @param parameters - a tool's parameter schema.
 * @returns the type, then `type <name> = ...` for each local definition it refers to; undefined
 *   when the schema is not one this rendering says in full.
 */
export function parameterType(parameters: JsonValue): string | undefined {
  if (!isSchema(parameters) || (parameters['type'] !== undefined && parameters['type'] !== 'object')) return undefined
  const defs = { ...asSchema(parameters['definitions']), ...asSchema(parameters['$defs']) }
  const refs: Refs = { defs, used: [] }
  try {
    const lines = [render(parameters, '', 0, refs)]
    // Rendering a definition may name others; each is written once, in the order first named.
    for (let i = 0; i < refs.used.length; i++) {
      const name = refs.used[i] as string
      lines.push(`type ${name} = ${render(defs[name], '', 0, refs)}`)
    }
    return lines.join('\n')
  } catch (error) {
    if (error instanceof Unrenderable) return undefined
    throw error
  }
}

class Unrenderable extends Error {}

/** The schema's local definitions, and the ones the rendering named so far. */
interface Refs {
  readonly defs: Schema
  readonly used: string[]
}

const LOCAL_REF = /^#\/(?:\$defs|definitions)\/([A-Za-z_$][\w$]*)$/

function asSchema(value: JsonValue | undefined): Schema {
  return isSchema(value) ? value : {}
}

function isSchema(value: JsonValue | undefined): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function render(schema: JsonValue | undefined, indent: string, depth: number, refs: Refs): string {
  if (schema === true || (isSchema(schema) && Object.keys(schema).every(key => IGNORED.has(key)))) return 'any'
  if (!isSchema(schema) || depth > MAX_DEPTH) throw new Unrenderable()
  for (const key of Object.keys(schema)) if (!SHAPING.has(key) && !IGNORED.has(key)) throw new Unrenderable()
  const ref = schema['$ref']
  if (ref !== undefined) {
    const name = typeof ref === 'string' ? LOCAL_REF.exec(ref)?.[1] : undefined
    if (name === undefined || refs.defs[name] === undefined) throw new Unrenderable()
    if (!refs.used.includes(name)) refs.used.push(name)
    return name
  }
  if (Array.isArray(schema['enum'])) return schema['enum'].map(value => JSON.stringify(value)).join(' | ')
  if (schema['const'] !== undefined) return JSON.stringify(schema['const'])
  const branches = schema['anyOf'] ?? schema['oneOf']
  if (Array.isArray(branches)) return union(branches.map(branch => grouped(render(branch, indent, depth + 1, refs))))
  const type = schema['type']
  if (Array.isArray(type)) return union(type.map(one => render({ ...schema, type: one }, indent, depth + 1, refs)))
  switch (type) {
    case 'string': case 'number': case 'integer': case 'boolean': case 'null':
      return type
    case 'array':
      return `${grouped(schema['items'] === undefined ? 'any' : render(schema['items'], indent, depth + 1, refs))}[]`
    case 'object': case undefined:
      return object(schema, indent, depth, refs)
    default:
      throw new Unrenderable()
  }
}

/** An object type: a property per line, its description and constraints as a comment. */
function object(schema: Schema, indent: string, depth: number, refs: Refs): string {
  const properties = schema['properties']
  const extra = schema['additionalProperties']
  if (!isSchema(properties) || Object.keys(properties).length === 0) {
    if (isSchema(extra)) return `{ [key: string]: ${render(extra, indent, depth + 1, refs)} }`
    if (properties !== undefined && !isSchema(properties)) throw new Unrenderable()
    return 'object'
  }
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter(name => typeof name === 'string') : [])
  const inner = `${indent}  `
  const lines = Object.entries(properties).map(([name, property]) => {
    const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)
    const note = comment(property)
    return `${inner}${key}${required.has(name) ? '' : '?'}: ${render(property, inner, depth + 1, refs)}${note === '' ? '' : ` // ${note}`}`
  })
  return `{\n${lines.join('\n')}\n${indent}}`
}

/** A property's description and constraints, on one line. */
function comment(property: JsonValue | undefined): string {
  if (!isSchema(property)) return ''
  const description = typeof property['description'] === 'string' ? property['description'].split(/\s+/).filter(Boolean).join(' ') : ''
  const noted = NOTED.filter(key => property[key] !== undefined).map(key => `${key}: ${JSON.stringify(property[key])}`)
  return [description, noted.length > 0 ? `(${noted.join(', ')})` : ''].filter(part => part !== '').join(' ')
}

/** Alternatives, each once. */
function union(types: string[]): string {
  return [...new Set(types)].join(' | ')
}

/** A union or multi-line type in parentheses, so `[]` and `|` bind to all of it. */
function grouped(type: string): string {
  return type.includes(' | ') ? `(${type})` : type
}
