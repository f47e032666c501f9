// Child processes with a deadline. Each child leads its own process group, so
// a timeout or an interrupted harness ends dsh together with whatever it
// spawned (pnpm, code-runtime workers, bash jobs), and nothing else.
import { spawn } from 'node:child_process'

/** @type {Set<number | undefined>} */
const live = new Set()

/**
 * Kill every child group this module started and has not seen exit.
 * @param {NodeJS.Signals} [signal]
 */
export function killAll(signal = 'SIGKILL') {
  for (const pid of live) killGroup(pid, signal)
}

/**
 * @param {number | undefined} pid
 * @param {NodeJS.Signals} signal
 */
function killGroup(pid, signal) {
  if (pid === undefined) return
  try {
    process.kill(-pid, signal)
  } catch {
    // already gone
  }
}

process.on('exit', () => killAll())

/**
 * On SIGINT or SIGTERM, say so, run `cleanUp` (it may return a promise) and exit 130, so an
 * interrupted harness still stops its children and removes its work folder.
 */
export function onInterrupt(/** @type {() => unknown} */ cleanUp, /** @type {(message: string) => void} */ log = () => {}) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      log(`interrupted by ${signal}`)
      void Promise.resolve()
        .then(cleanUp)
        .finally(() => process.exit(130))
    })
  }
}

/**
 * Start `command args` as the leader of its own process group, for a child that runs until it is
 * stopped (a server): `stopGroup` stops it, and `killAll` (run at exit) kills what is left of it.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {{cwd?: string, env?: NodeJS.ProcessEnv}} [options]
 */
export function startGroup(command, args, { cwd, env = process.env } = {}) {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  if (child.pid !== undefined) live.add(child.pid)
  return child
}

/**
 * SIGTERM to a child's group and everything it started; SIGKILL for what is left after 5 s, or at
 * once when the leader has already exited (its stragglers).
 * @param {import('node:child_process').ChildProcess} child
 */
export async function stopGroup(child) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolveExit) => { child.once('exit', resolveExit) })
    killGroup(child.pid, 'SIGTERM')
    await Promise.race([exited, new Promise((resolveWait) => { setTimeout(resolveWait, 5_000).unref() })])
  }
  killGroup(child.pid, 'SIGKILL')
  live.delete(child.pid)
}

/**
 * @typedef {{cwd?: string, env?: NodeJS.ProcessEnv, timeoutMs?: number}} RunOptions
 * @typedef {{code: number|null, signal: string|null, stdout: string, stderr: string, timedOut: boolean, ms: number}} RunResult
 */

/**
 * Run `command args` to completion, capturing output, killed after `timeoutMs`.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {RunOptions} [options]
 * @returns {Promise<RunResult>}
 */
export function run(command, args, { cwd, env = process.env, timeoutMs = 120_000 } = {}) {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    if (child.pid !== undefined) live.add(child.pid)
    let stdout = ''
    let stderr = ''
    let timedOut = false
    child.stdout.setEncoding('utf8').on('data', (text) => { stdout += text })
    child.stderr.setEncoding('utf8').on('data', (text) => { stderr += text })
    const timer = setTimeout(() => {
      timedOut = true
      killGroup(child.pid, 'SIGTERM')
      setTimeout(() => killGroup(child.pid, 'SIGKILL'), 5_000).unref()
    }, timeoutMs)
    child.on('error', (error) => {
      clearTimeout(timer)
      live.delete(child.pid)
      reject(new Error(`cannot start ${command}: ${error.message}`))
    })
    // The leader exited: reap any stragglers left in its group, which also
    // closes pipes they might hold open and lets 'close' fire.
    child.on('exit', () => killGroup(child.pid, 'SIGKILL'))
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      live.delete(child.pid)
      resolve({ code, signal, stdout, stderr, timedOut, ms: Math.round(performance.now() - started) })
    })
  })
}

/**
 * Like `run`, but throws with the command's output when it fails.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {RunOptions} [options]
 */
export async function runOk(command, args, options) {
  const result = await run(command, args, options)
  if (result.code !== 0) {
    const why = result.timedOut ? `timed out after ${options?.timeoutMs ?? 120_000} ms` : `exited with ${result.code ?? result.signal}`
    throw new Error(`${command} ${args.join(' ')} ${why}\n${tail(result.stderr || result.stdout)}`)
  }
  return result
}

/**
 * The last `lines` lines of a process's output, for reports and errors.
 * @param {string} text
 */
export function tail(text, lines = 30) {
  return text.trimEnd().split('\n').slice(-lines).join('\n')
}
