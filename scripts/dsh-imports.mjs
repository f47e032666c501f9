#!/usr/bin/env node
// The `dsh-imports` gate of `pnpm lint`: shipped code (plugin/, bin/) takes values from DeepSeek
// Harness's packages only by names that every release from 0.1.0-rc.8 to 0.2.x exports. A named
// import of a name one release stopped exporting fails the whole ES module there, as
// `installSettingsSection` (gone in 0.1.2) and `CallId` (renamed by 0.1.3) once did; what changed
// is reached through plugin/host/dsh/ instead, by what the running host offers. Type-only imports
// are erased from the build and free. Prints each import it refuses, `file:line: why`; exits 1 if any.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
/** The folders whose code ships in the package. */
const SHIPPED = ['plugin', 'bin']
const SCOPE = '@deepseek-ai/'

/**
 * The value imports allowed, per package, each with where it is seen exported at both ends of the
 * range and between. zDSH is zsagi1368/deepseek-harness-zDSH (0.1.7-rc.2 at 1dd6c6a3 and a18d8a99),
 * Kinetick is kinetick-labs/KinetickHarness (0.2.1-alpha.1 at 7523ee09 and 2fc60a6c, `kh-*` = `dsh-*`),
 * rc.8 the installed packages.
 */
const STABLE = {
  '@deepseek-ai/schemastery': {
    default: 'the Schema static: rc.8 resolves 3.18.1-3.18.4; zDSH vendor/schemastery@1dd6c6a3 is 3.18.4, Kinetick vendor/schemastery@2fc60a6c 3.18.5-alpha.1',
  },
  '@deepseek-ai/dsh-tools': {
    RUN_CODE_NAME: 'rc.8 lib/index.js; zDSH packages/core/tools/src/index.ts@1dd6c6a3 (from ptc.ts); Kinetick packages/core/tools/src/index.ts@7523ee09',
    renderToolsSdk: 'rc.8 lib/index.js; zDSH core/tools/src/index.ts@1dd6c6a3 (from ts-types.ts); Kinetick core/tools/src/index.ts@7523ee09',
    renderToolsSdkPy: 'rc.8 lib/index.js; zDSH core/tools/src/index.ts@1dd6c6a3 (from py-types.ts); Kinetick core/tools/src/index.ts@7523ee09',
    jsonSchemaToTs: 'rc.8 lib/index.js; zDSH core/tools/src/index.ts@1dd6c6a3 (from ts-types.ts); Kinetick core/tools/src/index.ts@7523ee09',
    defineTool: 'rc.8 lib/index.js; zDSH core/tools/src/index.ts@1dd6c6a3 and schema.ts@a18d8a99; Kinetick core/tools/src/index.ts@7523ee09',
  },
  '@deepseek-ai/dsh-llm': {
    createUserMessage: 'rc.8 lib/index.js; zDSH packages/llm/llm/src/message.ts@a18d8a99; Kinetick packages/llm/llm/src/message.ts@7523ee09',
  },
  '@deepseek-ai/dsh-session': {
    KNOWN_SESSION_EVENT_TYPES: 'rc.8 lib/index.js; zDSH packages/core/session/src/known-event-types.ts@1dd6c6a3; Kinetick known-event-types.ts@1bd3ae45',
  },
}

/** @returns {string[]} the refusals, `file:line: why` */
function refusals(root = REPO) {
  return SHIPPED.flatMap(folder => sourceFiles(join(root, folder))).flatMap(file => refusalsIn(file, root))
}

/**
 * @param {string} folder
 * @returns {string[]}
 */
function sourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path)
    return /\.(ts|tsx|js|mjs|cjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

/**
 * @param {string} file
 * @param {string} root
 * @returns {string[]}
 */
function refusalsIn(file, root) {
  const text = readFileSync(file, 'utf8')
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : undefined)
  /** @type {string[]} */
  const found = []
  /**
   * @param {ts.Node} node
   * @param {string} why
   */
  const refuse = (node, why) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
    found.push(`${relative(root, file)}:${line}: ${why}`)
  }
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) checkDeclaration(node, refuse)
    else if (ts.isImportEqualsDeclaration(node) && !node.isTypeOnly && ts.isExternalModuleReference(node.moduleReference)) checkDynamic(node, node.moduleReference.expression, refuse)
    else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) checkDynamic(node, node.arguments[0], refuse)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/**
 * @param {ts.ImportDeclaration | ts.ExportDeclaration} node
 * @param {(node: ts.Node, why: string) => void} refuse
 */
function checkDeclaration(node, refuse) {
  const from = node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : ''
  if (!from.startsWith(SCOPE)) return
  const stable = /** @type {Record<string, Record<string, string>>} */ (STABLE)[from] ?? {}
  /** @param {string} name */
  const check = (name) => {
    if (!Object.hasOwn(stable, name)) refuse(node, `${name === 'default' ? 'the default export' : name} of ${from} is imported as a value, and is not among the names every DSH from 0.1.0-rc.8 to 0.2.x exports (scripts/dsh-imports.mjs); import it as a type, or reach it through plugin/host/dsh/`)
  }
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return
    if (node.exportClause === undefined || !ts.isNamedExports(node.exportClause)) return refuse(node, `export * from ${from} re-exports whatever the installed release has; name the stable values`)
    for (const element of node.exportClause.elements) if (!element.isTypeOnly) check((element.propertyName ?? element.name).text)
    return
  }
  const clause = node.importClause
  if (clause === undefined) return refuse(node, `a bare import of ${from} runs it for its effects; import its types with import type {} instead`)
  if (clause.isTypeOnly) return
  if (clause.name !== undefined) check('default')
  const bindings = clause.namedBindings
  if (bindings === undefined) return
  if (ts.isNamespaceImport(bindings)) return refuse(node, `import * as ${bindings.name.text} from ${from} takes every name the installed release has; name the stable values`)
  for (const element of bindings.elements) if (!element.isTypeOnly) check((element.propertyName ?? element.name).text)
}

/**
 * @param {ts.Node} node
 * @param {ts.Node | undefined} specifier
 * @param {(node: ts.Node, why: string) => void} refuse
 */
function checkDynamic(node, specifier, refuse) {
  if (specifier === undefined || !ts.isStringLiteralLike(specifier) || !specifier.text.startsWith(SCOPE)) return
  refuse(node, `a dynamic import or require of ${specifier.text} cannot be checked name by name; import the stable names statically`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const found = refusals()
  for (const line of found) process.stdout.write(`${line}\n`)
  process.stdout.write(found.length === 0
    ? `dsh-imports: every value import from ${SCOPE}* in ${SHIPPED.join('/, ')}/ is a name stable from DSH 0.1.0-rc.8 to 0.2.x\n`
    : `dsh-imports: ${found.length} value import(s) outside the stable names\n`)
  process.exit(found.length === 0 ? 0 : 1)
}
