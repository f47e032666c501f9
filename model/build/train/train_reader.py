#!/usr/bin/env python3
"""Trains the query reader (model/encoder-query.bin): the encoder that reads every query, English
as typed and Chinese as the glossary reads it, starting from the shipped encoder
(model/encoder.bin), and writes the model directory that `encoder.py --model-dir DIR --query`
exports.

    python3 model/build/train/data.py                          # the pairs (no torch)
    python3 model/build/train/train_reader.py --out DIR        # about fifteen minutes on two cores
    python3 model/build/encoder.py --model-dir DIR --query     # model/encoder-query.bin

Why a reader of queries apart from the encoder of tools: a tool's description and a request are
different kinds of text, and one encoder that must place both learns each only so far. A Chinese
query's gloss is not English at all ("把 Airtable 里 Inventory 表的数据拉出来看看" reads "Airtable
lining Inventory exterior surface data to pull to come out to take a look at"), and a request of
several steps ("find the PR, then approve it") is one vector that its first step outweighs. This
encoder reads queries only. The tools keep the shipped encoder's vectors, fixed during the
training, so the tool vectors a search compares with and their cache are exactly as before; a
search still makes one pass of one encoder for its query.

The recipe (recipe-reader.json): each training query against every tool of its pool (all recorded
servers' tools at once for a written request, as the validation ranks them), a softmax at `scale`
over the cosines, the tools that serve it masked but the drawn one; English requests and written
requests, Chinese written requests, glosses and renderings, and English requests of two steps
joined from two training requests of one pool (`composed`). AdamW with warm-up and linear decay;
the word table and the lower layers frozen; seeded; CPU only. After each epoch, R@5 on the
validation requests of both languages (`split: val`, which never train); the best epoch is kept.
"""
import argparse
import hashlib
import json
import math
import os
import random
import sys
import tempfile
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, BUILD)
import encoder  # noqa: E402
import pinned  # noqa: E402
from minilm import MiniLM  # noqa: E402
from train import MAX_TOKENS, PAIRS, TOOLS, Learning, Texts, base_dir, embed, log  # noqa: E402

SHIPPED = os.path.join(os.path.dirname(BUILD), 'encoder.bin')


def shipped_model(cache, into):
    """The shipped encoder as a model directory (its weights as its bytes stand for them)."""
    with open(SHIPPED, 'rb') as f:
        _config, _vocab, weights = encoder.decode(f.read())
    source = base_dir(cache)
    for name in ('config.json', 'vocab.txt', 'tokenizer.json'):
        with open(os.path.join(source, name), 'rb') as src, open(os.path.join(into, name), 'wb') as dst:
            dst.write(src.read())
    pinned.write_tensors(os.path.join(into, 'model.safetensors'), weights)
    return MiniLM.load(into)


def tool_key(key):
    """A tool's key: a positive may name one of a tool's texts (a third field, its number)."""
    return key if key.count('\t') == 1 else key.rsplit('\t', 1)[0]


def catalog_of(pool):
    """The tools a query of `pool` is scored against: a written request's are every recorded
    server's, so that siblings on other servers compete as they do in the validation."""
    return 'mcp' if pool.startswith('mcp:') else pool


def composed(train, recipe, rng):
    """English requests of two steps: two training requests of one pool that serve no tool in
    common, joined as people join steps, serving both requests' tools. Only `split: train` pairs
    are joined, so no validation or held request enters one; one longer than `max_chars` is not
    kept (the training reads 128 tokens, and people write such requests short)."""
    spec = recipe['composed']
    by_pool = {}
    for p in train:
        if p['lang'] == 'en' and p['kind'] in ('written', 'request'):
            by_pool.setdefault(p['pool'], []).append(p)
    pools = [pool for pool, requests in by_pool.items() if len(requests) > 5]
    joined = []
    for _ in range(spec['count'] * 50):
        if len(joined) == spec['count']:
            break
        first, second = rng.sample(by_pool[rng.choice(pools)], 2)
        if set(first['positives']) & set(second['positives']):
            continue
        rest = second['query'].strip()
        text = first['query'].rstrip('.?! ') + rng.choice(spec['joiners']) + rest[:1].lower() + rest[1:]
        if len(text) <= spec['max_chars']:
            joined.append({**first, 'id': f"{first['id']}+{second['id']}", 'kind': 'composed', 'query': text,
                           'positives': first['positives'] + second['positives']})
    return joined


class Catalogs:
    """The shipped encoder's vectors of every tool, by catalog; fixed for the whole training."""

    def __init__(self, teacher, tools, tokens):
        self.keys = [k for k in tools if len(k.split('\t')) == 2]
        self.names = [tools[k]['name'] for k in self.keys]
        self.index = {k: i for i, k in enumerate(self.keys)}
        self.vectors = embed(teacher, [tools[k]['text'] for k in self.keys], tokens)
        columns = {}
        for i, k in enumerate(self.keys):
            columns.setdefault(catalog_of(tools[k]['pool']), []).append(i)
        self.columns = {c: torch.tensor(v) for c, v in columns.items()}

    def loss(self, query, pair, scale, rng):
        columns = self.columns[catalog_of(pair['pool'])]
        positives = [self.index[tool_key(k)] for k in pair['positives']]
        target = rng.choice(positives)
        serving = {self.names[i] for i in positives}
        masked = torch.tensor([self.names[c] in serving and c != target for c in columns.tolist()])
        logits = (scale * (self.vectors[columns] @ query)).masked_fill(masked, -1e4)
        return torch.nn.functional.cross_entropy(logits[None], (columns == target).nonzero()[0])


