// Resuming session logs that were cut short, edited by hand or written by another version of the
// plugin, through DSH's real JSONL persistence (zstd, as on disk): the resumed Agent is offered
// the tools of the whole, successful searches the log still holds, nothing else, and keeps
// working. A log DSH itself refuses to load fails the resume in DSH, before this plugin is asked.
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { zstdCompressSync, zstdDecompressSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { DEFAULT_CORE_TOOLS } from '../../plugin/offer/core-tools.ts'
import type { Config } from '../../plugin/host/config.ts'
import { NATIVE, type Harness } from '../support/harness.ts'
import { perTest } from '../support/per-test.ts'
import { reply, toolCall } from '../support/scripted-model.ts'
import { foundNames, loggedResult } from '../support/session.ts'

const WEATHER = 'mcp__weather__forecast'
const GITHUB = 'mcp__github__create_issue'
const MAIL = 'mcp__mail__send_email'

interface LoggedEvent { type: string; seq: number; time: number; data: Record<string, unknown>; sourceEventSeqs?: number[] }

type Encoding = 'zstd' | 'none'

const each = perTest()

function harnessAt(root: string, encoding: Encoding, plugin: Partial<Config> = {}): Promise<Harness> {
  return each.harness({ persistenceRoot: root, persistenceCompression: encoding, plugin: { ...NATIVE, ...plugin } })
}

/** A persisted log of session `a1`, as DSH wrote it. */
interface Log {
  readonly root: string
  readonly encoding: Encoding
  readonly file: string
}

/**
 * Record session `a1`, two turns: the first finds the weather tool, the second the GitHub tool
 * (one result each).
 * @param encoding - zstd (DSH's default) or plain JSONL.
 */
async function recordedSession(encoding: Encoding = 'zstd'): Promise<Log> {
  const root = await each.dir()
  const harness = await harnessAt(root, encoding)
  const { agent } = await harness.agent('a1')
  await harness.run(agent, 'weather?', toolCall('c1', 'tool_search', { query: 'weather forecast', limit: 1 }), reply('ok'))
  await harness.run(agent, 'issue?', toolCall('c2', 'tool_search', { query: 'github issue', limit: 1 }), reply('ok'))
  expect(foundNames(loggedResult(agent, 'c1'))).toEqual([WEATHER])
  expect(foundNames(loggedResult(agent, 'c2'))).toEqual([GITHUB])
  await harness.ctx.sessions.flush(agent.session)
  await each.close(harness)
  const [file] = (await readdir(root, { recursive: true })).filter(path => /session\.jsonl(\.zstd)?$/.test(path))
  if (file === undefined) throw new Error('no session file written')
  return { root, encoding, file: join(root, file) }
}

/** The log's header line and event lines. */
async function readLog(log: Log): Promise<{ header: string; lines: string[] }> {
  const bytes = await readFile(log.file)
  const text = (log.encoding === 'zstd' ? zstdDecompressSync(bytes) : bytes).toString('utf8')
  const [header = '', ...lines] = text.split('\n')
  return { header, lines: lines.filter(line => line !== '') }
}

/** The on-disk form: plain text, or the header line in a zstd frame of its own and the rest in another. */
function encoded(log: Log, header: string, body: string): Buffer {
  if (log.encoding === 'none') return Buffer.from(`${header}\n${body}`)
  return Buffer.concat([zstdCompressSync(Buffer.from(`${header}\n`)), zstdCompressSync(Buffer.from(body))])
}

/**
 * Rewrite the log from edited events (strings are written as raw lines). Events are renumbered so
 * that `seq` stays contiguous and references to earlier events (`sourceEventSeqs`) follow, as a
 * careful hand edit would; otherwise DSH refuses the log before this plugin sees it.
 */
async function editEvents(log: Log, edit: (events: LoggedEvent[]) => (LoggedEvent | string)[]): Promise<void> {
  const { header, lines } = await readLog(log)
  const edited = edit(lines.map(line => JSON.parse(line) as LoggedEvent))
  const renumbered = new Map<number, number>()
  for (const event of edited) if (typeof event !== 'string') renumbered.set(event.seq, renumbered.size)
  const text = edited.map((event) => {
    if (typeof event === 'string') return event
    const sources = event.sourceEventSeqs?.flatMap(seq => renumbered.get(seq) ?? [])
    return JSON.stringify({ ...event, seq: renumbered.get(event.seq), ...(sources === undefined ? {} : { sourceEventSeqs: sources }) })
  })
  await writeFile(log.file, encoded(log, header, `${text.join('\n')}\n`))
}

const isCall = (id: string) => (event: LoggedEvent) => event.type === 'tool/call' && event.data['callId'] === id
const isResult = (id: string) => (event: LoggedEvent) => event.type === 'tool/result' && JSON.stringify(event.data).includes(`"toolCallId":"${id}"`)

/** Replace the text of call `id`'s result. */
function withResultText(events: LoggedEvent[], id: string, text: (old: string) => string): LoggedEvent[] {
  return events.map((event) => {
    if (!isResult(id)(event)) return event
    const message = event.data['message'] as { content: { content: { text: string }[] }[] }
    const block = message.content[0]!.content[0]!
    return { ...event, data: { ...event.data, message: { ...message, content: [{ ...message.content[0], content: [{ ...block, text: text(block.text) }] }] } } }
  })
}

/** Resume `a1`, run one turn, and return the deferred tools the model was offered on it. */
async function offeredAfterResume(log: Log, plugin: Partial<Config> = {}): Promise<string[]> {
  const harness = await harnessAt(log.root, log.encoding, plugin)
  const { agent } = await harness.resume('a1')
  await harness.run(agent, 'continue', reply('ok'))
  return harness.model.toolNames().filter(name => !DEFAULT_CORE_TOOLS.includes(name) && name !== 'tool_search' && name !== 'todo_write').sort()
}

describe('resuming a session log that was cut short', () => {
  it('an intact log resumes with both selections (the baseline the other cases cut into)', async () => {
    expect(await offeredAfterResume(await recordedSession())).toEqual([GITHUB, WEATHER])
  })

  it('a torn last line (a crash mid-write) keeps the searches before it', async () => {
    const log = await recordedSession('none')
    const { header, lines } = await readLog(log)
    const cut = lines.findIndex(line => line.includes('"toolCallId":"c2"'))
    await writeFile(log.file, encoded(log, header, `${lines.slice(0, cut).join('\n')}\n${lines[cut]!.slice(0, 80)}`))
    expect(await offeredAfterResume(log)).toEqual([WEATHER])
  })

  it('a torn last zstd frame keeps the searches of the frames before it', async () => {
    const log = await recordedSession()
    const { header, lines } = await readLog(log)
    const cut = lines.findIndex(line => line.includes('"toolCallId":"c2"'))
    const whole = encoded(log, header, `${lines.slice(0, cut).join('\n')}\n`)
    const rest = zstdCompressSync(Buffer.from(`${lines.slice(cut).join('\n')}\n`))
    await writeFile(log.file, Buffer.concat([whole, rest.subarray(0, 16)]))
    expect(await offeredAfterResume(log)).toEqual([WEATHER])
  })

  it('a zstd file cut anywhere resumes from what DSH recovers, or is refused by DSH', async () => {
    const log = await recordedSession()
    const bytes = await readFile(log.file)
    for (const share of [0.3, 0.6, 0.9]) {
      await writeFile(log.file, bytes.subarray(0, Math.floor(bytes.length * share)))
      const harness = await harnessAt(log.root, log.encoding)
      const outcome = await harness.resume('a1').then(({ agent }) => agent, (error: unknown) => (error instanceof Error ? error : new Error(String(error))))
      if (outcome instanceof Error) {
        expect(outcome.message).toMatch(/session log|Zstandard/)
        continue
      }
      // Selected exactly when the recovered events still hold that search's result.
      const kept = JSON.stringify(outcome.session.events)
      await harness.run(outcome, 'continue', reply('ok'))
      expect(harness.model.toolNames().includes(WEATHER)).toBe(kept.includes(`\\"name\\":\\"${WEATHER}\\"`))
      expect(harness.model.toolNames().includes(GITHUB)).toBe(kept.includes(`\\"name\\":\\"${GITHUB}\\"`))
    }
  })

  it('garbage lines after the last turn of a plain log are dropped by DSH and the selection survives', async () => {
    const log = await recordedSession('none')
    await editEvents(log, events => [...events, '{"type":"tool/result",', 'not json at all', '\u0000\u0001'])
    expect(await offeredAfterResume(log)).toEqual([GITHUB, WEATHER])
  })

  it('garbage DSH refuses (before a later turn end, or inside a whole zstd frame) fails the resume in DSH; the host and other Agents go on', async () => {
    const before = await recordedSession('none')
    await editEvents(before, (events) => {
      const at = events.findIndex(isCall('c2'))
      return [...events.slice(0, at), '{"type":"tool/call","seq":', ...events.slice(at)]
    })
    const inFrame = await recordedSession()
    await editEvents(inFrame, events => [...events, 'not json at all'])
    for (const log of [before, inFrame]) {
      const harness = await harnessAt(log.root, log.encoding)
      await expect(harness.resume('a1')).rejects.toThrow(/corrupt (Zstandard )?session log/)
      const { agent } = await harness.agent('other')
      await harness.run(agent, 'mail?', toolCall('c1', 'tool_search', { query: 'send email', limit: 1 }), reply('ok'))
      expect(harness.model.toolNames()).toContain(MAIL)
      expect(harness.warnings.filter(warning => warning.includes('dsh-tool-search'))).toEqual([])
    }
  })
})

describe('resuming a session log edited by hand', () => {
  it('a search whose call was renamed to another tool selects nothing', async () => {
    const log = await recordedSession()
    await editEvents(log, events => events.map(event => (isCall('c2')(event) ? { ...event, data: { ...event.data, name: 'bash' } } : event)))
    expect(await offeredAfterResume(log)).toEqual([WEATHER])
  })

  it('another tool\'s call renamed to tool_search selects what its text names, which only makes tools visible', async () => {
    const log = await recordedSession()
    await editEvents(log, events => events.map(event => (isCall('c2')(event) ? { ...event, data: { ...event.data, name: 'tool_search' } } : event)))
    expect(await offeredAfterResume(log)).toEqual([GITHUB, WEATHER])
  })

  it('a result whose call is gone (its call id edited) selects nothing', async () => {
    // Deleting the call line outright leaves the result's event reference dangling, which DSH's
    // own validation refuses; editing the id away is what still loads.
    const log = await recordedSession()
    await editEvents(log, events => events.map(event => (isCall('c2')(event) ? { ...event, data: { ...event.data, callId: 'c2-edited' } } : event)))
    expect(await offeredAfterResume(log)).toEqual([WEATHER])
  })

  it('a result whose payload was damaged, or marked failed, selects nothing', async () => {
    const log = await recordedSession()
    await editEvents(log, (events) => {
      const damaged = withResultText(events, 'c2', text => text.slice(0, -3))
      return damaged.map(event => (isResult('c1')(event) ? JSON.parse(JSON.stringify(event).replace('"isError":false', '"isError":true')) as LoggedEvent : event))
    })
    expect(await offeredAfterResume(log)).toEqual([])
  })

  it('names edited into a payload: unknown names are never offered, neverSearch still hides, tool_search and run_code change nothing', async () => {
    const log = await recordedSession()
    await editEvents(log, events => withResultText(events, 'c2', () => JSON.stringify({
      schemaVersion: 1,
      query: 'edited',
      tools: ['no_such_tool', 'mcp__postgres__query', 'tool_search', 'run_code', MAIL, '', 42].map(name => ({ name, description: '', score: 1 })),
    })))
    expect(await offeredAfterResume(log, { neverSearch: ['mcp__postgres__query'] })).toEqual([MAIL, WEATHER])
  })
})

describe('resuming a session log written by another version of the plugin', () => {
  it('a later payload version is skipped, as are text results of other shapes', async () => {
    const log = await recordedSession()
    await editEvents(log, (events) => {
      const v2 = withResultText(events, 'c2', text => text.replace('"schemaVersion":1', '"schemaVersion":2'))
      return withResultText(v2, 'c1', () => `Found tools: ${WEATHER}, ${MAIL}`)
    })
    expect(await offeredAfterResume(log)).toEqual([])
  })

  it('a version-1 payload with fields added by a later version is still read', async () => {
    const log = await recordedSession()
    await editEvents(log, events => withResultText(events, 'c2', (text) => {
      const payload = JSON.parse(text) as { tools: object[] }
      return JSON.stringify({ ...payload, ranking: 'bm25f', tools: payload.tools.map(tool => ({ ...tool, server: 'github', schemaHash: 'abc' })) })
    }))
    expect(await offeredAfterResume(log)).toEqual([GITHUB, WEATHER])
  })

  it('a resumed Agent keeps searching and committing after any of these', async () => {
    const log = await recordedSession('none')
    await editEvents(log, events => [...withResultText(events, 'c1', () => '{"schemaVersion":1,"tools":['), 'garbage'])
    const harness = await harnessAt(log.root, log.encoding)
    const { agent } = await harness.resume('a1')
    await harness.run(agent, 'mail?', toolCall('c3', 'tool_search', { query: 'send email', limit: 1 }), reply('ok'))
    expect(harness.model.toolNames()).toEqual(expect.arrayContaining([GITHUB, MAIL]))
    expect(harness.model.toolNames()).not.toContain(WEATHER)
  })
})
