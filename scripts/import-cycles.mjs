#!/usr/bin/env node
// The `cycles` gate of `pnpm lint`: no import circle among the plugin's TypeScript files
// (plugin/) or the Rust core's files (src/). Prints each circle, one file and the line that
// imports the next per step, and exits 1 when there is one. docs/lint.md says how to break one.
//
//   node scripts/import-cycles.mjs            plugin/ and src/
//   node scripts/import-cycles.mjs <dir> ...  only the folders named (the lint probe's)
//
// A circle means two files that can only be understood, tested and changed together; the layers
// docs/ARCHITECTURE.md lists each import only from the layers before them, which a circle breaks.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** @typedef {{ to: string, line: number, text: string }} Edge */
/** @typedef {Map<string, Edge[]>} Graph  file (relative to the repository) to what it imports */

const asked = process.argv.slice(2)
const folders = asked.length === 0 ? ['plugin', 'src'] : asked
let circles = 0
for (const folder of folders) {
  const root = join(REPO, folder)
  if (!existsSync(root)) fail(`import-cycles: no folder ${folder}`)
  const files = listFiles(root)
  const typescript = files.filter(file => /\.tsx?$/.test(file))
  const rust = files.filter(file => file.endsWith('.rs'))
  /** @type {Graph} */
  const graph = new Map([...typescriptGraph(typescript), ...rustGraph(root, rust)])
  const found = cycles(graph)
  circles += found.length
  for (const cycle of found) process.stdout.write(`${describe(cycle, graph)}\n`)
  const kinds = [typescript.length > 0 ? `${typescript.length} TypeScript` : '', rust.length > 0 ? `${rust.length} Rust` : ''].filter(Boolean).join(' and ')
  process.stdout.write(`import-cycles: ${folder}/: ${found.length === 0 ? 'no circle' : `${found.length} circle${found.length === 1 ? '' : 's'}`} among ${kinds} files\n`)
}
process.exit(circles === 0 ? 0 : 1)

/** Every file under `dir`, sorted, as paths relative to the repository. */
function listFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter(entry => entry.isFile())
    .map(entry => relative(REPO, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort()
}

// ---- TypeScript ---------------------------------------------------------------------------

/**
 * Each file's relative imports, `import type` and `export ... from` included: a circle through
 * types still ties two files together. TypeScript's own scanner reads them; imports that leave
 * the folder (the addon's `index.js`, packages) are not part of its graph.
 * @param {string[]} files
 * @returns {Graph}
 */
function typescriptGraph(files) {
  const known = new Set(files)
  /** @type {Graph} */
  const graph = new Map()
  for (const file of files) {
    const text = readFileSync(join(REPO, file), 'utf8')
    const lines = text.split('\n')
    /** @type {Edge[]} */
    const edges = []
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      if (!imported.fileName.startsWith('.')) continue
      const to = relative(REPO, resolve(REPO, dirname(file), imported.fileName)).split(sep).join('/')
      if (!known.has(to)) continue
      const line = text.slice(0, imported.pos).split('\n').length
      edges.push({ to, line, text: lines[line - 1]?.trim() ?? '' })
    }
    graph.set(file, edges)
  }
  return graph
}

// ---- Rust ---------------------------------------------------------------------------------

/**
 * Each file's paths into other files of the crate: `use` declarations (groups expanded) and paths
 * written in code (`crate::a::b`, `super::x`, `self::x`, and a child module's name), each resolved
 * to the file of the deepest module it names. Two kinds of path do not count:
 * - a path to the file's own module or one of its ancestors (`use super::Item` in a child, the
 *   crate root's re-exports): a module is declared by its parent, lives inside it and sees its
 *   private items, so that tie is Rust's, not a layering choice;
 * - code under `#[cfg(test)]`, and the files only such code declares: tests may reach into any
 *   module, and the layering is about what ships.
 * Every `.rs` file is the module its path names (Rust's default layout: `src/a/b.rs` and
 * `src/a/b/mod.rs` are `a::b`); `#[path]` and inline modules outside tests would break that, so
 * they are refused rather than misread.
 * @param {string} root - the crate's `src/` folder.
 * @param {string[]} files
 * @returns {Graph}
 */
