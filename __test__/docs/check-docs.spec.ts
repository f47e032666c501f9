// The documentation check (scripts/check-docs.mjs, the `docs` gate of pnpm lint): the repository's
// documents pass it, and a small tree of broken ones shows each kind of finding it makes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { checkDocs, documents, markdownAnchors } from '../../scripts/check-docs.mjs'

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const trees: string[] = []
afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true })
})

/** A repository of the given files (path to text), with one version unless one is given. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'check-docs-'))
  trees.push(root)
  const all = { 'package.json': '{"name":"p","version":"1.0.0"}', 'Cargo.toml': '[package]\nname = "p"\nversion = "1.0.0"\n', ...files }
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

describe('check-docs', () => {
  it('passes the repository, and reads every README, CONTRIBUTING.md and docs/*.md in it', () => {
    expect(checkDocs(REPO)).toEqual([])
    const docs = documents(REPO)
    for (const doc of ['README.md', 'README.zh.md', 'CONTRIBUTING.md', 'docs/ARCHITECTURE.md', 'bench/data/bilingual/README.md', 'catalogs/mcp/README.md', 'model/README.md']) expect(docs).toContain(doc)
  })

  it('finds a link written from the wrong folder, a missing anchor, a missing file and an outside document', () => {
    const root = tree({
      'src/kept.rs': '',
      'docs/b.md': '# Kept heading\n\n<a id="kept-anchor"></a>\n',
      'docs/a.md': [
        '# A',
        '[from the root](docs/b.md), [fine](b.md#kept-heading), [anchor](b.md#kept-anchor), [gone](b.md#lost)',
        '`src/kept.rs`, `kept.rs`, `src/gone.rs`, `$HOME/settings.yaml`, `dist/built.js`, `upstream.py`',
        'As DESIGN.md says. <!-- not in this repository (an upstream file): upstream.py -->',
        '```sh',
        'cat `never/read.md` [link](nowhere.md)',
        '```',
      ].join('\n'),
    })
    expect(checkDocs(root, ['docs/a.md'])).toEqual([
      'docs/a.md:2: the link docs/b.md points at docs/docs/b.md, which is not in the repository',
      'docs/a.md:2: the link b.md#lost: docs/b.md has no heading or anchor #lost',
      'docs/a.md:3: `src/gone.rs` names a file that is not in the repository',
      'docs/a.md:4: DESIGN.md is not in the repository',
    ])
  })

  it('finds a version that is not the package one', () => {
    const root = tree({ 'Cargo.toml': '[package]\nname = "p"\nversion = "0.9.0"\n', 'model/package.json': '{"name":"p-model","version":"1.0.1"}' })
    expect(checkDocs(root, [])).toEqual([
      "Cargo.toml: the crate's version is 0.9.0, the package's 1.0.0",
      "model/package.json: version 1.0.1, the package's 1.0.0",
    ])
  })

  it('names headings as GitHub does, Chinese ones and repeated ones included', () => {
    expect([...markdownAnchors('# From a checkout\n## Query forms (`select:`)\n## 设置\n## 设置\n```\n# not a heading\n```\n')])
      .toEqual(['from-a-checkout', 'query-forms-select', '设置', '设置-1'])
  })
})
