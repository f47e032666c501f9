// Where the repository is, seen from the benchmark package: it measures the plugin built at the
// root (dist/, the native addon) and writes the root's docs/benchmark-results.json and
// docs/benchmark.md.
import { fileURLToPath } from 'node:url'

/**
 * Absolute path of a file given relative to the repository root.
 * @param {string} path
 */
export const repoPath = (path) => fileURLToPath(new URL(`../../${path}`, import.meta.url))
