#!/usr/bin/env node
// `pnpm run verify-translation-pairing`: the documents kept in English and in Chinese stay in
// step, as DeepSeek Harness keeps its own. A pair is three sibling files: `X.md`, its Chinese
// counterpart `X.zh.md`, and `X.i18n.yaml`, which records each side's git blob hash (what
// `git hash-object` prints) as of the last time the two were confirmed to say the same thing.
// For every pair (README.md must be one) it checks that:
// - the three files are there, and each side's blob hash is the one recorded: editing one side
//   without bringing the other in step and confirming the pair again fails;
// - the English side says `English | [中文](X.zh.md)` and the Chinese side
//   `[English](X.md) | 中文` on the first line after the title;
// - both have the same structure: heading levels in order, code blocks (language and text) in
//   order, list kinds and lengths, tables' sizes and every cell that is all code (a setting's key
//   and default), the links' targets and the HTML comments; and the Chinese side has every
//   `<a id>` anchor the English one has.
// It cannot tell whether the two sides say the same thing; the person who confirms them can.
//
//   node scripts/verify-translation-pairing.mjs                check every pair
//   node scripts/verify-translation-pairing.mjs --list         each pair's state; never fails
//   node scripts/verify-translation-pairing.mjs --write X.md   confirm the pair X: record both hashes
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { repositoryFiles } from './check-docs.mjs'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
/** The pairs the project keeps whatever the tree holds. */
const REQUIRED = ['README']

/** @typedef {{ english: string, chinese: string, record: string }} PairFiles */

/**
 * A pair's three files, relative to the repository, from its stem (`README`, `docs/x`).
 * @param {string} stem
 * @returns {PairFiles}
 */
export function pairFiles(stem) {
  return { english: `${stem}.md`, chinese: `${stem}.zh.md`, record: `${stem}.i18n.yaml` }
}

/**
 * Every pair's stem: the required ones, and any a Chinese file or a record in the tree names.
 * @param {string} root
 */
export function pairStems(root) {
  const stems = new Set(REQUIRED)
  for (const file of repositoryFiles(root)) {
    const found = /^(.*)\.(?:zh\.md|i18n\.yaml)$/.exec(file)
    if (found) stems.add(found[1] ?? '')
  }
  return [...stems].sort()
}

/**
 * What `git hash-object` prints for a file's bytes.
 * @param {Buffer} bytes
 */
export function blobHash(bytes) {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}

/**
 * What is wrong with one pair; empty when it is in step.
 * @param {string} root
 * @param {string} stem
 * @returns {string[]}
 */
export function checkPair(root, stem) {
  const files = pairFiles(stem)
  const missing = Object.values(files).filter(file => !existsSync(join(root, file)))
  if (missing.length > 0) return [`${stem}: ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} missing; a pair is ${Object.values(files).join(', ')}`]
  /** @type {string[]} */
  const findings = []
  const recorded = readRecord(root, files)
  for (const side of [files.english, files.chinese]) {
    const now = blobHash(readFileSync(join(root, side)))
    if (recorded.get(basename(side)) === undefined) findings.push(`${files.record} records no hash for ${basename(side)}`)
    else if (recorded.get(basename(side)) !== now) {
      findings.push(`${side} changed since the pair was last confirmed (${files.record} has ${recorded.get(basename(side))}, the file is ${now}): bring the other side in step, then run pnpm run verify-translation-pairing --write ${files.english}`)
    }
  }
  const english = readFileSync(join(root, files.english), 'utf8')
  const chinese = readFileSync(join(root, files.chinese), 'utf8')
  /** @type {[string, string, string][]} */
  const switchers = [
    [files.english, english, `English | [中文](${basename(files.chinese)})`],
    [files.chinese, chinese, `[English](${basename(files.english)}) | 中文`],
  ]
  for (const [file, text, line] of switchers) {
    if (lineAfterTitle(text) !== line) findings.push(`${file}: the first line after the title must be ${line}`)
  }
  const [a, b] = [signature(english, files), signature(chinese, files)]
  for (const [part, values] of a) {
    const difference = firstDifference(values, b.get(part) ?? [])
    if (difference !== undefined) findings.push(`${files.english} and ${files.chinese} differ in their ${part}: ${difference}`)
  }
  // Every anchor the English side gives links from elsewhere, the Chinese side gives too; it may
  // add its own where a heading of its language makes another id.
  const anchors = new Set(anchorsOf(chinese))
  const lost = anchorsOf(english).filter(anchor => !anchors.has(anchor))
  if (lost.length > 0) findings.push(`${files.chinese} lacks the anchors ${lost.map(anchor => `<a id="${anchor}">`).join(', ')} that ${files.english} has`)
  return findings
}

/**
 * Record a pair as confirmed consistent: each side's blob hash as it is now.
 * @param {string} root
 * @param {string} stem
 */
export function writeRecord(root, stem) {
  const files = pairFiles(stem)
  const lines = [files.english, files.chinese].map(side => `${basename(side)}: ${blobHash(readFileSync(join(root, side)))}`)
  writeFileSync(join(root, files.record), `${lines.join('\n')}\n`)
}

/**
 * @param {string} root
 * @param {PairFiles} files
 * @returns {Map<string, string>} file name to recorded hash
 */
