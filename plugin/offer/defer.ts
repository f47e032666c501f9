/**
 * The `defer` setting: whether an Agent's requests defer tools, decided when a turn starts and
 * held until the next one.
 *
 * Under `always` they do. Under `auto` they do only while the deferred tools' schemas together
 * exceed `autoMinTokens` (estimated, see token-estimate.ts): with a prompt cache, a small catalog
 * offered whole is cheap to send again and again, while every search changes the offered tools
 * and bills the cached conversation again. Below the threshold every tool is offered and
 * `tool_search` is not. The decision is taken only at the first step of a turn (a new user
 * message): a switch within a turn would break the cache once more, and switching deferral on
 * would hide tools the model was offered a step earlier.
 */

import { RUN_CODE_NAME } from '@deepseek-ai/dsh-tools'
import { RecordSlot, type AgentRecord } from '../host/agent-record.ts'
import type { ToolSearchSettings } from '../host/config.ts'
import type { RegisteredTools } from '../search/catalogs.ts'
import { estimateToolTokens } from './token-estimate.ts'
import type { VisibilityPolicy } from './visibility.ts'

/** Which tools one step offers. */
export interface OfferRule {
  /** Whether the model is offered `name` (always true for `run_code`). */
  offers(name: string): boolean
  /** The offered names among `registered`, without `run_code`. */
  offered(registered: ReadonlySet<string>): string[]
}

/**
 * @param policy - the visibility rules in force.
 * @param selected - the Agent's selection.
 * @param defers - whether the step defers tools.
 * @returns the rule: the policy's while deferring; otherwise every registered tool except
 *   `tool_search` and the neverSearch names, which are never offered.
 */
export function offerRule(policy: VisibilityPolicy, selected: ReadonlySet<string>, defers: boolean): OfferRule {
  if (defers) return { offers: name => policy.offers(name, selected), offered: registered => policy.offered(registered, selected) }
  const offers = (name: string): boolean => {
    const standing = policy.standing(name)
    return name === RUN_CODE_NAME || (standing !== 'search' && standing !== 'never')
  }
  return { offers, offered: registered => [...registered].filter(name => name !== RUN_CODE_NAME && offers(name)) }
}

/** The Agent's deferral: the decision taken for its current turn. */
const DECISION = new RecordSlot<{ readonly turn: number | undefined; readonly defers: boolean }>('turn deferral')
/** The size of its deferred schemas that decision weighed, and what it was counted from. */
const SIZE = new RecordSlot<{ readonly registered: RegisteredTools; readonly policy: string; readonly tokens: number }>('deferred size')

/** The decision in force for the Agent; undefined before its first step. */
export function deferralInForce(record: AgentRecord): boolean | undefined {
  return record.get(DECISION)?.defers
}

/**
 * Whether this step of the Agent defers tools: the decision of its current turn, taken now if
 * this is the turn's first step (or the first step since the plugin attached to the Agent).
 * @param settings - the settings in force.
 * @param registered - the Agent's registered tools at the current generation.
 * @param policy - the visibility rules in force, which say which tools are deferred.
 */
export function defersThisStep(record: AgentRecord, settings: ToolSearchSettings, registered: RegisteredTools, policy: VisibilityPolicy): boolean {
  const decision = record.get(DECISION)
  if (decision !== undefined && decision.turn === record.turn) return decision.defers
  const defers = settings.defer === 'always' || deferredTokens(record, registered, policy) > settings.autoMinTokens
  record.set(DECISION, { turn: record.turn, defers })
  return defers
}

/** The estimated tokens of the deferred schemas, counted again only when the registry or the rules changed. */
function deferredTokens(record: AgentRecord, registered: RegisteredTools, policy: VisibilityPolicy): number {
  const size = record.get(SIZE)
  if (size?.registered === registered && size.policy === policy.key) return size.tokens
  let tokens = 0
  for (const tool of registered.tools) {
    if (tool.name !== RUN_CODE_NAME && policy.standing(tool.name) === 'deferred') tokens += estimateToolTokens(tool)
  }
  record.set(SIZE, { registered, policy: policy.key, tokens })
  return tokens
}
