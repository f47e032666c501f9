/**
 * The only scripted part of the plugin tests: a DSH `LlmAdapter` that records every request and
 * answers with the next scripted step.
 */

import {
  CallId,
  LlmAdapter,
  type GenerateOptions,
  type LlmResolvedModelInfo,
  type StreamChunk,
} from '@deepseek-ai/dsh-llm'

/** One model response, possibly computed from the request it answers. */
export type Step = StreamChunk[] | ((request: GenerateOptions) => StreamChunk[])

/** A plain text answer that ends the turn. */
export function reply(text: string): StreamChunk[] {
  return [
    { type: 'block-start', index: 0, blockType: 'text' },
    { type: 'text-delta', index: 0, text },
    { type: 'block-end', index: 0, block: { type: 'text', text } },
    { type: 'usage', usage: { inputTokens: 10, outputTokens: 1 } },
    { type: 'finish', reason: { kind: 'stop' } },
  ]
}

/** One response carrying one or more tool calls, in order. */
export function toolCalls(...calls: { id: string; name: string; args: unknown }[]): StreamChunk[] {
  const chunks: StreamChunk[] = calls.flatMap(({ id, name, args }, index): StreamChunk[] => {
    const json = typeof args === 'string' ? args : JSON.stringify(args)
    return [
      { type: 'block-start', index, blockType: 'tool-call' },
      { type: 'tool-call-delta', index, id: CallId(id), name, argumentsDelta: json },
      { type: 'block-end', index, block: { type: 'tool-call', id: CallId(id), name, arguments: json } },
    ]
  })
  return [
    ...chunks,
    { type: 'usage', usage: { inputTokens: 10, outputTokens: 5 } },
    { type: 'finish', reason: { kind: 'tool-calls' } },
  ]
}

/** One response calling one tool. `args` may be a raw (even invalid) JSON string. */
export function toolCall(id: string, name: string, args: unknown): StreamChunk[] {
  return toolCalls({ id, name, args })
}

export class ScriptedModel extends LlmAdapter {
  /** Every request, in order. */
  readonly requests: GenerateOptions[] = []
  private readonly steps: Step[] = []

  /** Queue responses for the next model calls. */
  script(...steps: Step[]): void {
    this.steps.push(...steps)
  }

  /** Steps not consumed yet (a test that scripts more than the run used is wrong). */
  get pending(): number {
    return this.steps.length
  }

  /** Tool names offered by one request (default: the last), in the order offered. */
  toolNames(request: GenerateOptions | undefined = this.requests.at(-1)): string[] {
    if (request === undefined) throw new Error('ScriptedModel: no request recorded yet')
    return (request.tools ?? []).map(tool => tool.name)
  }

  /** The rendered system prompt of one request (default: the last). */
  system(request: GenerateOptions | undefined = this.requests.at(-1)): string {
    if (request === undefined) throw new Error('ScriptedModel: no request recorded yet')
    return request.system ?? ''
  }

  override resolveModel(provider: string, model: string): Promise<LlmResolvedModelInfo> {
    return Promise.resolve({ provider, id: model, name: model })
  }

  async * stream(options: GenerateOptions): AsyncIterable<StreamChunk> {
    this.requests.push(options)
    const step = this.steps.shift()
    if (step === undefined) throw new Error('ScriptedModel: script exhausted')
    for (const chunk of typeof step === 'function' ? step(options) : step) yield chunk
  }
}
