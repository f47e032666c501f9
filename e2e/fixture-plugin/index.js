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

export function apply(ctx) {
  for (const tool of fixtureTools(record)) ctx.tools.register(tool)
}
