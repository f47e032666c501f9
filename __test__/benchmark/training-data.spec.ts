// The encoder's training data (model/build/train/): the Python copy of the part rule agrees with
// bench/lib/eval-metrics.mjs on every request id, and its validation split with `isValidation`, the committed pairs hold no request of a held
// part and nothing of the sources kept whole as held-out (BFCL live, AgentDojo), and the requests
// written for the recorded MCP servers and DSH's own tools pass their checks, name none of the eval
// catalogs' MCP servers and train only outside the validation servers.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { isHeldBack, isValidation } from '../../bench/lib/eval-metrics.mjs'
import { evalSets } from '../../bench/lib/eval-sets.mjs'

const root = new URL('../../', import.meta.url)
// The checks that run Python skip where python3 is missing, and say so beside their names (vitest's
// verbose reporter prints the note) rather than passing without having checked anything.
const python = spawnSync('python3', ['--version']).status === 0
const NO_PYTHON = 'python3 is not on PATH, so this check did not run'

interface Pair { source: string; kind: string; id: string; split: string; pool: string; positives: string[] }
const pairs: Pair[] = readFileSync(new URL('model/build/train/pairs.jsonl', root), 'utf8')
  .split('\n').filter(Boolean).map(line => JSON.parse(line))
const dshTools: string[] = JSON.parse(readFileSync(new URL('catalogs/dsh/headless-tools.json', root), 'utf8')).tools.map(({ name }: { name: string }) => name)
const pairOf = new Map<string, string>(readFileSync(new URL('bench/data/bilingual/queries.jsonl', root), 'utf8')
  .split('\n').filter(Boolean).map(line => JSON.parse(line)).map(({ id, pair }: { id: string; pair: string }) => [id, pair]))

describe('the training data', () => {
  it('parts.py gives every request of every set the part isHeldBack gives it', ({ skip }) => {
    skip(!python, NO_PYTHON)
    const sets = evalSets().map(({ id, whole, devOnly, requests }) => ({ id, whole, devOnly, catalog: [], requests }))
    const bilingualPairs = [...pairOf].map(([id, pair]) => ({ id, pair, held: isHeldBack(pair) }))
    const run = spawnSync('python3', ['model/build/train/parts.py', '--check-stdin'], {
      cwd: root, input: JSON.stringify({ sets, bilingualPairs }), encoding: 'utf8',
    })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/agrees with the JavaScript one on all \d{4,} ids/)
  })

  it('draws labelled requests from dev parts only, and nothing from BFCL live or AgentDojo', () => {
    const labelled = pairs.filter(pair => !pair.source.startsWith('mcp:') && pair.kind !== 'written')
    expect(labelled.length).toBeGreaterThan(1000)
    for (const pair of labelled) {
      expect(['bfcl', 'tau2-bench', 'tooltalk', 'tau2-banking', 'bilingual-en', 'bilingual-zh']).toContain(pair.source)
      const id = pair.id.replace(/:zh$/, '')
      const key = pair.source.startsWith('bilingual') ? pairOf.get(id) : id
      expect(key, pair.id).toBeDefined()
      expect(isHeldBack(key ?? ''), pair.id).toBe(false)
      // bench/validation.mjs reads the validation requests by the same rule as data.py.
      expect(pair.split, pair.id).toBe(isValidation(key ?? '') ? 'val' : 'train')
    }
  })

  it('holds written requests that pass check_written.py', ({ skip }) => {
    skip(!python, NO_PYTHON)
    const run = spawnSync('python3', ['model/build/train/check_written.py'], { cwd: root, encoding: 'utf8' })
    expect(run.stdout).toMatch(/alibabacloud-devops: \d+ requests, 203 of 203 tools in both languages/)
    expect(run.status, run.stdout).toBe(0)
  })

  it('points written requests only at recorded servers outside the eval catalogs or DSH\'s own tools, and trains none of the validation servers', () => {
    const written = pairs.filter(pair => pair.kind === 'written')
    expect(written.length).toBeGreaterThan(4000)
    const evalServers = ['github', 'notion', 'playwright', 'howtocook', 'antd']
    const validation = new Set<string>()
    for (const pair of written) {
      const server = pair.id.split(':')[1] ?? ''
      expect(evalServers).not.toContain(server)
      if (server === 'dsh') {
        // DSH's tools keep the names DSH registers them under, in a pool of their own.
        expect(pair.pool).toBe('dsh')
        for (const key of pair.positives) expect(dshTools).toContain(key.split('\t')[1])
      } else {
        for (const key of pair.positives) expect(key.split('\t')[1]).toMatch(new RegExp(`^mcp__${server}__`))
      }
      if (pair.split === 'val') {
        validation.add(server)
        expect(pair.pool).toBe('written')
      } else {
        expect(pair.split).toBe('train')
      }
    }
    expect(validation.size).toBeGreaterThan(5)
    const trainedServers = new Set(pairs.filter(pair => pair.split === 'train').map(pair => pair.pool.replace(/^mcp:/, '')))
    for (const server of validation) expect(trainedServers.has(server), server).toBe(false)
  })
})
