/**
 * The native module with every `ToolIndex` build observed (`fromJson` and `fromJsonAsync`, which
 * the plugin uses), for a test that mocks it. A
 * `vi.mock` factory runs before the file's imports, so it reaches this module by a dynamic import:
 *
 *   vi.mock('../../index.js', async (importOriginal) => {
 *     const { observeIndexBuilds } = await import('../support/observed-native.ts')
 *     return observeIndexBuilds(await importOriginal(), (json, index) => { ... })
 *   })
 */

type Native = typeof import('../../index.js')
type ToolIndex = ReturnType<Native['ToolIndex']['fromJson']>

/**
 * `native` whose `ToolIndex.fromJson` and `fromJsonAsync` build the real index and hand each
 * catalog and index to `built`; with `forced`, every index is built with those options instead
 * of the caller's.
 */
export function observeIndexBuilds(
  native: Native,
  built: (json: string, index: ToolIndex) => void,
  forced?: Parameters<Native['ToolIndex']['fromJson']>[1],
): Native {
  const fromJson: Native['ToolIndex']['fromJson'] = (json, options) => {
    const index = native.ToolIndex.fromJson(json, forced ?? options)
    built(json, index)
    return index
  }
  const fromJsonAsync: Native['ToolIndex']['fromJsonAsync'] = async (json, options) => {
    const index = await native.ToolIndex.fromJsonAsync(json, forced ?? options)
    built(json, index)
    return index
  }
  // The prototype stays the real one: the plugin checks the addon's methods on it before use.
  const ToolIndex = { fromJson, fromJsonAsync, prototype: native.ToolIndex.prototype }
  return { ...native, ToolIndex: ToolIndex as unknown as Native['ToolIndex'] }
}
