// The multi-step set (bench/data/multistep/README.md): its checker passes the committed file and
// turns away a copy with one broken line, `pnpm eval` reads each line's steps, and a step counts as
// found when any of the tools that serve it is ranked.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { recallAt, stepMetrics, summarizeFirstSteps } from '../../bench/lib/eval-metrics.mjs'
import { evalSets } from '../../bench/lib/eval-sets.mjs'

interface Line { id: string; pair: string; lang: 'en' | 'zh'; query: string; steps: string[][]; [field: string]: unknown }

const root = new URL('../../', import.meta.url)
const file = new URL('bench/data/multistep/queries.jsonl', root)
const lines: Line[] = readFileSync(file, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line))
const scratch = mkdtempSync(join(tmpdir(), 'multistep-check-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Runs the set's checker on the committed file, or on a copy whose lines are those given. */
function check(copy?: Line[]) {
  const args = ['bench/data/multistep/check.mjs']
  if (copy !== undefined) {
    const path = join(scratch, 'queries.jsonl')
    writeFileSync(path, `${copy.map(line => JSON.stringify(line)).join('\n')}\n`)
    args.push(path)
  }
  return spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' })
}

/** The committed lines with the one of `id` replaced by what `change` makes of it. */
function withLine(id: string, change: (line: Line) => Line) {
  const at = lines.findIndex(line => line.id === id)
  expect(at, id).toBeGreaterThanOrEqual(0)
  return lines.map((line, i) => (i === at ? change(structuredClone(line)) : line))
}

describe('the multi-step set checker', () => {
  it('passes the committed file and counts its steps', () => {
    const run = check()
    expect(run.stderr).toBe('')
    expect(run.status, run.stdout).toBe(0)
    expect(run.stdout).toMatch(/^748 pairs \(1496 requests\): 524 dev, 224 held; \d\.\d\d steps/)
    expect(run.stdout).toContain('135 pairs have a step served by more than one tool')
  })

  // gh-004: create a branch, change a file on it, open a PR. ws-041: cancel an event (AgentDojo's
  // or ToolTalk's tool), then e-mail the client (either's again).
  it.each([
    ['a step with no tool', 'gh-004-en', (line: Line) => ({ ...line, steps: [...line.steps, []] }), 'gh-004-en: a step names no tool'],
    ['a single step', 'gh-001-zh', (line: Line) => ({ ...line, steps: [line.steps.flat()] }), 'gh-001-zh: 1 step, not 2 to 4'],
    ['a tool in two steps', 'ws-041-en', (line: Line) => ({ ...line, steps: [...line.steps, ['send_email']] }), 'ws-041-en: a tool is named twice'],
    ['steps that differ between the languages', 'gh-004-zh', (line: Line) => ({ ...line, steps: line.steps.slice().reverse() }), 'gh-004: the two languages have different steps'],
    ['a tool not in the catalog', 'gh-004-en', (line: Line) => ({ ...line, steps: [...line.steps, ['mcp__github__delete_everything']] }), 'no tool mcp__github__delete_everything'],
    ['a flat list beside the steps', 'gh-004-en', (line: Line) => ({ ...line, relevant: line.steps.flat() }), 'gh-004-en: fields must be id, lang, pair, query, steps'],
  ])('turns away %s', (_, id, change, reason) => {
    const run = check(withLine(id, change))
    expect(run.status).toBe(1)
    expect(run.stdout).toContain(reason)
  })
})

describe('the multi-step set in pnpm eval', () => {
  const sets = evalSets().filter(set => set.id.startsWith('multistep-'))

  it('gives each request its line\'s steps, and all their tools as its relevant ones', () => {
    expect(sets.map(set => set.id)).toEqual(['multistep-en', 'multistep-zh'])
    for (const set of sets) {
      expect(set.label).toContain('over steps')
      const own = new Map(lines.map(line => [line.id, line.steps]))
      for (const request of set.requests) {
        expect(request.steps, request.id).toEqual(own.get(request.id))
        expect(request.relevant, request.id).toEqual(request.steps?.flat())
      }
    }
  })
})

describe('scoring by steps', () => {
  // ws-041: [cancel_calendar_event | DeleteEvent] then [send_email | SendEmail].
  const steps = lines.find(line => line.id === 'ws-041-en')?.steps ?? []

  it('counts a step found by any one of its tools, where recall over all tools counts the others as missing', () => {
    const ranked = ['DeleteEvent', 'get_day_calendar_events', 'send_email', 'search_emails']
    const metrics = stepMetrics(ranked, steps)
    expect(metrics).toMatchObject({ r1: 0.5, r5: 1, r10: 1, hit5: 1 })
    // The steps are found at ranks 1 and 3, against an ideal of ranks 1 and 2.
    expect(metrics.ndcg10).toBeCloseTo((1 + 1 / Math.log2(4)) / (1 + 1 / Math.log2(3)), 12)
    expect(recallAt(ranked, steps.flat(), 5)).toBe(0.5)
  })

  it('finds nothing of a step none of whose tools is ranked, and misses Hit@5 when that is the first step', () => {
    const metrics = stepMetrics(['a', 'b', 'c', 'd', 'e', 'SendEmail'], steps)
    expect(metrics).toMatchObject({ r1: 0, r5: 0, r10: 0.5, hit5: 0 })
    expect(summarizeFirstSteps([{ hit5: 1 }, { hit5: 0 }, metrics])).toEqual({ hit5: 0.333 })
    expect(summarizeFirstSteps([{}, { hit5: 1 }])).toEqual({})
  })
})
