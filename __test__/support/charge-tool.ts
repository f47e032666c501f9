// A deferred billing tool for the pipeline tests: a strict schema, its own call card, and a body
// that records when it runs, so a test can see the stages around it.
import { defineTool, type ToolDefinition } from '@deepseek-ai/dsh-tools'

export const CHARGE = 'mcp__billing__charge'

/** @param stages - where the body writes `body` when it runs. */
export function chargeTool(stages: string[]): ToolDefinition {
  return defineTool({
    name: CHARGE,
    description: 'Charge a customer card.',
    parameters: { amount: { type: 'number', required: true }, currency: { type: 'string', enum: ['EUR', 'USD'] } },
    output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
    execute: () => {
      stages.push('body')
      return Promise.resolve('charged')
    },
    presentCall: args => ({ card: 'generic', title: `Charge ${args.amount}`, kind: 'execute' }),
    presentResult: (_args, result) => ({ card: 'generic', title: result.isError ? 'Charge failed' : 'Charged' }),
  })
}
