#!/usr/bin/env python3
"""Trains the word table (model/model.bin) from the untrained one build.py makes, on the pairs
the transformer trains on, and writes the shipped file.

    python3 model/build/build.py                          # the untrained table, into the build cache
    python3 model/build/train/train_table.py              # model/model.bin (about four minutes, CPU)
    python3 model/build/train/train_table.py --check      # trains again, compares, writes nothing

Why: the table's rows are potion-base-8M's, made for sentences in general. The ranking leans on
the table where the transformer does not read: it chooses the transformer's candidates, decides
with it whether a tool that shares no word with the query is a match at all, and is the whole
semantic stage for a message longer than the 128 tokens the transformer reads. Trained on the
same pairs, the table places a request near its tool as the transformer does.

The recipe (recipe-table.json): a text's vector is the unit sum of its terms' rows, exactly as
`src/semantic/vector.rs` adds them (the terms are the crate's, `examples/terms.rs`); each training
query against every tool of its pool (all recorded servers' tools at once for a written request),
a softmax at `scale` over the cosines, the other tools serving it masked; Adam over the rows,
and a pull of each row back toward its untrained value (`pull`), so that a word the pairs use
rarely keeps potion's meaning. After each epoch, R@5 of the table alone on the validation
requests (`split: val`, which never train); the best epoch is kept. Seeded, CPU only: the
same processor and torch build give the same file, another may differ in its last bits.
"""
import argparse
import hashlib
import json
import os
import random
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, BUILD)
import build  # noqa: E402
import modelfile  # noqa: E402
from train import PAIRS, TOOLS, log  # noqa: E402
from train_reader import catalog_of, tool_key  # noqa: E402


class Bags:
    """Texts as the row numbers of their terms, a term once per occurrence, for `embedding_bag`."""

    def __init__(self, analyzed, index):
        self.rows = [[index[term] for _, term in words if term in index] for words in analyzed]

    def known(self, i):
        return bool(self.rows[i])

    def vectors(self, table, which):
        lists = [self.rows[i] or [0] for i in which]
        flat = torch.tensor([r for rows in lists for r in rows])
        offsets = torch.tensor([0] + [len(rows) for rows in lists[:-1]]).cumsum(0)
        summed = torch.nn.functional.embedding_bag(flat, table, offsets, mode='sum')
        # A text without a known term has no vector: it matches nothing.
        known = torch.tensor([self.known(i) for i in which], dtype=table.dtype)[:, None]
        return torch.nn.functional.normalize(summed, dim=-1) * known


class Task:
    """The tools, the pairs and what each query is scored against."""

    def __init__(self, terms, tools, pairs, cache):
        self.tools = [t for t in tools if t['key'].count('\t') == 1]
        self.pairs = pairs
        self.key = {t['key']: i for i, t in enumerate(self.tools)}
        analyzed = build.analyze([t['text'] for t in self.tools] + [p['query'] for p in pairs], cache)
        index = {term: i for i, term in enumerate(terms)}
        self.tool_bags = Bags(analyzed[: len(self.tools)], index)
        self.query_bags = Bags(analyzed[len(self.tools):], index)
        self.columns = {}
        for i, t in enumerate(self.tools):
            self.columns.setdefault(catalog_of(t['pool']), []).append(i)
        self.columns = {c: torch.tensor(v) for c, v in self.columns.items()}

    def positives(self, pair):
        return [self.key[tool_key(k)] for k in pair['positives']]

    def loss(self, table, batch, scale, rng):
        tools = self.tool_bags.vectors(table, range(len(self.tools)))
        queries = self.query_bags.vectors(table, batch)
        total = 0
        for query, i in zip(queries, batch):
            columns = self.columns[catalog_of(self.pairs[i]['pool'])]
            positives = self.positives(self.pairs[i])
            target = rng.choice(positives)
            masked = torch.tensor([c in positives and c != target for c in columns.tolist()])
            logits = (scale * (tools[columns] @ query)).masked_fill(masked, -1e4)
            total = total + torch.nn.functional.cross_entropy(logits[None], (columns == target).nonzero()[0])
        return total / len(batch)

    @torch.no_grad()
    def validation(self, table):
        """R@5 of the table alone on the validation requests, per source."""
        tools = self.tool_bags.vectors(table, range(len(self.tools)))
        scores = {}
        for source in sorted({p['source'] for p in self.pairs if p['split'] == 'val'}):
            requests = [i for i, p in enumerate(self.pairs) if p['split'] == 'val' and p['source'] == source]
            columns = self.columns[catalog_of(self.pairs[requests[0]]['pool'])]
            top = (self.query_bags.vectors(table, requests) @ tools[columns].T).topk(5, dim=1).indices
            recall = []
            for i, row in zip(requests, top):
                found = set(columns[row].tolist())
                positives = self.positives(self.pairs[i])
                recall.append(sum(p in found for p in positives) / len(positives))
            scores[source] = round(sum(recall) / len(recall), 4)
        return scores


