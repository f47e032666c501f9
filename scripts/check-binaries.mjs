#!/usr/bin/env node
// Checks prebuilt addons before they are packed or published: each file is the
// right object format and CPU for its platform, the glibc builds need nothing
// newer than the 2.17 baseline, the musl build links musl's libc, the macOS
// builds do not require a newer macOS than Node.js itself supports, and the
// binary for this machine loads and answers a search.
//
//   node scripts/check-binaries.mjs [dir]     (default: artifacts/)
//
// Prints one line per binary and exits 1 if any check fails. Needs binutils'
// objdump for the ELF dependency checks.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { platformKey } from '../e2e/lib/profile.mjs'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const GLIBC_BASELINE = [2, 17]
// Oldest macOS each build may require: Node.js 20 itself needs macOS 10.15 on
// Intel and 11 on Apple silicon.
const MACOS_FLOOR = { x64: [10, 15], arm64: [11, 0] }
const ELF_MACHINE = { x64: 62, arm64: 183 }
const MACHO_CPU = { x64: 0x01000007, arm64: 0x0100000c }
const PE_MACHINE = { x64: 0x8664, arm64: 0xaa64 }

const dir = resolve(process.argv[2] ?? join(REPO, 'artifacts'))
const { binaryName } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).napi
const files = readdirSync(dir).filter((file) => file.startsWith(`${binaryName}.`) && file.endsWith('.node')).sort()
if (files.length === 0) {
  process.stderr.write(`check-binaries: no ${binaryName}.<platform>.node in ${dir}\n`)
  process.exit(1)
}

