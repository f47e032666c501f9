// Reads the session DSH persisted for a run: dsh-session-persistence-jsonl
// writes $DSH_HOME/sessions/--<cwd>--/<id>/session.jsonl.zstd, one JSON event
// per line, compressed with Node's built-in zstd (Node >= 22.15).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { zstdDecompressSync } from 'node:zlib'

/** Every persisted session file under a DSH home, oldest layout first. */
export function sessionFiles(dshHome) {
  const root = join(dshHome, 'sessions')
  if (!existsSync(root)) return []
  return readdirSync(root, { recursive: true })
    .filter((path) => path.endsWith('session.jsonl.zstd'))
    .sort()
    .map((path) => join(root, path))
}

/** The events of one session file, as parsed JSON lines. */
export function readSession(file) {
  return zstdDecompressSync(readFileSync(file)).toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))
}
