/**
 * Prefetch: when a user's message enters a turn, the best deferred tools for that message join
 * the Agent's selection before the model's first step on it, so a request that already names its
 * need costs no search round trip. The message itself is the query, read as the model's queries
 * are; of its best `count` tools, only those that match it strongly are loaded (the core decides,
 * `strongHitsAsync`, by the floor of search/answer.ts): a prefetch nobody asked for must not fill
 * the prompt with near misses.
 *
 * It starts when DSH's inbox hands the message to the turn (`agent/inbox/claimed`), inside the
 * open turn; its ranking runs off the JavaScript thread, and the step's prompt assembly waits for
 * it (DSH does not wait for that event's listeners), so it commits before the prompt is assembled
 * and before the message is logged as a `user/message`. It commits like a search, through a
 * selection record in the session, so resume and fork replay it exactly.
 */

import type { UserMessage } from '@deepseek-ai/dsh-llm'
import type { Session } from '@deepseek-ai/dsh-session'
import { MAX_QUERY_CHARS, PAYLOAD_SCHEMA_VERSION, PREFETCH_RECORD } from '../contract.ts'
import { ownTurn } from '../host/loop-turns.ts'
import { WEAK_MATCH_FLOOR, type SearchScope } from '../search/answer.ts'
import { recordSelection } from './record.ts'

/**
 * Prefetch for one claimed message.
 * @param message - a message the turn claimed.
 * @param count - the `prefetch` setting: tools to load at most (0 loads none).
 * @param session - the Agent's session, where the record goes.
 * @param scope - the Agent's catalog.
 * @returns the names the record selects; empty when nothing was recorded.
 */
export async function prefetchFor(message: UserMessage, count: number, session: Session, scope: SearchScope): Promise<string[]> {
  if (count === 0) return []
  const query = messageQuery(message)
  if (query === undefined) return []
  const hits = await scope.index.strongHitsAsync(query, count, { exclude: [...scope.exclude], floor: WEAK_MATCH_FLOOR })
  await ownTurn()
  if (hits.length === 0) return []
  return recordSelection(session, {
    kind: PREFETCH_RECORD,
    key: message.id,
    arguments: { query, limit: count },
    payload: { schemaVersion: PAYLOAD_SCHEMA_VERSION, query, tools: hits },
  })
}

/**
 * The query a message asks: the text of a person's message (DSH's `user` source: a prompt, a
 * steer, a subagent's task), its first {@link MAX_QUERY_CHARS} characters; undefined for
 * injected context, tool results and messages without text.
 */
function messageQuery(message: UserMessage): string | undefined {
  if (message.source.kind !== 'user') return undefined
  const text = message.content.flatMap(block => (block.type === 'text' ? [block.text] : [])).join('\n').trim()
  if (text === '') return undefined
  // Cut by code point, so a character beyond U+FFFF is never split.
  return text.length <= MAX_QUERY_CHARS ? text : [...text.slice(0, 2 * MAX_QUERY_CHARS)].slice(0, MAX_QUERY_CHARS).join('').trim()
}