let failed = 0
for (const file of files) {
  const platform = file.slice(binaryName.length + 1, -'.node'.length)
  const path = join(dir, file)
  const bytes = readFileSync(path)
  const problems = []
  const facts = [`${bytes.length} bytes`, `sha256 ${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`]
  const [os, arch, abi] = platform.split('-')
  try {
    if (os === 'linux') facts.push(...checkElf(path, bytes, arch, abi, problems))
    else if (os === 'darwin') facts.push(...checkMachO(bytes, arch, problems))
    else if (os === 'win32') facts.push(...checkPe(bytes, arch, problems))
    else problems.push(`no check for platform ${platform}`)
    if (platform === platformKey()) facts.push(loadsHere(path, problems))
  } catch (error) {
    problems.push(error.message)
  }
  if (problems.length > 0) failed++
  process.stdout.write(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${platform.padEnd(16)} ${facts.join(', ')}${problems.map((problem) => `\n     - ${problem}`).join('')}\n`)
}
process.stdout.write(`binaries: ${files.length - failed} passed, ${failed} failed\n`)
process.exit(failed === 0 ? 0 : 1)

function checkElf(path, bytes, arch, abi, problems) {
  if (bytes.readUInt32BE(0) !== 0x7f454c46) {
    problems.push('not an ELF file')
    return []
  }
  const machine = bytes.readUInt16LE(18)
  if (machine !== ELF_MACHINE[arch]) problems.push(`ELF machine ${machine}, expected ${ELF_MACHINE[arch]} for ${arch}`)
  const symbols = objdump(['-T', path])
  const versions = [...new Set([...symbols.matchAll(/\bGLIBC_(\d+)\.(\d+)(?:\.\d+)?\b/g)].map((match) => `${match[1]}.${match[2]}`))]
  const needed = [...objdump(['-p', path]).matchAll(/^\s*NEEDED\s+(\S+)/gm)].map((match) => match[1])
  if (abi === 'musl') {
    if (versions.length > 0) problems.push(`musl build references glibc symbol versions ${versions.join(', ')}`)
    if (!needed.includes('libc.so')) problems.push(`musl build does not link libc.so (NEEDED: ${needed.join(', ')})`)
    return [`ELF ${arch}`, `links ${needed.join(' ')}`]
  }
  const newest = versions.map((version) => version.split('.').map(Number)).sort(compareVersions).at(-1) ?? [0, 0]
  if (compareVersions(newest, GLIBC_BASELINE) > 0) {
    const over = symbols.split('\n').filter((line) => versionsOver(line)).map((line) => line.trim().split(/\s+/).slice(-2).join(' '))
    problems.push(`needs glibc ${newest.join('.')} > ${GLIBC_BASELINE.join('.')}: ${over.join('; ')}`)
  }
  return [`ELF ${arch}`, `newest glibc symbol version ${newest.join('.')} (baseline ${GLIBC_BASELINE.join('.')})`]
}

function versionsOver(line) {
  const match = /\bGLIBC_(\d+)\.(\d+)/.exec(line)
  return match !== null && compareVersions([Number(match[1]), Number(match[2])], GLIBC_BASELINE) > 0
}

function checkMachO(bytes, arch, problems) {
  if (bytes.readUInt32LE(0) !== 0xfeedfacf) {
    problems.push('not a 64-bit Mach-O file')
    return []
  }
  const cpu = bytes.readUInt32LE(4)
  if (cpu !== MACHO_CPU[arch]) problems.push(`Mach-O CPU type 0x${cpu.toString(16)}, expected 0x${MACHO_CPU[arch].toString(16)} for ${arch}`)
  const minos = machOMinimumOs(bytes)
  if (minos === undefined) problems.push('no LC_BUILD_VERSION or LC_VERSION_MIN_MACOSX load command')
  else if (compareVersions(minos, MACOS_FLOOR[arch]) > 0) problems.push(`requires macOS ${minos.join('.')}, newer than ${MACOS_FLOOR[arch].join('.')}`)
  return [`Mach-O ${arch}`, `minimum macOS ${minos?.join('.') ?? 'unknown'}`]
}

/** The minimum OS version from the load commands (encoded xxxx.yy.zz in a u32). */
function machOMinimumOs(bytes) {
  const count = bytes.readUInt32LE(16)
  let offset = 32
  for (let i = 0; i < count; i++) {
    const command = bytes.readUInt32LE(offset)
    // LC_BUILD_VERSION (minos after platform) or LC_VERSION_MIN_MACOSX (version first).
    const field = command === 0x32 ? offset + 12 : command === 0x24 ? offset + 8 : -1
    if (field >= 0) {
      const packed = bytes.readUInt32LE(field)
      return [packed >>> 16, (packed >>> 8) & 0xff]
    }
    offset += bytes.readUInt32LE(offset + 4)
  }
  return undefined
}

function checkPe(bytes, arch, problems) {
  if (bytes.readUInt16BE(0) !== 0x4d5a) {
    problems.push('not a PE file')
    return []
  }
  const header = bytes.readUInt32LE(0x3c)
  const machine = bytes.readUInt16LE(header + 4)
  if (machine !== PE_MACHINE[arch]) problems.push(`PE machine 0x${machine.toString(16)}, expected 0x${PE_MACHINE[arch].toString(16)} for ${arch}`)
  return [`PE ${arch}`]
}

/** The binary built for this machine must load through Node-API and rank a tiny catalog. */
function loadsHere(path, problems) {
  const { ToolIndex } = createRequire(import.meta.url)(path)
  const index = ToolIndex.fromJson(JSON.stringify([
    { name: 'get_weather_forecast', description: 'Weather forecast for a city' },
    { name: 'convert_currency', description: 'Convert an amount between currencies' },
  ]))
  const top = index.search('forecast for Paris', 1)[0]?.name
  if (top !== 'get_weather_forecast') problems.push(`loaded, but searching ranked ${top} first`)
  return `loads in Node ${process.version}`
}

function objdump(args) {
  try {
    return execFileSync('objdump', args, { encoding: 'utf8', maxBuffer: 64 << 20 })
  } catch (error) {
    throw new Error(error.code === 'ENOENT' ? 'objdump (binutils) is needed to check ELF dependencies' : `objdump ${args.join(' ')}: ${error.message}`)
  }
}

function compareVersions(a, b) {
  return a[0] - b[0] || a[1] - b[1]
}
