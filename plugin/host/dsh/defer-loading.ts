/**
 * DSH's own deferral, from 0.1.7 (docs/dsh-versions.md, "PTC", names the source files): a tool schema may carry
 * `deferLoading: true`, and on a route that declares `toolUpdate` (the default catalog's
 * `deepseek-flash`: `addition-only`) DSH activates such a tool only through a later
 * `tool-addition`, which its loop logs when a request header names a tool the header before it did
 * not. A `deferLoading` tool in the header that starts a declaration series (an Agent's first, or
 * one that redeclares a tool it keeps with another definition) is declared and never activated:
 * the model cannot see it (zsagi1368/deepseek-harness-zDSH packages/llm/llm/src/content.ts,
 * `projectToolUpdates`, and packages/core/session/src/tool-history.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68;
 * reported from use by SunsetRNE/dsh-infinite-gen-5 README.md, v0.6.1).
 *
 * So a request that may start a series offers no `deferLoading` tool: it joins the next request,
 * as an addition DSH activates. Every schema the request does offer is passed on as it came, the
 * same object, its `deferLoading` kept: a changed definition would itself start a series. On
 * rc.8, and on routes without `toolUpdate` (where DSH drops the flag), no schema carries it, or
 * holding one back costs one request without it.
 */

import { RecordSlot, type AgentRecord } from '../agent-record.ts'

/** A tool schema as an assembly carries it; from 0.1.7 it may carry `deferLoading`. */
interface OfferedSchema {
  readonly name: string
}

/** Whether DSH declares the tool deferred. */
export function defersLoading(schema: OfferedSchema): boolean {
  return (schema as { deferLoading?: unknown }).deferLoading === true
}

/** The schemas the Agent's last request offered, by name. */
const SENT = new RecordSlot<ReadonlyMap<string, OfferedSchema>>('schemas last offered')

/**
 * The tools a request of the Agent offers: `offered`, less its `deferLoading` tools when the
 * request may start a declaration series. The definitions are compared only for a request that
 * has such a tool, which no rc.8 request has.
 * @returns `offered` itself when nothing is held back.
 */
export function admitOffered<T extends OfferedSchema>(record: AgentRecord, offered: readonly T[]): readonly T[] {
  const before = record.get(SENT)
  const startsSeries = (): boolean => before === undefined || offered.some((tool) => {
    const kept = before.get(tool.name)
    return kept !== undefined && kept !== tool && JSON.stringify(kept) !== JSON.stringify(tool)
  })
  const admitted = offered.some(defersLoading) && startsSeries() ? offered.filter(tool => !defersLoading(tool)) : offered
  record.set(SENT, new Map(admitted.map(tool => [tool.name, tool])))
  return admitted
}
