#!/usr/bin/env python3
"""Averages two encoders fine-tuned from the same all-MiniLM-L6-v2 into the one the model package
ships, weight by weight (soup.json beside this file names both and their shares).

    git show <soup.json's commit>:model/encoder.bin > OLD                 # the encoder shipped before
    python3 model/build/train/train.py --out TRAINED                       # this recipe, today's pairs
    python3 model/build/train/soup.py --shipped OLD --trained TRAINED --out DIR
    python3 model/build/encoder.py --model-dir DIR                         # model/encoder.bin, its fixture

Why average rather than pick one: two trainings that start from the same weights and freeze the
same layers stay in one basin of the loss, so the mean of their weights is itself a working
encoder, and it tends to keep what each learned (Wortsman et al., "Model soups", 2022). Through
the ranking, the mean of the encoder shipped before and the one trained with the fourth round of
written requests found more validation requests than either (docs/model.md). The old encoder is
read from its shipped file, so nothing but committed bytes and a training that `train.py`
repeats is needed; its rounding to bytes is in its half of the mean.

Needs numpy only (no torch): the trained directory is read as safetensors.
"""
import argparse
import hashlib
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import encoder  # noqa: E402
import pinned  # noqa: E402

SPEC = os.path.join(HERE, 'soup.json')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--shipped', required=True, help="the encoder file of soup.json's commit")
    parser.add_argument('--trained', required=True, help='the model directory train.py wrote')
    parser.add_argument('--out', required=True, help='the model directory to write')
    args = parser.parse_args()
    with open(SPEC, encoding='utf-8') as f:
        spec = json.load(f)
    with open(args.shipped, 'rb') as f:
        data = f.read()
    if hashlib.sha256(data).hexdigest() != spec['shipped']['sha256']:
        sys.exit(f"soup: {args.shipped} is not the encoder of commit {spec['shipped']['commit']} (its sha256 differs from soup.json's)")
    _config, _vocab, shipped = encoder.decode(data)
    trained = pinned.tensors(os.path.join(args.trained, 'model.safetensors'))
    if set(shipped) != set(trained) or any(shipped[name].shape != trained[name].shape for name in trained):
        sys.exit('soup: the two encoders do not have the same weights; both must be all-MiniLM-L6-v2')
    a, b = spec['shares']['shipped'], spec['shares']['trained']
    mean = {name: (a * shipped[name] + b * trained[name]) / (a + b) for name in trained}
    os.makedirs(args.out, exist_ok=True)
    for name in ('config.json', 'vocab.txt', 'tokenizer.json'):
        shutil.copyfile(os.path.join(args.trained, name), os.path.join(args.out, name))
    pinned.write_tensors(os.path.join(args.out, 'model.safetensors'), mean)
    print(f'soup: wrote {args.out}, {len(mean)} weights averaged {a}:{b}')


if __name__ == '__main__':
    main()
