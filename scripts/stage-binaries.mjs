#!/usr/bin/env node
// Copies built addons into their npm/<platform>/ packages, so that packing a
// platform package always ships the binary that was built last.
//
//   node scripts/stage-binaries.mjs [dir]     (pnpm run artifacts [dir])
//
// Takes every `dsh-tool-search.<platform>.node` directly inside `dir` (default:
// the repository root, where `napi build --platform` puts the host build;
// `artifacts/` after scripts/build-platforms.sh) whose npm/<platform>/ package
// exists, and checks that the file is the one that package's manifest ships.
// napi-rs's own `napi artifacts` does the same but insists on all six targets
// at once, which only the release workflow has.
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * @param {string} from - folder holding `<binaryName>.<platform>.node` files.
 * @returns {{platform: string, from: string, to: string, bytes: number}[]} what was copied.
 */
export function stageBinaries(from = REPO) {
  const { binaryName } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).napi
  const pattern = new RegExp(`^${binaryName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.([a-z0-9-]+)\\.node$`)
  const staged = []
  for (const file of readdirSync(from).sort()) {
    const platform = pattern.exec(file)?.[1]
    const packageDir = join(REPO, 'npm', platform ?? '')
    if (!platform || !existsSync(join(packageDir, 'package.json'))) continue
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'))
    if (manifest.main !== file) throw new Error(`npm/${platform}/package.json ships ${manifest.main}, not ${file}`)
    copyFileSync(join(from, file), join(packageDir, file))
    staged.push({ platform, from: join(from, file), to: join(packageDir, file), bytes: statSync(join(from, file)).size })
  }
  return staged
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const from = resolve(process.argv[2] ?? REPO)
  const staged = stageBinaries(from)
  if (staged.length === 0) {
    process.stderr.write(`stage-binaries: no built addon in ${from}; run \`pnpm run build:native\` (or scripts/build-platforms.sh) first\n`)
    process.exit(1)
  }
  for (const { platform, from: source, to, bytes } of staged) {
    process.stdout.write(`staged ${platform}: ${relative(REPO, source)} -> ${relative(REPO, to)} (${bytes} bytes)\n`)
  }
}
