import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['__test__/**/*.spec.ts'],
    // Each plugin test drives real DSH Agents through several model steps (~0.3 s each).
    testTimeout: 30_000,
    // The native addon and DSH's code runtime (worker threads) are safest in child processes.
    pool: 'forks',
  },
})
