import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['__test__/**/*.spec.{ts,tsx}'],
    // Plugin tests drive real DSH Agents, and the Code Mode ones start DSH's worker-thread
    // runtime; a loaded two-core machine can take longer than vitest's 5 s default.
    testTimeout: 30_000,
  },
})
