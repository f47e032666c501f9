import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['__test__/**/*.spec.{ts,tsx}'],
    // Plugin tests drive real DSH Agents, and the Code Mode ones start DSH's worker-thread
    // runtime; a loaded two-core machine can take longer than vitest's 5 s default.
    testTimeout: 30_000,
    // The transformer's vector cache (see index.js) in a scratch directory, not the user's DSH
    // home; kept between runs, which only makes the second one sooner (the vectors are the same).
    env: { DSH_TOOL_SEARCH_CACHE: join(tmpdir(), 'dsh-tool-search-vitest-cache') },
  },
})
