// The addon's entry (the package's `./native` export): the native binding, which `binding.js`
// (napi-rs's generated loader) finds for this platform, with the semantic model package named as
// the default model of hybrid indexes when it is installed. It is an optional dependency, so a
// lexical-only install downloads nothing for it and simply ranks lexically.
import { createRequire } from 'node:module'
import { setModelPath } from './binding.js'

const MODEL_FILE = '@anionex/dsh-tool-search-model/model.bin'

/** The installed model file, or null when the model package is not installed. */
function installedModel() {
  try {
    return createRequire(import.meta.url).resolve(MODEL_FILE)
  } catch {
    return null
  }
}

setModelPath(installedModel())

export * from './binding.js'
