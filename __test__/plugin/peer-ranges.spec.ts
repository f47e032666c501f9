/**
 * The package's peer ranges admit every DSH release line from 0.1.0-rc.8 to 0.2.x, judged by the
 * real `semver` package two ways: as DSH 0.1.7+ gates a plugin (each `@deepseek-ai/dsh*` peer,
 * `semver.satisfies(runtime, range, { includePrerelease: true })`, the row disabled on a
 * mismatch: zsagi1368/deepseek-harness-zDSH packages/boot/app-boot/src/plugin-compatibility.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68;
 * kinetick-labs/KinetickHarness packages/boot/app-boot/src/plugin-compatibility.ts@7523ee098993547b71ab71f724d658e9365388db),
 * and as pnpm checks peers by default (no prereleases unless a branch names the version's tuple).
 */

import { readFile } from 'node:fs/promises'
import { satisfies } from 'semver'
import { describe, expect, it } from 'vitest'

const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { peerDependencies: Record<string, string> }
const dshPeers = Object.entries(pkg.peerDependencies).filter(([name]) => name === '@deepseek-ai/dsh' || name.startsWith('@deepseek-ai/dsh-'))

/** Released DSH versions, one or more per line (docs/dsh-versions.md says where each is known from). */
const RELEASED = ['0.1.0-rc.8', '0.1.1-rc.2', '0.1.2-alpha.1', '0.1.2-rc.1', '0.1.5-rc.2', '0.1.6-alpha.2', '0.1.7-rc.2', '0.2.0-rc.2', '0.2.1-alpha.2']
/** Releases without a prerelease tag, which both rules admit in a plain range. */
const PLAIN = ['0.1.7', '0.2.5']
/** Outside the range: the next minor line's prereleases, and what came before rc.8's line. */
const REFUSED = ['0.3.0-alpha.1', '0.0.9']

describe('the @deepseek-ai/dsh* peer ranges', () => {
  it('are the DSH peers the plugin needs, each with the one range', () => {
    expect(dshPeers.map(([name]) => name)).toEqual(['@deepseek-ai/dsh-agent', '@deepseek-ai/dsh-llm', '@deepseek-ai/dsh-session', '@deepseek-ai/dsh-settings', '@deepseek-ai/dsh-system-prompt', '@deepseek-ai/dsh-tools'])
    expect(new Set(dshPeers.map(([, range]) => range)).size).toBe(1)
  })

  it.each(dshPeers)('%s: DSH\'s gate (prereleases included) admits every released line and refuses 0.3 and 0.0', (_name, range) => {
    expect(RELEASED.filter(version => satisfies(version, range, { includePrerelease: true }))).toEqual(RELEASED)
    expect(PLAIN.filter(version => satisfies(version, range, { includePrerelease: true }))).toEqual(PLAIN)
    expect(REFUSED.filter(version => satisfies(version, range, { includePrerelease: true }))).toEqual([])
  })

  it.each(dshPeers)('%s: pnpm\'s default rules admit all nine too, since each version tuple has its prerelease branch', (_name, range) => {
    expect(RELEASED.filter(version => satisfies(version, range))).toEqual(RELEASED)
    expect(PLAIN.filter(version => satisfies(version, range))).toEqual(PLAIN)
    expect(REFUSED.filter(version => satisfies(version, range))).toEqual([])
    // A tuple without a branch of its own: a later 0.2 prerelease only DSH's gate admits.
    expect([satisfies('0.2.2-alpha.1', range, { includePrerelease: true }), satisfies('0.2.2-alpha.1', range)]).toEqual([true, false])
  })
})

describe('the @deepseek-ai/cordis peer range (not gated by DSH; pnpm warns on a mismatch)', () => {
  const range = pkg.peerDependencies['@deepseek-ai/cordis'] ?? ''
  // rc.8's packages accept ^4.0.1 (installed dsh-settings package.json), 0.1.5-rc.2's launcher
  // asks ^4.0.2 (its package.json on npm), 0.1.7 ships 4.0.4 (zDSH
  // vendor/cordis/package.json@a18d8a996c0e6a0f28f0d65d21966ed46039515e), the 0.2.1 fork
  // 4.0.5-alpha.1 (Kinetick vendor/cordis/package.json@7523ee098993547b71ab71f724d658e9365388db).
  const shipped = ['4.0.1', '4.0.2', '4.0.4', '4.0.5-alpha.1']

  it('admits every cordis the releases ship, under both rules, and nothing outside 4.x', () => {
    expect(shipped.filter(version => satisfies(version, range, { includePrerelease: true }))).toEqual(shipped)
    expect(shipped.filter(version => satisfies(version, range))).toEqual(shipped)
    expect(['4.0.0', '5.0.0', '5.0.0-alpha.1'].filter(version => satisfies(version, range, { includePrerelease: true }))).toEqual([])
  })
})