function rustGraph(root, files) {
  const base = relative(REPO, root).split(sep).join('/')
  /** @type {Map<string, string>} module path (`a::b`, '' for the root) to its file */
  const modules = new Map()
  for (const file of files) modules.set(modulePath(base, file), file)
  const texts = new Map(files.map(file => [file, readFileSync(join(REPO, file), 'utf8')]))
  const sources = new Map(files.map(file => [file, stripTests(texts.get(file) ?? '')]))
  // Files a `#[cfg(test)] mod x;` declares, and everything below them.
  const testOnly = [...sources].flatMap(([file, source]) => source.testModules.map(name => join2(modulePath(base, file), name)))
  const shipped = files.filter(file => !testOnly.some(module => within(modulePath(base, file), module)))
  /** @type {Graph} */
  const graph = new Map()
  for (const file of shipped) {
    const own = modulePath(base, file)
    const { code } = /** @type {{ code: string }} */ (sources.get(file))
    checkLayout(code, file)
    const lines = (texts.get(file) ?? '').split('\n')
    /** @type {Edge[]} */
    const edges = []
    const add = (/** @type {string[]} */ path, /** @type {number} */ at) => {
      const target = resolveModule(modules, own, path)
      if (target === undefined || within(own, target)) return
      const to = /** @type {string} */ (modules.get(target))
      if (edges.some(edge => edge.to === to)) return
      const line = code.slice(0, at).split('\n').length
      edges.push({ to, line, text: (lines[line - 1] ?? '').trim() })
    }
    for (const { paths, at } of useDeclarations(code)) for (const path of paths) add(path, at)
    for (const match of code.matchAll(/(?<![\w:])([a-z_][a-z0-9_]*)((?:::[A-Za-z_][A-Za-z0-9_]*)+)/g)) {
      add([match[1] ?? '', ...(match[2] ?? '').split('::').slice(1)], match.index)
    }
    graph.set(file, edges)
  }
  return graph
}

/** `src/a/b.rs` and `src/a/b/mod.rs` to `a::b`; `src/lib.rs` to ''. */
function modulePath(base, file) {
  const path = file.slice(base.length + 1).replace(/\.rs$/, '').replace(/(^|\/)(mod|lib|main)$/, '')
  return path.split('/').filter(Boolean).join('::')
}

function join2(module, name) {
  return module === '' ? name : `${module}::${name}`
}

/** Whether `module` is `outer` or inside it. */
function within(module, outer) {
  return outer === '' || module === outer || module.startsWith(`${outer}::`)
}

/**
 * The module a path from module `own` lands in: its leading `crate`, `super` and `self` read as
 * Rust reads them (a bare first segment is a child module of `own`, else a crate outside this
 * one), then as many segments as name modules. Undefined for a path outside the crate.
 * @param {Map<string, string>} modules
 * @param {string} own
 * @param {string[]} path
 */
function resolveModule(modules, own, path) {
  let at = own === '' ? [] : own.split('::')
  let rest = path
  if (rest[0] === 'crate') {
    at = []
    rest = rest.slice(1)
  } else if (rest[0] === 'self' || rest[0] === 'super') {
    while (rest[0] === 'self' || rest[0] === 'super') {
      if (rest[0] === 'super') at = at.slice(0, -1)
      rest = rest.slice(1)
    }
  } else if (!modules.has([...at, rest[0]].join('::'))) {
    return undefined
  }
  for (const segment of rest) {
    if (!modules.has([...at, segment].join('::'))) break
    at = [...at, segment]
  }
  return at.join('::')
}

/**
 * Every `use` declaration of `code`, its tree expanded into whole paths (`use a::{b, c::d}` is
 * `a::b` and `a::c::d`; `self` in a group is the group's own path).
 * @param {string} code - source with comments, strings and test code blanked.
 * @returns {{ paths: string[][], at: number }[]}
 */
