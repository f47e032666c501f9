/**
 * The native core's load as a machine without its platform package gets it: the loader's result,
 * injected through `createHarness({ core })`, since the binary cannot be uninstalled from under
 * the test process.
 */

import { loadNative, type NativeLoad } from '../../plugin/host/native.ts'
import { platformKey } from '../../plugin/host/platform.ts'

/** The package that serves this machine, which the message must name. */
export const PLATFORM_PACKAGE = `@anionex/dsh-tool-search-${platformKey()}`

/** What `loadNative` returns where napi-rs's loader found no binary. */
export function missingCore(): Promise<NativeLoad> {
  const error = new Error('Cannot find native binding.')
  error.cause = new Error(`Cannot find module '${PLATFORM_PACKAGE}'`)
  return loadNative(() => Promise.reject(error))
}
