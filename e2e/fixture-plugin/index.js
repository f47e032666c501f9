// A DSH plugin that registers the fixture tools globally. It imports nothing
// from DSH, so it loads the same way in any profile; the tools run through
// DSH's ordinary pipeline like any third-party tool would.
import { appendFileSync } from 'node:fs'
import { fixtureTools } from './tools.js'

export const name = 'dsh-e2e-fixture-tools'
export const inject = ['tools']

// Proof of execution, set by the E2E harness when it launches dsh: every call
// appends one JSON line to DSH_E2E_FIXTURE_LOG and returns DSH_E2E_FIXTURE_NONCE
// as its receipt. The scripted model never sees the nonce, so the nonce showing
// up in a later model request can only come from the tool having run.
function record(tool, args) {
  const log = process.env.DSH_E2E_FIXTURE_LOG
  if (log) appendFileSync(log, JSON.stringify({ tool, args, pid: process.pid }) + '\n')
  return process.env.DSH_E2E_FIXTURE_NONCE ?? 'no-nonce'
}

// Proof of the pipeline, set only by runs that check it: with DSH_E2E_FIXTURE_HOOKS set, every
// post-execute of a fixture tool appends {hook, tool} to that file, and a call of the tool named
// by DSH_E2E_FIXTURE_ASK asks for approval, which this plugin grants and records with the tool
// name the approval request carries.
function hook(hookName, tool) {
  const file = process.env.DSH_E2E_FIXTURE_HOOKS
  if (file) appendFileSync(file, JSON.stringify({ hook: hookName, tool }) + '\n')
}

export function apply(ctx) {
  const tools = fixtureTools(record)
  for (const tool of tools) ctx.tools.register(tool)
  if (!process.env.DSH_E2E_FIXTURE_HOOKS) return
  const ours = new Set(tools.map((tool) => tool.name))
  ctx.on('tools/pre-execute', async (exec, next) => {
    if (ours.has(exec.name) && exec.name === process.env.DSH_E2E_FIXTURE_ASK) return { kind: 'ask', reason: 'the E2E asks for this tool' }
    return next()
  })
  ctx.on('approval/request', async (request, next) => {
    if (!ours.has(request.toolName)) return next()
    hook('approval', request.toolName)
    return 'allowed-once'
  })
  ctx.on('tools/post-execute', async (exec, _result, next) => {
    if (ours.has(exec.name)) hook('post-execute', exec.name)
    return next()
  })
}
