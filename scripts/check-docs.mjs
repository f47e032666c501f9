#!/usr/bin/env node
// The `docs` gate of `pnpm lint`: the documentation cites only what the repository holds. For
// every document (each README in the tree, README.zh.md, CONTRIBUTING.md and docs/*.md):
// - every relative link resolves from the document's own folder, to a file or folder that
//   exists, and a `#fragment` to a heading or an `<a id>` of the document it points at;
// - every file a document names in code spans (`plugin/contract.ts`, `node/args.rs`,
//   `selection-record.ts`), and every Markdown file it names in its prose (`DESIGN.md`), is a file
//   or folder of the repository: a path from the root or from the document's folder, or the end of
//   one (`node/args.rs` is `src/node/args.rs`). A document that names files kept elsewhere (an
//   upstream package's, a script's output the repository does not keep) lists them in a comment,
//   `<!-- not in this repository (why): name, name -->`, for whoever edits it next;
// - every value of a ranking parameter a document quotes is the one `Params::default` gives it in
//   src/index/params.rs, or, for the plugin's search rules (`WEAK_MATCH_FLOOR`, `LEADER_SHARE`),
//   the one their module exports. A document quotes one as its name in a code span and the value
//   in parentheses, `` `contextual_candidates` (100) `` (a per-field parameter's values separated
//   by commas); a number written straight after the name (`` `gloss_weight` 0.5 ``) is a finding
//   too, so that every quote is in the form the gate checks;
// and the package's version is the one version everywhere a version of this package is written.
//
//   node scripts/check-docs.mjs     exits 1, printing each finding as `file:line: what`
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** Folders that hold no source: dependencies, build output, the git store. */
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules', 'target', 'dist', 'artifacts'])
/** File endings a code span must have to be read as a file name. */
const FILE_ENDINGS = /\.(?:ts|tsx|js|mjs|cjs|rs|md|json|jsonl|py|sh|ya?ml|toml|css|bin|txt)$/
/** Where the ranking parameters and their shipped values are written. */
const PARAMS_FILE = 'src/index/params.rs'
/** @typedef {{ file: string, values: number[] | undefined }} Shipped a parameter's shipped value (a list for a per-field one; undefined when not a number) and the file that sets it */

/** The plugin's modules whose exported numbers (`export const WEAK_MATCH_FLOOR = 0.55`) are search rules a document may quote. */
const RULE_FILES = ['plugin/search/answer.ts', 'plugin/search/leaders.ts']
/** A parameter's name in a code span (`Params::` before it or not), and what follows it on its line or the next. */
const PARAMETER_QUOTE = /`(?:Params::)?([A-Za-z][A-Za-z0-9_]*)`(?:(?:[ \t]+|[ \t]*\n[ \t]*)(?:\(([^)]*)\)|(-?\d[\d_]*(?:\.\d+)?)))?/g
/** A number or a list of them, as a quote or `Params::default` writes it. */
const NUMBER_LIST = /^\[?\s*-?\d[\d_]*(?:\.\d+)?(?:\s*,\s*-?\d[\d_]*(?:\.\d+)?)*\s*\]?$/

/** Code spans that stand for something other than a file of this repository. */
const NOT_A_REPOSITORY_FILE = [
  /[\s<>$~*{}()|=,'"]/, // a command, a placeholder, a home directory, a pattern
  /^(?:https?:)?\/\//, // a URL
  /^(?:dist|artifacts|target)(?:\/|$)/, // build output, made by `pnpm run build` and the release
  /^@/, // a package path (`@anionex/dsh-tool-search-model/model.bin`), resolved in node_modules
  /^\.\.?\//, // a module specifier as code writes it (`../../index.js`), relative to its importer
  /^\.[a-z.]+$/, // a file ending (`.ts`, `.zh.md`)
]

/**
 * The documents the gate reads, relative to `root`.
 * @param {string} root
 */
export function documents(root) {
  return repositoryFiles(root).filter(file => /(^|\/)README(\.zh)?\.md$/.test(file) || file === 'CONTRIBUTING.md' || /^docs\/[^/]+\.md$/.test(file))
}

/**
 * Every file under `root` outside the skipped folders, relative to it, with `/` separators.
 * @param {string} root
 * @returns {string[]}
 */
export function repositoryFiles(root) {
  /** @type {string[]} */
  const files = []
  const walk = (/** @type {string} */ dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(join(dir, entry.name))
      } else if (entry.isFile()) {
        files.push(relative(root, join(dir, entry.name)).split(sep).join('/'))
      }
    }
  }
  walk(root)
  return files.sort()
}

/**
 * What is wrong with the documents under `root`.
 * @param {string} root - the repository.
 * @param {string[]} [docs] - the documents to read (default: {@link documents}).
 * @returns {string[]} one finding per problem, `file:line: what`.
 */