function useDeclarations(code) {
  /** @type {{ paths: string[][], at: number }[]} */
  const found = []
  for (const match of code.matchAll(/\buse\s+([^;]*);/g)) {
    const tree = (match[1] ?? '').replace(/\s+/g, '')
    found.push({ paths: expand(tree, []), at: match.index })
  }
  return found
}

/** @returns {string[][]} */
function expand(tree, prefix) {
  const brace = tree.indexOf('{')
  if (brace === -1) {
    const path = tree.replace(/as\w+$/, '').split('::').filter(part => part !== '' && part !== '*')
    return [path.at(-1) === 'self' ? [...prefix, ...path.slice(0, -1)] : [...prefix, ...path]]
  }
  const head = [...prefix, ...tree.slice(0, brace).split('::').filter(Boolean)]
  return splitTopLevel(tree.slice(brace + 1, tree.lastIndexOf('}'))).flatMap(part => expand(part, head))
}

/** A group's members, split at the commas outside nested groups. */
function splitTopLevel(group) {
  const parts = []
  let depth = 0
  let start = 0
  for (let i = 0; i < group.length; i++) {
    if (group[i] === '{') depth += 1
    else if (group[i] === '}') depth -= 1
    else if (group[i] === ',' && depth === 0) {
      parts.push(group.slice(start, i))
      start = i + 1
    }
  }
  parts.push(group.slice(start))
  return parts.filter(part => part !== '')
}

/**
 * Rust source with comments and the contents of string and character literals blanked (line
 * breaks kept, so offsets keep their line), and every item under `#[cfg(test)]` or
 * `#[cfg(all(test, ...))]` blanked too; the names of the modules such items declare from files
 * (`mod tests;`) are returned beside it.
 * @param {string} text
 * @returns {{ code: string, testModules: string[] }}
 */
