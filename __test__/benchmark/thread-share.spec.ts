// The event-loop benchmark's split of the JavaScript thread's busy time (bench/speed/event-loop.mjs):
// a sample is the plugin's when any frame of its stack is the built plugin's code, idle samples
// count for neither side.
import { describe, expect, it } from 'vitest'
import { PLUGIN_CODE, attribute } from '../../bench/speed/event-loop.mjs'

const frame = (functionName: string, url = '') => ({ functionName, url, scriptId: '0', lineNumber: 0, columnNumber: 0 })

describe('attribute', () => {
  it('counts a sample as the plugin\'s when the plugin is anywhere on its stack, and leaves idle out', () => {
    const profile = {
      startTime: 0,
      endTime: 100,
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 5, 6] },
        { id: 2, callFrame: frame('dispatch', 'file:///dsh/tools/index.js'), children: [3] },
        { id: 3, callFrame: frame('execute', `${PLUGIN_CODE}search/tool.js`), children: [4] },
        { id: 4, callFrame: frame('stringify', 'node:internal/json') },
        { id: 5, callFrame: frame('(idle)') },
        { id: 6, callFrame: frame('(garbage collector)') },
      ],
      samples: [4, 3, 2, 5, 6, 4],
      timeDeltas: [10, 20, 40, 1000, 5, 1],
    }
    expect(attribute(profile)).toEqual({ plugin: 31, rest: 45 })
  })
})