export function checkDocs(root, docs = documents(root)) {
  const files = repositoryFiles(root)
  const known = new Set(files)
  const folders = new Set(files.flatMap(file => file.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))))
  const exists = (/** @type {string} */ path) => known.has(path) || folders.has(path)
  const endsOne = (/** @type {string} */ path) => files.some(file => file.endsWith(`/${path}`)) || [...folders].some(folder => folder.endsWith(`/${path}`))
  /** @type {Map<string, Set<string>>} */
  const anchorsOf = new Map()
  const anchors = (/** @type {string} */ doc) => {
    let found = anchorsOf.get(doc)
    if (found === undefined) {
      found = markdownAnchors(readFileSync(join(root, doc), 'utf8'))
      anchorsOf.set(doc, found)
    }
    return found
  }
  const parameters = rankingParameters(root)
  /** @type {string[]} */
  const findings = []
  if (parameters?.size === 0) findings.push(`${PARAMS_FILE}: no value read from \`Params::default\`, so no quoted parameter can be checked`)
  for (const doc of docs) {
    const folder = dirname(doc) === '.' ? '' : dirname(doc)
    const text = readFileSync(join(root, doc), 'utf8')
    const lines = text.split('\n')
    const elsewhere = new Set([...text.matchAll(/<!--\s*not in this repository(?:\s*\([^)]*\))?:\s*([^>]*?)\s*-->/g)].flatMap(match => (match[1] ?? '').split(',').map(name => name.trim().replace(/\/$/, ''))))
    const cited = (/** @type {string} */ name) => {
      if (elsewhere.has(name) || NOT_A_REPOSITORY_FILE.some(pattern => pattern.test(name))) return true
      const inFolder = folder === '' ? name : normalize(`${folder}/${name}`)
      return exists(name) || (inFolder !== undefined && exists(inFolder)) || endsOne(name)
    }
    let fenced = false
    /** The document with its fenced blocks blanked: where parameter quotes are read. */
    const outsideCode = lines.map(() => '')
    lines.forEach((line, at) => {
      const where = `${doc}:${at + 1}`
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
      if (fenced) return
      outsideCode[at] = line
      for (const target of linkTargets(line)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
        const [path = '', fragment] = target.split('#')
        const resolved = path === '' ? doc : normalize(folder === '' ? path : `${folder}/${path}`)
        if (resolved === undefined || !exists(resolved.replace(/\/$/, ''))) {
          findings.push(`${where}: the link ${target} points at ${resolved ?? path}, which is not in the repository`)
        } else if (fragment !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(decodeURIComponent(fragment))) {
          findings.push(`${where}: the link ${target}: ${resolved} has no heading or anchor #${fragment}`)
        }
      }
      for (const span of codeSpans(line)) {
        const name = span.replace(/[/:]+$/, '').replace(/#.*$/, '')
        if (!FILE_ENDINGS.test(name) && !span.endsWith('/')) continue
        if (!cited(name)) findings.push(`${where}: \`${span}\` names a file that is not in the repository`)
      }
      for (const match of prose(line).matchAll(/(?<![\w./-])((?:[\w-]+\/)*[\w-]+\.md)\b/g)) {
        const name = match[1] ?? ''
        if (!cited(name)) findings.push(`${where}: ${name} is not in the repository`)
      }
    })
    if (parameters !== undefined) findings.push(...parameterFindings(outsideCode.join('\n'), parameters).map(({ at, what }) => `${doc}:${at}: ${what}`))
  }
  return [...findings, ...versionFindings(root)]
}

/**
 * The ranking parameters' shipped values by name, as `Params::default` in src/index/params.rs
 * writes them (a list for a per-field parameter; `undefined` for a value that is not a number),
 * and the numbers the plugin's search-rule modules export; `undefined` when the repository has no
 * params.rs.
 * @param {string} root
 * @returns {Map<string, Shipped> | undefined}
 */
