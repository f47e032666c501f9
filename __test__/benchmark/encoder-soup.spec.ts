// The shipped encoder is a mean of two encoders, one of them read back from its shipped file
// (model/build/train/soup.py). What that rests on: model/build/encoder.py's `decode` is the exact
// inverse of its export, it refuses a damaged file, and soup.py takes no file but the one
// soup.json names.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = new URL('../../', import.meta.url)
// These run Python with numpy (model/build/requirements.txt); where either is missing they skip
// and say so beside their names rather than pass without having checked anything.
const numpy = spawnSync('python3', ['-c', 'import numpy']).status === 0
const NO_NUMPY = 'python3 with numpy is not on PATH, so this check did not run'

const scratch = mkdtempSync(join(tmpdir(), 'dsh-tool-search-soup-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function python(code: string, ...args: string[]) {
  return spawnSync('python3', ['-c', code, ...args], { cwd: root, encoding: 'utf8' })
}

const ROUND_TRIP = `
import json, os, sys
sys.path.insert(0, 'model/build')
import encoder, pinned
path, out = sys.argv[1], sys.argv[2]
data = open(path, 'rb').read()
config, vocab, weights = encoder.decode(data)
json.dump(config, open(os.path.join(out, 'config.json'), 'w'))
open(os.path.join(out, 'vocab.txt'), 'w', encoding='utf-8').write('\\n'.join(vocab) + '\\n')
pinned.write_tensors(os.path.join(out, 'model.safetensors'), weights)
print('weights', len(weights), 'tokens', len(vocab), 'same bytes', encoder.Model(out).encode() == data)
`

describe('the encoder file read back (encoder.py decode)', () => {
  it('gives a model directory that exports to the shipped file byte for byte', ({ skip }) => {
    skip(!numpy, NO_NUMPY)
    const run = python(ROUND_TRIP, 'model/encoder.bin', scratch)
    expect(run.stderr).toBe('')
    expect(run.stdout.trim()).toBe('weights 101 tokens 30522 same bytes True')
  })

  it('refuses a file with one byte changed', ({ skip }) => {
    skip(!numpy, NO_NUMPY)
    const bytes = readFileSync(new URL('model/encoder.bin', root))
    bytes[bytes.length - 1000] = (bytes[bytes.length - 1000] ?? 0) ^ 1
    const damaged = join(scratch, 'damaged.bin')
    writeFileSync(damaged, bytes)
    const run = python(ROUND_TRIP, damaged, scratch)
    expect(run.status).not.toBe(0)
    expect(run.stderr).toContain('ValueError: an encoder file of another version, or damaged')
  })
})

describe('soup.py', () => {
  it('averages only the encoder soup.json names, by its sha256', ({ skip }) => {
    skip(!numpy, NO_NUMPY)
    const run = spawnSync('python3', ['model/build/train/soup.py', '--shipped', 'model/encoder.bin', '--trained', scratch, '--out', join(scratch, 'out')], { cwd: root, encoding: 'utf8' })
    expect(run.status).toBe(1)
    expect(run.stderr).toContain('model/encoder.bin is not the encoder of commit 5ef10d3ce661f3705751bcffe7c91fb86da51899')
  })
})
