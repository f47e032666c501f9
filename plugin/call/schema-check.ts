/**
 * Checking `call_tool` arguments against the target tool's JSON Schema before the tool runs, so a
 * wrong call comes back with what is wrong and the schema, even after compaction has pruned the
 * search result that carried the definition.
 *
 * DSH's own `validateJsonSchemaValue` (dsh-tools) enforces only DSH's authoring subset and throws
 * on what MCP servers commonly send (type arrays, `anyOf`, `nullable`), so the check is the
 * plugin's own, over the keywords real tool schemas use: `type` (one or a list), `enum`, `const`,
 * `properties`, `required`, `additionalProperties` (boolean or schema), `items` (one schema),
 * `anyOf`/`oneOf` (at least one alternative matches), `allOf`, `nullable`. It is deliberately
 * lenient: every other keyword (`format`, `pattern`, bounds, `$ref`, ...) is left to the tool,
 * so a valid call is never refused; only a call the schema plainly rules out is.
 */

import { isDeepStrictEqual } from 'node:util'

/** Most problems reported for one call. */
const MAX_VIOLATIONS = 10
/** Schemas nested deeper than this are not followed (no real tool schema comes close). */
const MAX_DEPTH = 64

/**
 * @param schema - the tool's `parameters` (any value: a non-schema accepts everything).
 * @param value - the arguments.
 * @returns the problems found, at most {@link MAX_VIOLATIONS}; empty when the arguments pass.
 */
export function schemaViolations(schema: unknown, value: unknown): string[] {
  const violations: string[] = []
  check(schema, value, 'arguments', 0, violations)
  return violations.slice(0, MAX_VIOLATIONS)
}

function check(schema: unknown, value: unknown, path: string, depth: number, out: string[]): void {
  if (out.length >= MAX_VIOLATIONS || depth > MAX_DEPTH) return
  if (schema === false) {
    out.push(`${path} is not allowed`)
    return
  }
  if (!isRecord(schema)) return
  if (schema.nullable === true && value === null) return
  const types = typeList(schema.type)
  if (types !== undefined && !types.some(type => hasType(value, type))) {
    out.push(`${path} must be ${types.map(article).join(' or ')}, got ${describe(value)}`)
    return
  }
  if (Array.isArray(schema.enum) && !schema.enum.some(allowed => isDeepStrictEqual(allowed, value))) {
    out.push(`${path} must be one of ${JSON.stringify(schema.enum)}`)
  }
  if (Object.hasOwn(schema, 'const') && !isDeepStrictEqual(schema.const, value)) out.push(`${path} must be ${JSON.stringify(schema.const)}`)
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const alternatives = schema[keyword]
    if (Array.isArray(alternatives) && alternatives.length > 0 && !alternatives.some(alternative => passes(alternative, value, depth))) {
      out.push(`${path} matches none of the ${keyword} alternatives`)
    }
  }
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) check(part, value, path, depth + 1, out)
  if (isRecord(value)) checkObject(schema, value, path, depth, out)
  else if (Array.isArray(value) && isRecord(schema.items)) value.forEach((item, index) => { check(schema.items, item, `${path}[${index}]`, depth + 1, out) })
}

function checkObject(schema: Record<string, unknown>, value: Record<string, unknown>, path: string, depth: number, out: string[]): void {
  const properties = isRecord(schema.properties) ? schema.properties : {}
  if (Array.isArray(schema.required)) {
    for (const key of schema.required) {
      if (typeof key === 'string' && value[key] === undefined) out.push(`${path} is missing the required property "${key}"`)
    }
  }
  for (const [key, item] of Object.entries(value)) {
    const where = `${path}.${key}`
    if (Object.hasOwn(properties, key)) check(properties[key], item, where, depth + 1, out)
    else if (schema.additionalProperties === false) out.push(`${where} is not a declared property (declared: ${Object.keys(properties).join(', ') || 'none'})`)
    else if (isRecord(schema.additionalProperties)) check(schema.additionalProperties, item, where, depth + 1, out)
  }
}

function passes(schema: unknown, value: unknown, depth: number): boolean {
  const found: string[] = []
  check(schema, value, '', depth + 1, found)
  return found.length === 0
}

function typeList(type: unknown): string[] | undefined {
  if (typeof type === 'string') return [type]
  if (Array.isArray(type) && type.length > 0 && type.every(entry => typeof entry === 'string')) return type as string[]
  return undefined
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object': return isRecord(value)
    case 'array': return Array.isArray(value)
    case 'string': return typeof value === 'string'
    case 'number': return typeof value === 'number' && Number.isFinite(value)
    case 'integer': return typeof value === 'number' && Number.isInteger(value)
    case 'boolean': return typeof value === 'boolean'
    case 'null': return value === null
    // An unknown type name is the schema's problem, not the call's.
    default: return true
  }
}

function article(type: string): string {
  return type === 'null' ? 'null' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'number' && Number.isInteger(value)) return `the number ${value}`
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