export function rankingParameters(root) {
  const file = join(root, PARAMS_FILE)
  if (!existsSync(file)) return undefined
  const body = /impl Default for Params \{.*?\bParams \{\n(.*?)\n\s*\}/s.exec(readFileSync(file, 'utf8'))?.[1] ?? ''
  /** @type {Map<string, Shipped>} */
  const parameters = new Map([...body.matchAll(/^\s*([a-z][a-z0-9_]*): (.+?),?\s*$/gm)].map(([, name = '', value = '']) => [name, { file: PARAMS_FILE, values: numbers(value) }]))
  for (const rules of RULE_FILES.filter(path => existsSync(join(root, path)))) {
    for (const [, name = '', value = ''] of readFileSync(join(root, rules), 'utf8').matchAll(/^export const ([A-Z][A-Z0-9_]*) = (-?\d[\d_]*(?:\.\d+)?)$/gm)) parameters.set(name, { file: rules, values: numbers(value) })
  }
  return parameters
}

/** The numbers of a value or a quote (`100`, `0.25`, `[3.0, 1.0]`, `3, 1`); undefined when it is not one. */
function numbers(/** @type {string} */ text) {
  return NUMBER_LIST.test(text.trim()) ? text.replace(/[[\]_\s]/g, '').split(',').map(Number) : undefined
}

/**
 * What is wrong with a document's parameter quotes: a value that is not the shipped one, a
 * parenthesis that holds more than the value, a number written after the name without one.
 * @param {string} text - the document, its fenced blocks blanked.
 * @param {Map<string, Shipped>} parameters
 * @returns {{ at: number, what: string }[]} each finding, with the line its quote starts on.
 */
function parameterFindings(text, parameters) {
  /** @type {{ at: number, what: string }[]} */
  const findings = []
  for (const match of text.matchAll(PARAMETER_QUOTE)) {
    const [written, name = '', inside, bare] = match
    if ((inside === undefined && bare === undefined) || !parameters.has(name)) continue
    const { file, values: shipped } = /** @type {Shipped} */ (parameters.get(name))
    const quoted = inside === undefined ? undefined : numbers(inside)
    const quote = written.replace(/\s+/g, ' ')
    /** @type {string | undefined} */
    let what
    if (inside === undefined) {
      what = `write a parameter's value in parentheses after its name, \`${name}\` (${bare}), the form this check compares with ${file}`
    } else if (quoted === undefined) {
      if (/^\s*-?\d/.test(inside)) what = 'the parentheses after a parameter\'s name hold its value alone'
    } else if (shipped === undefined) {
      what = `${file} gives \`${name}\` a value that is not a number`
    } else if (quoted.length !== shipped.length || quoted.some((value, i) => value !== shipped[i])) {
      what = `${file} gives \`${name}\` ${shipped.join(', ')}`
    }
    if (what !== undefined) findings.push({ at: text.slice(0, match.index).split('\n').length, what: `${quote}: ${what}` })
  }
  return findings
}

/** The targets of the Markdown links and images on one line, as written. */
function linkTargets(/** @type {string} */ line) {
  return [...withoutCode(line).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(match => match[1] ?? '')
}

/** The contents of the code spans on one line. */
function codeSpans(/** @type {string} */ line) {
  return [...line.matchAll(/`([^`]+)`/g)].map(match => match[1] ?? '')
}

function withoutCode(/** @type {string} */ line) {
  return line.replace(/`[^`]*`/g, '')
}

/** A line without its code spans, link targets, URLs and HTML comments: the words a reader reads. */
function prose(/** @type {string} */ line) {
  return withoutCode(line).replace(/<!--.*?-->/g, '').replace(/\]\([^)]*\)/g, ']').replace(/https?:\/\/\S+/g, '')
}

/** `a/./b/../c` as `a/c`; undefined for a path that leaves the repository. */
function normalize(/** @type {string} */ path) {
  const parts = []
  for (const part of path.split('/')) {
    if (part === '..') {
      if (parts.length === 0) return undefined
      parts.pop()
    } else if (part !== '.' && part !== '') {
      parts.push(part)
    }
  }
  return parts.join('/') + (path.endsWith('/') ? '/' : '')
}

/**
 * The fragments a Markdown document answers to: its headings, as GitHub makes their ids
 * (lowercase; letters, digits, `-`, `_` and spaces kept, spaces as `-`; a repeated id gets `-1`,
 * `-2`, ...), and its `<a id="...">` anchors.
 * @param {string} text
 */
export function markdownAnchors(text) {
  const ids = new Set()
  const seen = new Map()
  let fenced = false
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    if (fenced) continue
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) ids.add(match[1])
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (heading === null) continue
    const base = (heading[1] ?? '').replace(/<[^>]*>/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '').replace(/ /g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    ids.add(count === 0 ? base : `${base}-${count}`)
  }
  return ids
}

/**
 * Where this package's version is written other than package.json, and differs: the crate, the
 * platform and model packages, and the pins of them in package.json.
 * @param {string} root
 */
function versionFindings(root) {
  const read = (/** @type {string} */ file) => readFileSync(join(root, file), 'utf8')
  const manifest = JSON.parse(read('package.json'))
  const version = manifest.version
  /** @type {string[]} */
  const findings = []
  const crate = /^\[package\][^[]*?^version = "([^"]+)"/ms.exec(read('Cargo.toml'))?.[1]
  if (crate !== version) findings.push(`Cargo.toml: the crate's version is ${crate}, the package's ${version}`)
  const platforms = existsSync(join(root, 'npm')) ? readdirSync(join(root, 'npm')).map(dir => `npm/${dir}/package.json`) : []
  const packages = ['model/package.json', ...platforms]
  for (const file of packages.filter(file => existsSync(join(root, file)) && statSync(join(root, file)).isFile())) {
    const other = JSON.parse(read(file))
    if (other.version !== version) findings.push(`${file}: version ${other.version}, the package's ${version}`)
    const pinned = manifest.optionalDependencies?.[other.name]
    if (pinned !== undefined && pinned !== version) findings.push(`package.json: optionalDependencies pins ${other.name} at ${pinned}, the package is ${version}`)
  }
  return findings
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const docs = documents(REPO)
  const findings = checkDocs(REPO, docs)
  for (const finding of findings) process.stdout.write(`${finding}\n`)
  process.stdout.write(`check-docs: ${findings.length === 0 ? 'every link, cited file and quoted parameter' : `${findings.length} finding${findings.length === 1 ? '' : 's'}`} in ${docs.length} documents${findings.length === 0 ? ' resolves, and the version is one' : ''}\n`)
  process.exit(findings.length === 0 ? 0 : 1)
}
