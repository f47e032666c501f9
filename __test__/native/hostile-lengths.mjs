// Hostile lengths through every export, run by hostile.spec.ts in a child process: before the
// bounds, one of these calls aborted the process, which would take vitest down with it. Prints
// one JSON line per case, `{case, error}` or `{case, value}`, and exits 0 when every call
// returned or threw (a crash exits otherwise).
// @ts-nocheck: nearly every call passes what the types forbid, on purpose.
import { ToolIndex, readCatalog, selectionFromEvents, selectionFromPayload } from '../../index.js'

const MAX_TOOLS = 100_000
const index = ToolIndex.fromJson(JSON.stringify([{ name: 'get_weather', description: 'weather' }, { name: 'other', description: 'weather too' }]))
const search = (exclude) => index.search('weather', 5, { exclude })

/** An array of `length` with nothing in it: no element exists, the length alone is huge. */
const sparse = (length) => {
  const array = []
  array.length = length
  return array
}
const throwingEntry = ['get_weather']
Object.defineProperty(throwingEntry, 1, { get() { throw new Error('entry getter threw') }, enumerable: true })

// Longer than every text bound (256 Mi code units); asked for its length, never copied.
const huge = 'x'.repeat(2 ** 28)

const cases = {
  'exclude: sparse, length 2**32-1': () => search(sparse(2 ** 32 - 1)),
  'exclude: sparse, length 2**31': () => search(sparse(2 ** 31)),
  'exclude: MAX_TOOLS + 1 names': () => search(Array.from({ length: MAX_TOOLS + 1 }, (_, i) => `x${i}`)),
  'exclude: MAX_TOOLS names': () => search([...Array.from({ length: MAX_TOOLS - 1 }, (_, i) => `x${i}`), 'get_weather']).map((hit) => hit.name),
  'exclude: a hole': () => search(['get_weather', , 'other']), // eslint-disable-line no-sparse-arrays
  'exclude: array-like object with a huge length': () => search({ length: 2 ** 32 - 1 }),
  'exclude: Proxy of an array': () => search(new Proxy(['get_weather'], {})),
  'exclude: getter that throws': () => index.search('weather', 5, { get exclude() { throw new Error('exclude getter threw') } }),
  'exclude: entry getter that throws': () => search(throwingEntry),
  'exclude: a number': () => search(7),
  'exclude: a number entry': () => search([7]),
  'exclude: a huge name': () => search([huge]),
  'exclude: a name of 1026 bytes': () => search(['é'.repeat(513)]),
  'options: a number': () => index.search('weather', 5, 5),
  'options: Proxy whose traps throw': () => index.search('weather', 5, new Proxy({}, { get() { throw new Error('trap threw') } })),
  'search: a huge query': () => index.search(huge, 5),
  'search: a query of 8193 code units': () => index.search('q'.repeat(8193), 5),
  'search: a number query': () => index.search(42, 5),
  'explain: a huge query': () => index.explain(huge, 'get_weather'),
  'explain: a huge name': () => index.explain('weather', huge),
  'explain: a symbol name': () => index.explain('weather', Symbol('x')),
  'searchText: a huge name': () => index.searchText(huge),
  'searchText: a name of 1026 bytes': () => index.searchText('é'.repeat(513)),
  'fromJson: a huge catalog': () => ToolIndex.fromJson(huge),
  'readCatalog: a huge catalog': () => readCatalog(huge),
  'readCatalog: a number': () => readCatalog(42),
  'selectionFromEvents: huge events': () => selectionFromEvents(huge),
  'selectionFromPayload: a huge payload': () => selectionFromPayload(huge),
  'selectionFromPayload: null': () => selectionFromPayload(null),
}

for (const [name, call] of Object.entries(cases)) {
  let line
  try {
    line = { case: name, value: call() }
  } catch (error) {
    line = { case: name, error: error instanceof Error ? error.message : String(error) }
  }
  process.stdout.write(`${JSON.stringify(line)}\n`)
}
