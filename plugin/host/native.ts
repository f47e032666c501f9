/**
 * The one import site of the Rust core, and a guarded one. `../../index.js` is the addon's entry
 * at the package root (the package's `./native` export), two directories up both from
 * `plugin/host/`, which the tests run, and from the built `dist/host/`, which the packed package
 * ships.
 *
 * It throws while it is being imported when no binary loads (napi-rs's loader, `binding.js`, finds
 * none: the platform package is missing, built for another libc, corrupt, or from another version). A static import would take
 * this whole module graph down with it, and DSH would report only that the plugin "could not be
 * resolved". So the loader is imported here inside a `try`, once, and everything downstream reads
 * the outcome: the plugin steps aside and says why, the command line says why and exits 2.
 */

import type * as Core from '../../index.js'
import { MAX_NAME_BYTES } from '../contract.ts'
import { describeLoadFailure } from './platform.ts'

export type { CatalogOutline, NextMove, OutlineGroup, SearchDecision, SearchHit, SessionSelection } from '../../index.js'
export type ToolIndex = Core.ToolIndex

/** What the plugin and the command line call in the core. */
export type NativeCore = Pick<typeof Core, 'ToolIndex' | 'readCatalog' | 'selectionFromEvents' | 'selectionFromResult'>

/** The loaded module, before it is known to be a core this plugin can call. */
type Loaded = Partial<Record<keyof NativeCore, unknown>>

/** How loading the core went: the core, or why there is none, in words for the user. */
export type NativeLoad =
  | { readonly core: NativeCore; readonly error?: undefined }
  | { readonly core?: undefined; readonly error: string }

/**
 * Load the core without throwing.
 * @param importCore - the import to guard; tests pass one that fails the way a machine does.
 * @returns the core, or the message naming this machine's platform package and how to install it.
 */
export async function loadNative(importCore: () => Promise<Loaded> = () => import('../../index.js')): Promise<NativeLoad> {
  let loaded: Loaded
  try {
    loaded = await importCore()
  } catch (error) {
    return { error: describeLoadFailure(error) }
  }
  // A binary of another plugin version can load and still lack what this one calls.
  const missing = Object.entries(callables(loaded)).filter(([, value]) => typeof value !== 'function').map(([name]) => name)
  if (missing.length > 0) {
    return { error: describeLoadFailure(new Error(`the binary has no ${missing.join(', ')}: it belongs to another version of the plugin`)) }
  }
  return { core: loaded as NativeCore }
}

/** This process's load, made once, when the plugin or the command line is imported. */
export const native: NativeLoad = await loadNative()

/**
 * The core's functions for the modules that call them. Without a core they are stand-ins that
 * throw the load failure's message; the plugin never reaches them then, since it steps aside.
 */
export const { ToolIndex, readCatalog, selectionFromEvents, selectionFromResult }: NativeCore = native.core ?? standIns(native.error)

/**
 * Every function of the core the plugin or the command line calls, by name. `decideAsync` and
 * `strongHitsAsync` are the newest of `ToolIndex`'s methods: a binary that has them has the
 * others (`outline`, `nearest`, `searchAsync`, `explain` with its `form`); `fromJsonAsync` came
 * with `ready()` resolved off libuv's threads.
 */
function callables({ ToolIndex, readCatalog, selectionFromEvents, selectionFromResult }: Loaded): Record<string, unknown> {
  const index = ToolIndex as { fromJson?: unknown; fromJsonAsync?: unknown; prototype?: { decideAsync?: unknown; strongHitsAsync?: unknown } } | null | undefined
  return {
    'ToolIndex.fromJson': index?.fromJson,
    'ToolIndex.fromJsonAsync': index?.fromJsonAsync,
    readCatalog,
    selectionFromEvents,
    selectionFromResult,
    'ToolIndex.decideAsync': index?.prototype?.decideAsync,
    'ToolIndex.strongHitsAsync': index?.prototype?.strongHitsAsync,
  }
}

function standIns(message: string): NativeCore {
  const unavailable = (): never => { throw new Error(message) }
  return {
    ToolIndex: { fromJson: unavailable, fromJsonAsync: unavailable } as unknown as NativeCore['ToolIndex'],
    readCatalog: unavailable,
    selectionFromEvents: unavailable,
    selectionFromResult: unavailable,
  }
}

/**
 * Whether the core takes `name` where the plugin hands it tool names (an `exclude` entry): at most
 * MAX_NAME_BYTES of UTF-8. A longer name another plugin registers is indexed and returned like any
 * other, but it cannot be excluded.
 */
export function coreTakesName(name: string): boolean {
  return Buffer.byteLength(name) <= MAX_NAME_BYTES
}
