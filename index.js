// The addon's entry (the package's `./native` export): the native binding, which `binding.js`
// (napi-rs's generated loader) finds for this platform, with the semantic model package named as
// the default model of hybrid indexes when it is installed. It is an optional dependency, so a
// lexical-only install downloads nothing for it and simply ranks lexically. It also names where
// the transformer's tool vectors are kept between processes.
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { MODEL_PACKAGE, setModelPath, setVectorCache } from './binding.js'

/** The installed model file, or null when the model package is not installed. */
function installedModel() {
  try {
    return createRequire(import.meta.url).resolve(`${MODEL_PACKAGE}/model.bin`)
  } catch {
    return null
  }
}

/**
 * The vector cache's directory: `DSH_TOOL_SEARCH_CACHE` when it is set (empty for none), else
 * `cache/dsh-tool-search` in DSH's home (`DSH_HOME`, else `~/.dsh`), where DSH keeps its own.
 */
function vectorCacheDir(env = process.env) {
  const chosen = env.DSH_TOOL_SEARCH_CACHE
  if (chosen !== undefined) return chosen === '' ? null : chosen
  try {
    return join(env.DSH_HOME || join(homedir(), '.dsh'), 'cache', 'dsh-tool-search')
  } catch {
    return null
  }
}

setModelPath(installedModel())
try {
  setVectorCache(vectorCacheDir())
} catch {
  // A directory the core refuses (a path past its length bound) means no cache, not no plugin.
}

export * from './binding.js'