function stripTests(text) {
  const code = blankLiterals(text)
  const out = code.split('')
  const testModules = []
  for (const match of code.matchAll(/#\[cfg\((?:all\()?test\b[^\]]*\]/g)) {
    const start = match.index
    const end = itemEnd(code, start + match[0].length)
    const declared = /^\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;/.exec(code.slice(start + match[0].length, end + 1))
    if (declared) testModules.push(declared[1] ?? '')
    for (let i = start; i <= end; i++) if (out[i] !== '\n') out[i] = ' '
  }
  return { code: out.join(''), testModules }
}

/** Refuses what would make a file's paths resolve elsewhere than its own path says. */
function checkLayout(code, file) {
  if (/#\[path\b/.test(code)) fail(`import-cycles: ${file} uses #[path], which this check cannot follow`)
  const inline = /\bmod\s+(\w+)\s*\{/.exec(code)
  if (inline) fail(`import-cycles: ${file} declares an inline module ${inline[1]} outside tests, which this check cannot follow`)
}

/** Where the item starting at `from` ends: its first `;` outside braces, or its closing brace. */
function itemEnd(code, from) {
  let depth = 0
  for (let i = from; i < code.length; i++) {
    const c = code[i]
    if (c === '{') depth += 1
    else if (c === '}') {
      depth -= 1
      if (depth === 0) return i
    } else if (c === ';' && depth === 0) return i
  }
  return code.length - 1
}

/** Comments, and the contents of strings and character literals, as spaces. */
function blankLiterals(text) {
  const out = text.split('')
  const blank = (from, to) => {
    for (let i = from; i < to; i++) if (out[i] !== '\n') out[i] = ' '
  }
  let i = 0
  while (i < text.length) {
    const rest = text.slice(i, i + 3)
    if (rest.startsWith('//')) {
      const end = text.indexOf('\n', i)
      const stop = end === -1 ? text.length : end
      blank(i, stop)
      i = stop
    } else if (rest.startsWith('/*')) {
      let depth = 1
      let j = i + 2
      while (j < text.length && depth > 0) {
        if (text.startsWith('/*', j)) { depth += 1; j += 2 } else if (text.startsWith('*/', j)) { depth -= 1; j += 2 } else j += 1
      }
      blank(i, j)
      i = j
    } else if (/^b?r#*"/.test(rest) && (i === 0 || !/\w/.test(text[i - 1] ?? ''))) {
      const open = /^b?r(#*)"/.exec(text.slice(i, i + 260))
      const hashes = open?.[1] ?? ''
      const start = i + (open?.[0].length ?? 1)
      const end = text.indexOf(`"${hashes}`, start)
      const stop = end === -1 ? text.length : end + 1 + hashes.length
      blank(start, stop - 1 - hashes.length)
      i = stop
    } else if (text[i] === '"') {
      let j = i + 1
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1
      blank(i + 1, j)
      i = j + 1
    } else if (text[i] === '\'') {
      // A character literal ('x', '\n', '\u{1F600}'), not a lifetime ('a).
      const literal = /^'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'])'/u.exec(text.slice(i, i + 12))
      if (literal) {
        blank(i + 1, i + literal[0].length - 1)
        i += literal[0].length
      } else i += 1
    } else i += 1
  }
  return out.join('')
}

// ---- Circles ------------------------------------------------------------------------------

/**
 * The graph's circles: one per strongly connected component of more than one file (Tarjan's
 * algorithm, iterative), each given as a shortest circle through its first file.
 * @param {Graph} graph
 * @returns {string[][]}
 */
function cycles(graph) {
  /** @type {Map<string, number>} */
  const index = new Map()
  /** @type {Map<string, number>} */
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const components = []
  let next = 0
  for (const start of graph.keys()) {
    if (index.has(start)) continue
    /** @type {{ file: string, edge: number }[]} */
    const work = [{ file: start, edge: 0 }]
    index.set(start, next)
    low.set(start, next)
    next += 1
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const frame = /** @type {{ file: string, edge: number }} */ (work.at(-1))
      const edges = graph.get(frame.file) ?? []
      if (frame.edge < edges.length) {
        const to = /** @type {Edge} */ (edges[frame.edge]).to
        frame.edge += 1
        if (!index.has(to)) {
          index.set(to, next)
          low.set(to, next)
          next += 1
          stack.push(to)
          onStack.add(to)
          work.push({ file: to, edge: 0 })
        } else if (onStack.has(to)) {
          low.set(frame.file, Math.min(low.get(frame.file) ?? 0, index.get(to) ?? 0))
        }
        continue
      }
      work.pop()
      const parent = work.at(-1)
      if (parent !== undefined) low.set(parent.file, Math.min(low.get(parent.file) ?? 0, low.get(frame.file) ?? 0))
      if (low.get(frame.file) === index.get(frame.file)) {
        const component = []
        let member
        do {
          member = stack.pop()
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.file)
        if (component.length > 1) components.push(component.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
      }
    }
  }
  return components.map(component => shortestCircle(graph, new Set(component), component[0]))
}

/** The shortest path from `start` back to itself inside `members` (breadth first). */
function shortestCircle(graph, members, start) {
  const previous = new Map()
  const queue = [start]
  while (queue.length > 0) {
    const file = /** @type {string} */ (queue.shift())
    for (const { to } of graph.get(file) ?? []) {
      if (!members.has(to) || previous.has(to)) continue
      previous.set(to, file)
      if (to === start) {
        const path = [start]
        for (let at = previous.get(start); at !== start; at = previous.get(at)) path.unshift(at)
        return [start, ...path.slice(0, -1)]
      }
      queue.push(to)
    }
  }
  return [start]
}

/** A circle as its steps: each file, the line that imports the next, and that line's text. */
function describe(cycle, graph) {
  const steps = cycle.map((file, i) => {
    const to = cycle[(i + 1) % cycle.length]
    const edge = (graph.get(file) ?? []).find(candidate => candidate.to === to)
    return `  ${file}:${edge?.line ?? '?'} imports ${to}: ${edge?.text ?? ''}`
  })
  return `import circle: ${[...cycle, cycle[0]].join(' -> ')}\n${steps.join('\n')}`
}

function fail(message) {
  process.stderr.write(`${message}\n`)
  process.exit(2)
}
