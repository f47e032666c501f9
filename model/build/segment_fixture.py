#!/usr/bin/env python3
"""Writes src/gloss/testdata/segment.json: runs of Chinese text and the words jieba splits each
into over the shipped glossary's dictionary, the golden test of src/gloss/segment.rs.

    pip install -r model/build/requirements.txt jieba==0.42.1
    python3 model/build/segment_fixture.py [--cache DIR]

jieba is run without its HMM (`cut(run, HMM=False)`), the method the crate follows, over a
dictionary of exactly the glossary's words with their jieba frequencies (a character jieba lacks
at frequency 1, as glossary.py keeps it), and with jieba's own total, so each word costs what it
costs in the glossary. The crate adds integer costs where jieba adds floats; the test says where
they part.

Runs: maximal runs of the characters jieba segments (U+4E00..U+9FD5) from real Chinese text: the
sentences of jieba's own tests (test/test.py in the pinned sdist), this repository's Chinese
requests (bench/data/bilingual), the Chinese tool descriptions of catalogs/mcp (HowToCook, Ant
Design) and the settings card's Chinese copy (plugin/client/locales.ts).
"""
import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import jieba

sys.path.insert(0, os.path.dirname(__file__))
import glossary  # noqa: E402
import pinned  # noqa: E402

assert jieba.__version__ == '0.42.1', jieba.__version__
ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / 'src/gloss/testdata/segment.json'
RUN = re.compile('[\u4e00-\u9fd5]+')


def texts(jieba_root):
    out = []
    for line in (Path(jieba_root) / 'jieba-0.42.1/test/test.py').read_text(encoding='utf-8').splitlines():
        match = re.match(r'\s*cuttest\("(.*)"\)\s*$', line)
        if match:
            out.append(match.group(1))
    for line in (ROOT / 'bench/data/bilingual/queries.jsonl').read_text(encoding='utf-8').splitlines():
        if line.strip():
            out.append(json.loads(line)['query'])
    for server in ('howtocook', 'antd'):
        catalog = json.loads((ROOT / f'catalogs/mcp/{server}.json').read_text(encoding='utf-8'))

        def strings(node):
            if isinstance(node, str):
                yield node
            elif isinstance(node, dict):
                for value in node.values():
                    yield from strings(value)
            elif isinstance(node, list):
                for value in node:
                    yield from strings(value)
        out += list(strings(catalog['tools']))
    out += re.findall(r"'([^'\n]*[\u4e00-\u9fd5][^'\n]*)'", (ROOT / 'plugin/client/locales.ts').read_text(encoding='utf-8'))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--cache', default=os.path.join(os.path.expanduser('~'), '.cache', 'dsh-tool-search', 'model-build'))
    args = parser.parse_args()
    os.makedirs(args.cache, exist_ok=True)
    with open(os.path.join(os.path.dirname(__file__), 'inputs.json'), encoding='utf-8') as f:
        spec = json.load(f)['glossary']
    words, total = glossary.words_from(args.cache, spec)
    with tempfile.NamedTemporaryFile('w', encoding='utf-8', suffix='.txt', delete=False) as f:
        for word, (frequency, _, _) in sorted(words.items()):
            f.write(f'{word} {frequency}\n')
        dictionary = f.name
    try:
        jieba.setLogLevel(60)
        tokenizer = jieba.Tokenizer(dictionary=dictionary)
        tokenizer.initialize()
        tokenizer.total = total
        runs = []
        for text in texts(pinned.fetch(spec['segmenter'], args.cache)):
            for run in RUN.findall(text):
                if run not in runs:
                    runs.append(run)
        rows = [(run, list(tokenizer.cut(run, HMM=False))) for run in runs]
    finally:
        os.unlink(dictionary)
    assert all(''.join(split) == run for run, split in rows)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    lines = [f'  {{"run": {json.dumps(run, ensure_ascii=False)}, "words": {json.dumps(split, ensure_ascii=False)}}}' for run, split in rows]
    OUT.write_text('[\n' + ',\n'.join(lines) + '\n]\n', encoding='utf-8')
    print(f'wrote {len(rows)} runs to {OUT.relative_to(ROOT)}')


if __name__ == '__main__':
    main()
