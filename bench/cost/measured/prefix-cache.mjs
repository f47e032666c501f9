// The part of each request of a session that DeepSeek's context cache serves: the longest
// prefix, in tokens, that the request shares with what any earlier request of the same session
// left in the cache, counted in whole cache units (DeepSeek's context-caching guide: "The cache
// system uses 64 tokens as a storage unit; content less than 64 tokens will not be cached", see
// docs/cost.md). An earlier request leaves its prompt and the reply the model generated after it
// (the guide persists a prefix "at the end position of the model output"), so a request that
// carries the previous reply as the conversation's next message finds it cached too. Everything
// after the shared prefix is billed as a cache miss.
//
// A request comes as its token sequence cut into segments (the system prompt, each tool, each
// message: see request-tokens.mjs), its reply as one more segment, as the next request carries
// it. Requests of a session share whole segments far more often than not, so what earlier
// requests left is kept in a trie of segments, and a new request walks it: whole segments while
// they match, then tokens inside the first segment that differs (a tool inserted among the
// offered tools keeps the tokens the two definitions start with).

/**
 * One request's prefix figures, in tokens.
 * @typedef {object} CachedPrefix
 * @property {number} input - the whole request
 * @property {number} shared - the longest prefix it shares with an earlier request
 * @property {number} cached - `shared` rounded down to whole cache units: billed as cache hits
 */

/**
 * @typedef {readonly number[]} Segment - token ids
 * @typedef {{children: Map<string, {segment: Segment, node: TrieNode}>}} TrieNode
 */

/**
 * The cached prefix of every request of one session, in the order they were sent.
 * @param {readonly {prompt: readonly Segment[], reply?: Segment}[]} requests - each request's
 *   token sequence in segments, and the reply it got as the next request would carry it.
 * @param {{unit: number}} cache - `unit`: tokens in one cache unit (a whole number from 1).
 * @returns {CachedPrefix[]}
 */
export function cachedPrefixes(requests, { unit }) {
  if (!Number.isInteger(unit) || unit < 1) throw new Error(`a cache unit is a whole number of tokens from 1, got ${unit}`)
  const keys = new SegmentKeys()
  /** @type {TrieNode} */
  const root = { children: new Map() }
  return requests.map(({ prompt, reply }) => {
    const input = prompt.reduce((sum, segment) => sum + segment.length, 0)
    let node = root
    let shared = 0
    let diverged = false
    // The reply is walked after the prompt only to leave it in the trie: a request's own reply
    // is not part of its input.
    for (const [i, segment] of [...prompt, ...reply === undefined ? [] : [reply]].entries()) {
      if (i === prompt.length) diverged = true
      const key = keys.of(segment)
      let child = node.children.get(key)
      if (child === undefined) {
        // The first segment no earlier request has here: its tokens up to the first difference
        // from any earlier request's segment at this point still count, and the rest of this
        // request becomes a new branch.
        if (!diverged) shared += Math.max(0, ...[...node.children.values()].map((other) => commonStart(other.segment, segment)))
        diverged = true
        child = { segment, node: { children: new Map() } }
        node.children.set(key, child)
      } else if (!diverged) {
        shared += segment.length
      }
      node = child.node
    }
    return { input, shared, cached: Math.floor(shared / unit) * unit }
  })
}

/** How many tokens two segments start with alike. @param {Segment} a @param {Segment} b */
function commonStart(a, b) {
  const length = Math.min(a.length, b.length)
  let i = 0
  while (i < length && a[i] === b[i]) i++
  return i
}

/**
 * A segment's identity by content: equal token sequences get the same key, whichever arrays hold
 * them. Tokenized text is memoized (request-tokens.mjs), so most segments are the same array
 * again and their key is looked up, not rebuilt.
 */
class SegmentKeys {
  /** @type {WeakMap<Segment, string>} */
  #known = new WeakMap()

  /** @param {Segment} segment */
  of(segment) {
    let key = this.#known.get(segment)
    if (key === undefined) {
      key = segment.join(',')
      this.#known.set(segment, key)
    }
    return key
  }
}
