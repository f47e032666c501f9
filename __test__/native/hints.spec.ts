// The catalog hints through the addon: outline, match strength and nearest names,
// with their arguments bounded like every other export's.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ToolIndex } from '../../index.js'

const github = JSON.parse(readFileSync(new URL('../../catalogs/mcp/github.json', import.meta.url), 'utf8')) as { tools: { name: string; description: string; inputSchema: object }[] }
const catalog = [
  ...github.tools.map(tool => ({ name: `mcp__github__${tool.name}`, description: tool.description, parameters: tool.inputSchema })),
  { name: 'web_search', description: 'Search the web.' },
  { name: 'bash', description: 'Run a command.' },
]
const index = ToolIndex.fromJson(JSON.stringify(catalog))

describe('ToolIndex.outline', () => {
  it('groups the recorded GitHub server with words its names are about, and lists the rest', () => {
    const outline = index.outline({ exclude: ['bash'] })
    expect(outline.groups).toHaveLength(1)
    expect(outline.groups[0]).toMatchObject({ name: 'mcp__github', tools: github.tools.length })
    expect(outline.groups[0]!.words).toEqual(expect.arrayContaining(['pull', 'request']))
    expect(outline.ungrouped).toEqual(['web_search'])
    expect(index.outline().ungrouped).toEqual(['web_search', 'bash'])
  })
})

describe('ToolIndex.matchStrength', () => {
  it('is high for the words of a name, low for a word every tool of the group shares, 0 for no match', () => {
    expect(index.matchStrength('create a pull request', 'mcp__github__create_pull_request')).toBeGreaterThan(1)
    expect(index.matchStrength('github', 'mcp__github__create_pull_request')).toBeLessThan(0.5)
    expect(index.matchStrength('weather in Paris', 'mcp__github__create_pull_request')).toBe(0)
    expect(index.matchStrength('pull request', 'no_such_tool')).toBe(0)
  })
})

describe('ToolIndex.nearest', () => {
  it('finds names spelled like a misspelled query, leaving out the excluded ones', () => {
    const near = index.nearest('pul reqest', 3, { exclude: ['mcp__github__create_pull_request'] })
    expect(near).toHaveLength(3)
    expect(near.every(name => name.includes('pull_request'))).toBe(true)
    expect(near).not.toContain('mcp__github__create_pull_request')
  })

  it('refuses arguments past their bounds with the same errors as search', () => {
    expect(() => index.nearest('x'.repeat(5000), 3)).toThrow('query is 5000 characters long; the limit is 4096')
    expect(() => index.nearest('x', 1.5)).toThrow(/limit must be a whole number/)
    expect(() => index.matchStrength('x', 'n'.repeat(2000))).toThrow('tool name is at least 2000 bytes; the limit is 1024 bytes')
    expect(() => index.outline({ exclude: 'bash' as unknown as string[] })).toThrow('exclude must be an array of tool names, got a string')
  })
})
