// Deterministic stand-in text for what a session reads: tool results, the user's messages and
// the model's own prose. Every word of WORDS is one o200k_base token, with or without a leading
// space, and a line break is one more, so a text of `words` words is `words + lines` tokens:
// the benchmark can size a result without a tokenizer here (this file also runs inside dsh,
// where none is installed), and it checks the sizes it gets with one afterwards.
//
// The words are plain English with the verbs and nouns tool descriptions are made of left out
// (open, list, page, file, search, ...), so that a prefetch reading a user's message, or a
// search, never matches the filler instead of the task.

const WORDS = [
  'the', 'of', 'and', 'to', 'in', 'is', 'that', 'for', 'it', 'as', 'with', 'was', 'on', 'be', 'by',
  'at', 'this', 'from', 'or', 'have', 'an', 'are', 'which', 'one', 'you', 'had', 'not', 'but', 'what',
  'all', 'were', 'when', 'we', 'there', 'can', 'more', 'if', 'no', 'out', 'so', 'said', 'each', 'she',
  'do', 'how', 'their', 'will', 'up', 'other', 'about', 'many', 'then', 'them', 'these', 'some', 'her',
  'would', 'like', 'him', 'into', 'has', 'two', 'go', 'way', 'could', 'people', 'than', 'first', 'been',
  'who', 'its', 'now', 'long', 'down', 'day', 'did', 'come', 'may', 'over', 'only', 'little', 'know',
  'live', 'me', 'back', 'most', 'very', 'after', 'thing', 'our', 'just', 'good', 'man', 'think', 'great',
  'where', 'through', 'much', 'before', 'right', 'too', 'mean', 'old', 'any', 'same', 'boy', 'came',
  'also', 'around', 'three', 'small', 'does', 'another', 'well', 'large', 'must', 'big', 'even', 'such',
  'because', 'here', 'why', 'went', 'men', 'land', 'different', 'us', 'kind', 'again', 'off', 'air',
  'away', 'animal', 'mother', 'still', 'should', 'world', 'high', 'every', 'near', 'own', 'below',
  'plant', 'last', 'father', 'tree', 'never', 'earth', 'eye', 'thought', 'under', 'left', 'few',
  'while', 'along', 'might', 'something', 'hard', 'life', 'always', 'those', 'both',
  'got', 'often', 'important', 'until', 'children', 'side', 'feet', 'mile', 'night', 'walk', 'white',
  'sea', 'grow', 'river', 'four', 'carry', 'once', 'hear', 'without', 'later', 'miss',
  'eat', 'far', 'real', 'almost', 'above', 'girl', 'sometimes', 'young', 'soon',
  'being', 'family',
]

/** Words per line: a line break every this many words. */
export const WORDS_PER_LINE = 20

/**
 * `words` filler words, chosen from `seed` alone: the same seed and length give the same text on
 * every machine. Lowercase, single spaces, a line break every {@link WORDS_PER_LINE} words.
 * @param {string} seed
 * @param {number} words
 * @returns {string}
 */
export function fillerText(seed, words) {
  const next = generator(seed)
  const lines = []
  for (let done = 0; done < words; done += WORDS_PER_LINE) {
    const count = Math.min(WORDS_PER_LINE, words - done)
    lines.push(Array.from({ length: count }, () => WORDS[next() % WORDS.length]).join(' '))
  }
  return lines.join('\n')
}

/**
 * The o200k_base tokens of `fillerText(seed, words)`, by construction (checked by the benchmark's tests).
 * @param {number} words
 */
export function fillerTokens(words) {
  return words + Math.max(0, Math.ceil(words / WORDS_PER_LINE) - 1)
}

/**
 * A small deterministic generator (FNV-1a of the seed, then xorshift32): no platform randomness.
 * @param {string} seed
 */
function generator(seed) {
  let state = 2166136261
  for (const char of seed) state = Math.imul(state ^ (char.codePointAt(0) ?? 0), 16777619) >>> 0
  if (state === 0) state = 1
  return () => {
    state ^= state << 13
    state >>>= 0
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    return state
  }
}
