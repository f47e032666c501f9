/**
 * The native module with every `ToolIndex.fromJson` observed, for a test that mocks it. A
 * `vi.mock` factory runs before the file's imports, so it reaches this module by a dynamic import:
 *
 *   vi.mock('../../index.js', async (importOriginal) => {
 *     const { observeIndexBuilds } = await import('../support/observed-native.ts')
 *     return observeIndexBuilds(await importOriginal(), (json, index) => { ... })
 *   })
 */

type Native = typeof import('../../index.js')
type ToolIndex = ReturnType<Native['ToolIndex']['fromJson']>

/** `native` whose `ToolIndex.fromJson` builds the real index and hands each catalog and index to `built`. */
export function observeIndexBuilds(native: Native, built: (json: string, index: ToolIndex) => void): Native {
  const fromJson: Native['ToolIndex']['fromJson'] = (json, options) => {
    const index = native.ToolIndex.fromJson(json, options)
    built(json, index)
    return index
  }
  return { ...native, ToolIndex: { fromJson } as unknown as Native['ToolIndex'] }
}