function readRecord(root, files) {
  /** @type {Map<string, string>} */
  const recorded = new Map()
  for (const line of readFileSync(join(root, files.record), 'utf8').split('\n')) {
    const entry = /^([^:#]+):\s*([0-9a-f]{40})\s*$/.exec(line)
    if (entry) recorded.set((entry[1] ?? '').trim(), entry[2] ?? '')
  }
  return recorded
}

/**
 * The first non-empty line after the `# ` title.
 * @param {string} text
 */
function lineAfterTitle(text) {
  const lines = text.split('\n')
  const title = lines.findIndex(line => line.startsWith('# '))
  return lines.slice(title + 1).find(line => line.trim() !== '')?.trim()
}

/**
 * The structure two sides of a pair must share, part by part, each a list of comparable strings.
 * The language switchers are left out of the links, since each side names the other.
 * @param {string} text
 * @param {PairFiles} files
 * @returns {Map<string, string[]>}
 */
function signature(text, files) {
  /** @type {string[]} */
  const headings = []
  /** @type {string[]} */
  const codeBlocks = []
  /** @type {string[]} */
  const lists = []
  /** @type {string[]} */
  const tables = []
  /** @type {string[]} */
  const codeCells = []
  /** @type {string[]} */
  const links = []
  /** @type {string[]} */
  const comments = []
  /** @type {{ info: string, body: string[] } | undefined} */
  let fence
  /** @type {{ kind: string, items: number } | undefined} */
  let list
  /** @type {{ rows: number, columns: number } | undefined} */
  let table
  const close = () => {
    if (list !== undefined) lists.push(`${list.kind} of ${list.items}`)
    if (table !== undefined) tables.push(`${table.rows} rows of ${table.columns}`)
    list = undefined
    table = undefined
  }
  for (const line of text.split('\n')) {
    if (fence !== undefined) {
      if (line.startsWith('```')) {
        codeBlocks.push(`${fence.info}\n${fence.body.join('\n')}`)
        fence = undefined
      } else fence.body.push(line)
      continue
    }
    if (line.startsWith('```')) {
      close()
      fence = { info: line.slice(3).trim(), body: [] }
      continue
    }
    const heading = /^(#{1,6})\s/.exec(line)
    if (heading) {
      close()
      headings.push(heading[1] ?? '')
    }
    const item = /^([-*]|\d+\.)\s/.exec(line)
    if (item) {
      const kind = /\d/.test(item[1] ?? '') ? 'numbered list' : 'list'
      if (list?.kind !== kind) {
        close()
        list = { kind, items: 0 }
      }
      list.items += 1
    } else if (line.trim() === '') {
      if (list !== undefined) close()
    }
    if (line.startsWith('|')) {
      const cells = line.slice(1, line.trimEnd().endsWith('|') ? -1 : undefined).split('|').map(cell => cell.trim())
      table ??= { rows: 0, columns: cells.length }
      table.rows += 1
      const row = table.rows
      cells.forEach((cell, column) => {
        if (/^`[^`]*`$/.test(cell)) codeCells.push(`row ${row}, column ${column + 1}: ${cell}`)
      })
    } else if (table !== undefined) close()
    for (const match of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] ?? ''
      if (target !== basename(files.english) && target !== basename(files.chinese)) links.push(target)
    }
    for (const match of line.matchAll(/<!--(.*?)-->/g)) comments.push((match[1] ?? '').trim())
  }
  close()
  // A translation may order a sentence's links as its language reads best.
  links.sort()
  return new Map([['headings', headings], ['code blocks', codeBlocks], ['lists', lists], ['tables', tables], ['code cells', codeCells], ['links', links], ['comments', comments]])
}

/**
 * A document's `<a id>` anchors.
 * @param {string} text
 */
function anchorsOf(text) {
  return [...text.matchAll(/<a\s+id="([^"]+)"/g)].map(match => match[1] ?? '')
}

/**
 * Where two lists first differ, in words; undefined when they are the same.
 * @param {string[]} a
 * @param {string[]} b
 */
function firstDifference(a, b) {
  const at = a.findIndex((value, i) => value !== b[i])
  if (at === -1 && a.length === b.length) return undefined
  const i = at === -1 ? a.length : at
  const show = (/** @type {string | undefined} */ value) => (value === undefined ? 'nothing' : JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}...` : value))
  return `item ${i + 1} is ${show(a[i])} in English, ${show(b[i])} in Chinese (${a.length} and ${b.length} in all)`
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2)
  const stems = pairStems(REPO)
  if (args[0] === '--write') {
    const named = args.slice(1).map(file => file.replace(/\.(?:zh\.md|i18n\.yaml|md)$/, ''))
    if (named.length === 0) {
      process.stderr.write('verify-translation-pairing: --write needs the pairs you confirmed, for example --write README.md\n')
      process.exit(2)
    }
    for (const stem of named) {
      if (!stems.includes(stem) && !existsSync(join(REPO, pairFiles(stem).chinese))) {
        process.stderr.write(`verify-translation-pairing: no pair ${stem}; the pairs: ${stems.join(', ')}\n`)
        process.exit(2)
      }
      writeRecord(REPO, stem)
      process.stdout.write(`verify-translation-pairing: recorded ${pairFiles(stem).record}\n`)
    }
    process.exit(0)
  }
  const list = args[0] === '--list'
  let failed = 0
  for (const stem of stems) {
    const findings = checkPair(REPO, stem)
    failed += findings.length === 0 ? 0 : 1
    if (list) process.stdout.write(`${stem}: ${findings.length === 0 ? 'ok' : findings.some(f => f.includes('missing')) ? 'missing' : 'out of step'}\n`)
    else for (const finding of findings) process.stdout.write(`${finding}\n`)
  }
  if (!list) process.stdout.write(`verify-translation-pairing: ${stems.length - failed} of ${stems.length} pair${stems.length === 1 ? '' : 's'} in step\n`)
  process.exit(list || failed === 0 ? 0 : 1)
}
