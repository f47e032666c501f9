// The documentation check (scripts/check-docs.mjs, the `docs` gate of pnpm lint): the repository's
// documents pass it, and a small tree of broken ones shows each kind of finding it makes, the
// quoted ranking parameters' included.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { checkDocs, documents, markdownAnchors, rankingParameters } from '../../scripts/check-docs.mjs'

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

  it('checks a quoted search rule of the plugin against the number its module exports', () => {
    const root = tree({
      'src/index/params.rs': 'impl Default for Params {\n    fn default() -> Self {\n        Params {\n            contextual_share: 1.0,\n        }\n    }\n}\n',
      'plugin/search/leaders.ts': '/** The share. */\nexport const LEADER_SHARE = 0.35\nconst HIDDEN = 2\n',
      'docs/a.md': '# A\nRight: `LEADER_SHARE` (0.35). Wrong: `LEADER_SHARE` (0.3). Not exported: `HIDDEN` (3).\n',
    })
    expect(rankingParameters(root)?.get('LEADER_SHARE')).toEqual({ file: 'plugin/search/leaders.ts', values: [0.35] })
    expect(checkDocs(root, ['docs/a.md'])).toEqual(['docs/a.md:2: `LEADER_SHARE` (0.3): plugin/search/leaders.ts gives `LEADER_SHARE` 0.35'])
  })

  it('checks every quoted ranking parameter against Params::default, and only quotes of one', () => {
    const params = [
      'pub struct Params {',
      '    /// Said in a comment: `contextual_candidates` (50) is not read here.',
      '    pub contextual_candidates: usize,',
      '}',
      'impl Default for Params {',
      '    fn default() -> Self {',
      '        Params {',
      '            weights: [3.0, 1.0, 1.5, 0.5],',
      '            contextual_share: 1.0,',
      '            contextual_candidates: 100,',
      '            contextual_floor: f64::INFINITY,',
      '        }',
      '    }',
      '}',
    ].join('\n')
    const root = tree({
      'src/index/params.rs': params,
      'docs/a.md': [
        '# A',
        'Right: `contextual_candidates` (100), `Params::contextual_share` (1), `weights` (3, 1, 1.5, 0.5), and across a',
        'line break `contextual_share`',
        '  (1.0).',
        'Wrong: `contextual_candidates` (50), `weights` (3, 1), `contextual_share`',
        '(0.5).',
        'Not quotes: `contextual_candidates` (the bound), `other_name` (7), "the 50 best", `contextual_share`, at 0.',
        'Unreadable: `contextual_floor` (0.25); loose: `contextual_candidates` (100 of them); bare: `contextual_share` 0.5.',
        '```',
        '`contextual_candidates` (50)',
        '```',
      ].join('\n'),
    })
    const shipped = (values: number[] | undefined) => ({ file: 'src/index/params.rs', values })
    expect(rankingParameters(root)).toEqual(new Map([['weights', shipped([3, 1, 1.5, 0.5])], ['contextual_share', shipped([1])], ['contextual_candidates', shipped([100])], ['contextual_floor', shipped(undefined)]]))
    expect(checkDocs(root, ['docs/a.md'])).toEqual([
      'docs/a.md:5: `contextual_candidates` (50): src/index/params.rs gives `contextual_candidates` 100',
      'docs/a.md:5: `weights` (3, 1): src/index/params.rs gives `weights` 3, 1, 1.5, 0.5',
      'docs/a.md:5: `contextual_share` (0.5): src/index/params.rs gives `contextual_share` 1',
      'docs/a.md:8: `contextual_floor` (0.25): src/index/params.rs gives `contextual_floor` a value that is not a number',
      "docs/a.md:8: `contextual_candidates` (100 of them): the parentheses after a parameter's name hold its value alone",
      "docs/a.md:8: `contextual_share` 0.5: write a parameter's value in parentheses after its name, `contextual_share` (0.5), the form this check compares with src/index/params.rs",
    ])
    expect(checkDocs(tree({ 'src/index/params.rs': 'pub struct Params {}\n' }), [])).toEqual([
      'src/index/params.rs: no value read from `Params::default`, so no quoted parameter can be checked',
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
