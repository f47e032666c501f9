// Retrieval quality guards on the BFCL dev set (scripts/data/bfcl): every tool found first by its
// exact name, and Recall@5 no lower than the seed plugin's published 0.899 (pnpm eval prints the
// full figures).
import { describe, expect, it } from 'vitest'
import { runEval } from '../../scripts/eval.mjs'

describe('ranking quality on the BFCL dev set', () => {
  const result = runEval()

  it('finds every one of the 1,437 tools first by its exact name', () => {
    expect(result.catalogTools).toBe(1437)
    expect(result.exactNameR1).toBe(1)
  })

  it('keeps Recall@5 at or above the seed ranking on all requests and on the held-back part', () => {
    expect(result.all.requests).toBe(1150)
    expect(result.all.r5).toBeGreaterThanOrEqual(0.899)
    expect(result.heldBack.r5).toBeGreaterThanOrEqual(0.899)
  })
})
