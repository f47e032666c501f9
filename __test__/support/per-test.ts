/**
 * Harnesses and temporary folders that live for one test, closed and removed after it (passed or
 * failed) by an `afterEach` the call registers in the calling file.
 */

import { rm } from 'node:fs/promises'
import { afterEach } from 'vitest'
import { createHarness, tempDir, type Harness, type HarnessOptions } from './harness.ts'

export interface PerTest {
  /** A harness closed after the test. */
  harness(options?: HarnessOptions): Promise<Harness>
  /** A temporary folder removed after the test. */
  dir(): Promise<string>
  /** Close a harness before the test ends (a restart); it is not closed again. */
  close(harness: Harness): Promise<void>
}

export function perTest(): PerTest {
  const open: Harness[] = []
  const dirs: string[] = []
  afterEach(async () => {
    for (const harness of open.splice(0)) await harness.close()
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
  })
  return {
    async harness(options = {}) {
      const harness = await createHarness(options)
      open.push(harness)
      return harness
    },
    async dir() {
      const dir = await tempDir()
      dirs.push(dir)
      return dir
    },
    async close(harness) {
      open.splice(open.indexOf(harness), 1)
      await harness.close()
    },
  }
}
