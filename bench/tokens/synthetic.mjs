// The synthetic catalog of the token benchmark: deterministic, nested OpenAI function-tool
// schemas, so the rows at 10/30/50/100 tools can be set beside the seed plugin's published table.
// The seed (0.1.0) described its fixture only in words ("deterministic nested OpenAI
// function-tool wire schemas") and did not ship the generator, so this one is ours: same idea,
// different text, so its token counts are not the seed's. No randomness: tool i is fully decided
// by i. Tools are ordered action first (every area's `create` tool, then every `get`, ...), so
// each size holds whole actions and the benchmark query finds the same tool at every size.

/** Business areas: the tool name prefix, the record it manages and that record's fields. */
const AREAS = [
  { area: 'helpdesk', record: 'ticket', system: 'support desk', fields: { subject: 'string', body: 'string', priority: ['low', 'normal', 'high', 'urgent'] } },
  { area: 'crm', record: 'contact', system: 'customer relationship manager', fields: { full_name: 'string', email: 'string', stage: ['lead', 'prospect', 'customer', 'churned'] } },
  { area: 'billing', record: 'invoice', system: 'billing ledger', fields: { customer_id: 'string', amount_cents: 'integer', currency: ['EUR', 'USD', 'GBP', 'JPY'] } },
  { area: 'calendar', record: 'event', system: 'team calendar', fields: { title: 'string', starts_at: 'string', visibility: ['private', 'team', 'public'] } },
  { area: 'storage', record: 'file', system: 'document store', fields: { path: 'string', size_bytes: 'integer', access: ['private', 'shared', 'public'] } },
  { area: 'inventory', record: 'item', system: 'warehouse inventory', fields: { sku: 'string', quantity: 'integer', condition: ['new', 'used', 'damaged'] } },
  { area: 'analytics', record: 'report', system: 'analytics workspace', fields: { metric: 'string', days: 'integer', granularity: ['hour', 'day', 'week', 'month'] } },
  { area: 'chat', record: 'message', system: 'team chat', fields: { channel: 'string', text: 'string', format: ['plain', 'markdown'] } },
  { area: 'hr', record: 'employee', system: 'people directory', fields: { name: 'string', team: 'string', status: ['active', 'on_leave', 'departed'] } },
  { area: 'deploy', record: 'release', system: 'deployment pipeline', fields: { service: 'string', version: 'string', environment: ['staging', 'production'] } },
]

/** What a tool does to its area's record; `byId` tools address one existing record. */
const ACTIONS = [
  { verb: 'create', text: 'Create a new', byId: false },
  { verb: 'get', text: 'Fetch one', byId: true },
  { verb: 'update', text: 'Change the fields of an existing', byId: true },
  { verb: 'delete', text: 'Permanently delete a', byId: true },
  { verb: 'list', text: 'List, page by page, every', byId: false },
  { verb: 'search', text: 'Search by keywords for a', byId: false },
  { verb: 'archive', text: 'Archive (hide without deleting) a', byId: true },
  { verb: 'export', text: 'Export to CSV or JSON each', byId: false },
  { verb: 'import', text: 'Import from CSV or JSON a batch of', byId: false },
  { verb: 'assign', text: 'Assign to a teammate a', byId: true },
]

/** The largest catalog this generator makes: one tool per (action, area). */
const SYNTHETIC_MAX = AREAS.length * ACTIONS.length

/**
 * @param {number} size - how many tools, 1..{@link SYNTHETIC_MAX}.
 * @returns {import('../lib/catalogs.mjs').Tool[]} the first `size` tools.
 */
export function syntheticCatalog(size) {
  if (!Number.isInteger(size) || size < 1 || size > SYNTHETIC_MAX) throw new Error(`synthetic catalog size must be 1..${SYNTHETIC_MAX}, got ${size}`)
  return Array.from({ length: size }, (_, i) => syntheticTool(
    /** @type {Action} */ (ACTIONS[Math.floor(i / AREAS.length)]),
    /** @type {Area} */ (AREAS[i % AREAS.length]),
  ))
}

/**
 * @typedef {(typeof ACTIONS)[number]} Action
 * @typedef {{area: string, record: string, system: string, fields: Record<string, string | string[]>}} Area
 */

/**
 * @param {Action} action
 * @param {Area} area
 */
function syntheticTool(action, { area, record, system, fields }) {
  /** @type {Record<string, object>} */
  const properties = {}
  const required = []
  if (action.byId) {
    properties[`${record}_id`] = { type: 'string', description: `Identifier of the ${record} in the ${system}.` }
    required.push(`${record}_id`)
  }
  if (action.verb === 'list' || action.verb === 'search' || action.verb === 'export') {
    properties.query = { type: 'string', description: `Keywords matched against every ${record} field.` }
    properties.page = {
      type: 'object',
      description: 'Which slice of the results to return.',
      properties: {
        size: { type: 'integer', description: 'Results per page, 1 to 100.' },
        cursor: { type: 'string', description: 'Opaque cursor from the previous page.' },
      },
    }
  } else {
    properties[record] = recordSchema(record, fields)
    required.push(record)
  }
  properties.options = {
    type: 'object',
    description: 'How the request is carried out.',
    properties: {
      dry_run: { type: 'boolean', description: 'Validate the request without saving anything.' },
      notify: {
        type: 'array',
        description: 'Who hears about the change once it is done.',
        items: {
          type: 'object',
          properties: {
            channel: { type: 'string', enum: ['email', 'chat', 'webhook'] },
            address: { type: 'string', description: 'Where the notice goes for that channel.' },
          },
          required: ['channel', 'address'],
        },
      },
    },
  }
  return {
    name: `${area}_${action.verb}_${record}`,
    description: `${action.text} ${record} in the ${system}. Returns the affected ${record} records as JSON.`,
    parameters: { type: 'object', properties, required },
  }
}

/**
 * @param {string} record
 * @param {Area['fields']} fields
 */
function recordSchema(record, fields) {
  const properties = Object.fromEntries(Object.entries(fields).map(([field, type]) => [
    field,
    Array.isArray(type)
      ? { type: 'string', enum: type, description: `The ${record}'s ${field.replaceAll('_', ' ')}.` }
      : { type, description: `The ${record}'s ${field.replaceAll('_', ' ')}.` },
  ]))
  return { type: 'object', description: `Fields of the ${record}.`, properties, required: [Object.keys(fields)[0]] }
}
