// The semantic model file the addon's entry (index.js) names: resolved from the repository root
// the way index.js resolves it, so the benchmark can hash it and measure reading it.
import { createRequire } from 'node:module'
import { MODEL_PACKAGE } from '../../index.js'
import { repoPath } from './repo.mjs'

/** The model file hybrid indexes read, or null when the model package is not installed. */
export function modelFile() {
  try {
    return createRequire(repoPath('index.js')).resolve(`${MODEL_PACKAGE}/model.bin`)
  } catch {
    return null
  }
}