def validation(model, pairs, catalogs, tokens):
    """R@5 of `model`'s query vectors against the shipped tool vectors, per validation set and
    language."""
    scores = {}
    for source, lang in sorted({(p['source'], p['lang']) for p in pairs if p['split'] == 'val'}):
        requests = [p for p in pairs if p['split'] == 'val' and p['source'] == source and p['lang'] == lang]
        pool = requests[0]['pool']
        columns = [i for i, k in enumerate(catalogs.keys) if k.startswith(pool + '\t')]
        top = (embed(model, [p['query'] for p in requests], tokens) @ catalogs.vectors[columns].T).topk(5, dim=1).indices
        recall = []
        for p, row in zip(requests, top):
            found = {catalogs.keys[columns[i]] for i in row.tolist()}
            recall.append(sum(k in found for k in p['positives']) / len(p['positives']))
        scores[f'{source} ({lang})'] = round(sum(recall) / len(recall), 4)
    return scores


def training_queries(pairs, recipe, rng):
    """The training queries, before each epoch shuffles them: a language's pairs of its kinds (the
    English ones with the composed requests), then once more those of a kind drawn `repeat` times,
    language after language in the recipe's order."""
    train = []
    for lang, kinds in recipe['kinds'].items():
        queries = [p for p in pairs if p['split'] == 'train' and p['lang'] == lang and p['kind'] in kinds]
        if lang == 'en':
            queries += composed(queries, recipe, rng)
        train += queries + [p for p in queries for _ in range(recipe['repeat'].get(p['kind'], 1) - 1)]
    return train


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--out', required=True, help='the trained model directory to write')
    parser.add_argument('--recipe', default=os.path.join(HERE, 'recipe-reader.json'))
    parser.add_argument('--cache', default=os.path.join(os.path.expanduser('~'), '.cache', 'dsh-tool-search', 'model-build'))
    args = parser.parse_args()
    with open(args.recipe, encoding='utf-8') as f:
        recipe = json.load(f)
    random.seed(recipe['seed'])
    torch.manual_seed(recipe['seed'])
    torch.set_num_threads(recipe['threads'])
    started = time.time()
    with open(TOOLS, encoding='utf-8') as f:
        tools = {t['key']: t for t in map(json.loads, f)}
    with open(PAIRS, encoding='utf-8') as f:
        pairs = [json.loads(line) for line in f]
    with tempfile.TemporaryDirectory() as start:
        teacher = shipped_model(args.cache, start)
        tokens = Texts(start, MAX_TOKENS)
        # A query longer than the crate reads is never embedded by it: such pairs teach nothing.
        pairs = [p for p in pairs if p['lang'] in recipe['kinds'] and len(tokens.ids(p['query'])) < MAX_TOKENS]
        rng = random.Random(recipe['seed'])
        train = training_queries(pairs, recipe, rng)
        catalogs = Catalogs(teacher, tools, tokens)
        scores = validation(teacher, pairs, catalogs, tokens)
        log(f'train: {len(train)} queries; shipped encoder', scores)
        model = MiniLM.load(start)
        learn = Learning(model, recipe, math.ceil(len(train) / recipe['batch']) * recipe['epochs'])
        best = (sum(scores.values()) / len(scores), 0)
        history = [{'epoch': 0, 'validation': scores}]
        for epoch in range(1, recipe['epochs'] + 1):
            model.train()
            rng.shuffle(train)
            losses = []
            for start_at in range(0, len(train), recipe['batch']):
                batch = train[start_at: start_at + recipe['batch']]
                queries = model(*tokens.batch([p['query'] for p in batch]))
                losses.append(learn.step(sum(catalogs.loss(q, p, recipe['scale'], rng) for q, p in zip(queries, batch)) / len(batch)))
            scores = validation(model, pairs, catalogs, tokens)
            mean = sum(scores.values()) / len(scores)
            history.append({'epoch': epoch, 'loss': round(sum(losses) / len(losses), 4), 'validation': scores})
            log(f'epoch {epoch}: loss {sum(losses) / len(losses):.4f}', scores, 'mean', round(mean, 4))
            if mean > best[0]:
                best = (mean, epoch)
                model.save(args.out, start)
        if best[1] == 0:
            sys.exit('train_reader: no epoch read the validation requests better than the shipped encoder')
    with open(os.path.join(args.out, 'training.json'), 'w', encoding='utf-8') as f:
        # The tool vectors it was trained against are this encoder's: a retrained encoder.bin
        # needs this one trained again (__test__/native/model.spec.ts checks the pairing).
        with open(SHIPPED, 'rb') as shipped:
            against = hashlib.sha256(shipped.read()).hexdigest()
        json.dump({'recipe': recipe, 'trained_against': {'file': 'model/encoder.bin', 'sha256': against},
                   'pairs': len(train), 'kept_epoch': best[1], 'history': history,
                   'seconds': round(time.time() - started)}, f, indent=1)
    log(f'done in {time.time() - started:.0f} s; kept epoch {best[1]} (validation mean {best[0]:.4f})')


if __name__ == '__main__':
    main()
