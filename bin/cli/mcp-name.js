// The public name DSH's MCP bridge registers a server's tool under. This follows
// @deepseek-ai/dsh-mcp-client 0.1.0-rc.8 (`publicToolName` in packages/mcp/mcp-client/src/tools.ts),
// which does not export it; __test__/cli/mcp-name.spec.ts checks it against the real bridge.
import { createHash } from 'node:crypto'

/** DeepSeek's function-name contract: at most 64 characters of `[A-Za-z0-9_-]`. */
const MAX_NAME_LENGTH = 64
const INVALID_CHARS = /[^A-Za-z0-9_-]/g
const VALID_CHARS = /^[A-Za-z0-9_-]*$/
const HASH_LENGTH = 12

/**
 * `mcp__<serverName>__<rawName>`, with invalid characters replaced by `_`; when that changed the
 * name or it is too long, cut to fit and followed by `_` and 12 hex digits of a SHA-256 of the
 * identity, so two tools never collapse into one name.
 * @param {string} serverName
 * @param {string} rawName
 * @returns {string}
 */
export function publicToolName(serverName, rawName) {
  const joined = `mcp__${serverName}__${rawName}`
  const normalized = joined.replace(INVALID_CHARS, '_')
  if (normalized === joined && normalized.length <= MAX_NAME_LENGTH) return normalized
  const hash = createHash('sha256').update(`${serverName}\0${rawName}`).digest('hex').slice(0, HASH_LENGTH)
  return `${normalized.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`
}

/**
 * @typedef {object} Rewrite
 * @property {string} written the name as the author wrote it, server-qualified when known
 * @property {string | undefined} registered what DSH registers instead (unknown without the server name)
 * @property {string} reason
 */

/**
 * How DSH's MCP bridge would rewrite a tool's name, or `undefined` when it keeps it. `name` is a
 * raw MCP name when `serverName` is given; otherwise a name written `mcp__<server>__<tool>` is
 * taken apart, and any other name can only be checked against the contract.
 * @param {string} name
 * @param {string} [serverName]
 * @returns {Rewrite | undefined}
 */
export function bridgeRewrite(name, serverName) {
  const qualified = serverName === undefined ? /^mcp__(.+?)__(.+)$/s.exec(name) : null
  const server = serverName ?? qualified?.[1]
  const raw = serverName === undefined ? qualified?.[2] : name
  const written = server === undefined ? name : `mcp__${server}__${raw}`
  const reason = !VALID_CHARS.test(written)
    ? 'has characters outside [A-Za-z0-9_-]'
    : written.length > MAX_NAME_LENGTH ? `is ${written.length} characters long (the limit is ${MAX_NAME_LENGTH})` : undefined
  if (reason === undefined) return undefined
  const registered = server === undefined || raw === undefined ? undefined : publicToolName(server, raw)
  return { written, registered, reason }
}
