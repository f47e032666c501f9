/**
 * A user's `tool-search:` section of the old `$DSH_HOME/settings.yaml`, carried into the plugin's
 * row on DSH 0.1.7 and later (settings generation 3).
 *
 * There, once every row has loaded, DSH renames the file to `settings.yaml.imported` and writes
 * each section into the row whose id is the section's name. No row is called `tool-search` (ours
 * is `dsh-tool-search`), so DSH drops our section with a warning and keeps it only in the renamed
 * file (zsagi1368/deepseek-harness-zDSH packages/settings/settings/src/index.ts@1dd6c6a308f1db1d57f6d117d673e73f00072b68,
 * `importLegacyDocument`). We read the section ourselves, under either name, and write it into our
 * row through the same service, once per profile.
 *
 * "Once" is a marker file per profile in the plugin's directory of DSH's cache
 * (`$DSH_HOME/cache/dsh-tool-search`, where the vector cache lives too). Should the marker be
 * lost, a row that already sets any of the section's fields is left as it is, so a later edit of
 * the row is never overwritten by the old file. Nothing here deletes or edits the old file.
 */

import { access, mkdir, readFile, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import { message } from '../report.ts'

/** The generation 3 settings service, as far as it is used here (zDSH settings/src/index.ts@1dd6c6a3). */
export interface FormsService {
  /** Turn the generated settings page of one plugin instance on or off; returns its disposer. */
  configure?(presentation: { auto?: boolean }, owner: unknown): () => void
  /** Merge values into the row `ns`'s volatile fields (written to the profile's patch). */
  update(ns: string, patch: object, expectedRevision?: number): Promise<void>
  /** Every served row: `user` is what the profile's patch sets for it. */
  describe?(): readonly { readonly ns: string; readonly user?: unknown }[]
}

/** The old section and the row it goes to. */
export interface LegacySection {
  /** The section's key in settings.yaml. */
  readonly name: string
  /** The row it is written into. */
  readonly rowId: string
  /** The section's fields the plugin takes, and why each other one is refused. */
  readonly accept: (section: Readonly<Record<string, unknown>>) => { values: Record<string, unknown>; refused: string[] }
}

/** The old document's names, the one DSH 0.1.7 renames it to last (it may rename it meanwhile). */
const LEGACY_FILES = ['settings.yaml', 'settings.yaml.imported']

/** What the home's profile service offers (zDSH packages/boot/app-boot/src/profile-context.ts@a18d8a996c0e6a0f28f0d65d21966ed46039515e). */
interface ProfileContext {
  readonly name?: string
  readonly home?: string
}

/**
 * Carry the old section into the row, unless it was carried before. Runs once the loader has
 * settled, as DSH's own import does: the service writes only to an active row.
 * @param alive - false once the service is gone.
 */
export async function carryLegacySection(ctx: Context, service: FormsService, legacy: LegacySection, alive: () => boolean): Promise<void> {
  const loader = ctx.get('loader') as { await?(): Promise<void> } | undefined
  await loader?.await?.()
  if (!alive()) return
  const profile = (ctx.get('profileContext') ?? {}) as ProfileContext
  const home = profile.home ?? (process.env.DSH_HOME || join(homedir(), '.dsh'))
  const marker = join(home, 'cache', 'dsh-tool-search', `settings-carried-${fileSafe(profile.name ?? 'default')}.json`)
  if (await exists(marker)) {
    ctx.logger.debug(`dsh-tool-search: the old ${legacy.name}: settings were carried over before (${marker})`)
    return
  }
  const found = await readLegacy(ctx, home, legacy.name)
  if (found === undefined) return
  const { file, section } = found
  const warn = (text: string): void => { ctx.logger.warn(`dsh-tool-search: ${text}`) }
  if (typeof section !== 'object' || section === null || Array.isArray(section)) {
    warn(`the ${legacy.name}: section of ${file} is not a mapping of settings, so it was not carried over; the file is left as it is`)
    return remember(ctx, marker, file, {})
  }
  const { values, refused } = legacy.accept(section as Record<string, unknown>)
  if (refused.length > 0) warn(`left out of the ${legacy.name}: settings carried from ${file} (the file keeps them): ${refused.join('; ')}`)
  const taken = Object.keys(values)
  const already = userFields(service, legacy.rowId).filter(key => taken.includes(key))
  if (already.length > 0) {
    warn(`the ${legacy.name}: section of ${file} was not carried over: the profile already sets ${already.join(', ')} for ${legacy.rowId}; the file keeps the old values`)
    return remember(ctx, marker, file, {})
  }
  if (taken.length === 0) return remember(ctx, marker, file, {})
  try {
    await service.update(legacy.rowId, values)
  } catch (error) {
    warn(`the ${legacy.name}: section of ${file} could not be carried into ${legacy.rowId} (${message(error)}); it is tried again at the next start`)
    return
  }
  ctx.logger.info(`dsh-tool-search: carried ${taken.join(', ')} from the ${legacy.name}: section of ${file} into the profile's ${legacy.rowId} row`)
  await remember(ctx, marker, file, values)
}

/** The section from the first old document that exists, or undefined when none does or it has no such section. */
async function readLegacy(ctx: Context, home: string, name: string): Promise<{ file: string; section: unknown } | undefined> {
  for (const base of LEGACY_FILES) {
    const file = join(home, base)
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue
      ctx.logger.warn(`dsh-tool-search: cannot read ${file} (${message(error)}), so its ${name}: settings were not carried over`)
      return undefined
    }
    let document: unknown
    try {
      // Loaded here only: the parser is needed once per profile, on DSH 0.1.7+, if ever.
      const { parse } = await import('yaml')
      document = parse(text)
    } catch (error) {
      ctx.logger.warn(`dsh-tool-search: ${file} is not valid YAML (${firstLine(message(error))}), so its ${name}: settings were not carried over; the file is left as it is`)
      return undefined
    }
    const section = typeof document === 'object' && document !== null ? (document as Record<string, unknown>)[name] : undefined
    return section === undefined ? undefined : { file, section }
  }
  return undefined
}

/** The fields the profile's patch already sets for the row, as the service describes it. */
function userFields(service: FormsService, rowId: string): string[] {
  const user = service.describe?.().find(row => row.ns === rowId)?.user
  return typeof user === 'object' && user !== null ? Object.keys(user) : []
}

async function remember(ctx: Context, marker: string, file: string, carried: Record<string, unknown>): Promise<void> {
  try {
    await mkdir(dirname(marker), { recursive: true })
    await writeFile(marker, `${JSON.stringify({ from: file, carried, at: new Date().toISOString() }, null, 2)}\n`)
  } catch (error) {
    ctx.logger.warn(`dsh-tool-search: cannot write ${marker} (${message(error)}); the old settings are looked at again at the next start`)
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file)
    return true
  } catch {
    return false
  }
}

/** A parser's message without the excerpt of the file it quotes. */
function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text
}

/** A profile name as one file name's part. */
function fileSafe(name: string): string {
  return name.replace(/[^\w.-]/g, '_')
}
