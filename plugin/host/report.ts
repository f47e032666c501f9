/**
 * How the plugin tells the user something went wrong without throwing into DSH.
 */

import type { Context } from '@deepseek-ai/cordis'

/**
 * Say why the plugin stepped aside where the user sees it: DSH's log, which rc.8 keeps in memory
 * in every profile, and standard error, which headless and web print to the terminal (standard
 * output carries headless answers and the ACP protocol, so it stays clean).
 */
export function report(ctx: Context, problem: string): void {
  const line = `dsh-tool-search: ${problem}`
  ctx.logger.error(line)
  process.stderr.write(`${line}\n`)
}

/** The text of anything thrown. */
export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Log a warning once per distinct sentence, with a bounded memory of what was said. */
export class OnceLog {
  private readonly said = new Set<string>()

  constructor(private readonly ctx: Context, private readonly limit = 1000) {}

  warn(warning: string): void {
    if (this.said.has(warning)) return
    // A registry that keeps adding new odd tools keeps producing new sentences; forgetting them
    // all now and then costs a repeated log line, not memory that grows for the process's life.
    if (this.said.size >= this.limit) this.said.clear()
    this.said.add(warning)
    this.ctx.logger.warn(`dsh-tool-search: ${warning}`)
  }
}