def train(recipe, base, cache):
    """The trained rows, and what the training recorded."""
    random.seed(recipe['seed'])
    torch.manual_seed(recipe['seed'])
    torch.set_num_threads(recipe['threads'])
    terms, rows = modelfile.decode(base)
    with open(TOOLS, encoding='utf-8') as f:
        tools = [json.loads(line) for line in f]
    with open(PAIRS, encoding='utf-8') as f:
        pairs = [json.loads(line) for line in f]
    task = Task(terms, tools, pairs, cache)
    train_ids = [i for i, p in enumerate(pairs) if p['split'] == 'train' and p['kind'] in recipe['kinds'] and task.query_bags.known(i)]
    untrained = torch.tensor(rows, dtype=torch.float32)
    # The pull is measured against a typical row's size, so it does not depend on potion's scale.
    typical = untrained.pow(2).sum(1).mean()
    table = torch.nn.Parameter(untrained.clone())
    optimizer = torch.optim.Adam([table], lr=recipe['lr'])
    rng = random.Random(recipe['seed'])
    scores = task.validation(table)
    log(f'train_table: {len(train_ids)} queries; untrained table', scores)
    best = (sum(scores.values()) / len(scores), 0, table.detach().clone())
    history = [{'epoch': 0, 'validation': scores}]
    for epoch in range(1, recipe['epochs'] + 1):
        rng.shuffle(train_ids)
        losses = []
        for start in range(0, len(train_ids), recipe['batch']):
            loss = task.loss(table, train_ids[start: start + recipe['batch']], recipe['scale'], rng)
            pull = recipe['pull'] * (table - untrained).pow(2).sum() / typical
            optimizer.zero_grad()
            (loss + pull).backward()
            optimizer.step()
            losses.append(loss.item())
        scores = task.validation(table)
        mean = sum(scores.values()) / len(scores)
        history.append({'epoch': epoch, 'loss': round(sum(losses) / len(losses), 4), 'validation': scores})
        log(f'epoch {epoch}: loss {sum(losses) / len(losses):.4f}', scores, 'mean', round(mean, 4))
        if mean > best[0]:
            best = (mean, epoch, table.detach().clone())
    if best[1] == 0:
        sys.exit('train_table: no epoch ranked the validation requests better than the untrained table')
    record = {'recipe': recipe, 'trained_from': {'file': 'model-base.bin (build.py)', 'sha256': hashlib.sha256(base).hexdigest()},
              'pairs': len(train_ids), 'kept_epoch': best[1], 'history': history}
    return modelfile.encode(terms, best[2].double().numpy()), record


def main():
    def extra(parser):
        parser.add_argument('--recipe', default=os.path.join(HERE, 'recipe-table.json'))
    args, inputs = build.arguments(__doc__, build.OUTPUT, extra)
    with open(args.recipe, encoding='utf-8') as f:
        recipe = json.load(f)
    base_path = os.path.join(args.cache, build.BASE_NAME)
    if not os.path.exists(base_path):
        sys.exit(f'train_table: no {base_path}; run model/build/build.py first')
    with open(base_path, 'rb') as f:
        base = f.read()
    build.check_sha('train_table (untrained table)', base, inputs['table_base_output']['sha256'], 'table_base_output')
    started = time.time()
    data, record = train(recipe, base, args.cache)
    log(f'train_table: done in {time.time() - started:.0f} s; kept epoch {record["kept_epoch"]}')
    if build.settle('train_table', data, build.OUTPUT, inputs['output']['sha256'], 'output', args.check):
        with open(os.path.join(HERE, 'training-table.json'), 'w', encoding='utf-8') as f:
            json.dump(record, f, indent=1)


if __name__ == '__main__':
    main()
