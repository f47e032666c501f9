"""all-MiniLM-L6-v2 in torch, for training: the same network `encoder.py`'s `forward` runs (and the
crate's encoder), with padding masked out, read from and written to a model directory of the form
the pinned wheel has (config.json, vocab.txt, model.safetensors), so `encoder.py --model-dir`
exports a trained one exactly as it exports the original.

The sentence vector is the mean of the last hidden states over the real tokens, L2-normalised:
what the crate computes for a text without padding.
"""
import json
import math
import os
import shutil
import sys

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import pinned  # noqa: E402

EPS = 1e-12


class Layer(nn.Module):
    def __init__(self, hidden, heads, intermediate):
        super().__init__()
        self.heads = heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.attention_out = nn.Linear(hidden, hidden)
        self.attention_norm = nn.LayerNorm(hidden, eps=EPS)
        self.intermediate = nn.Linear(hidden, intermediate)
        self.output = nn.Linear(intermediate, hidden)
        self.output_norm = nn.LayerNorm(hidden, eps=EPS)

    def forward(self, x, bias):
        b, n, h = x.shape
        d = h // self.heads
        split = lambda t: t.view(b, n, self.heads, d).transpose(1, 2)  # noqa: E731
        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(d) + bias
        context = (scores.softmax(-1) @ v).transpose(1, 2).reshape(b, n, h)
        x = self.attention_norm(self.attention_out(context) + x)
        return self.output_norm(self.output(nn.functional.gelu(self.intermediate(x))) + x)


# Our module's names and the export's (`encoder.py` reads these).
NAMES = {
    'query': 'attention.self.query', 'key': 'attention.self.key', 'value': 'attention.self.value',
    'attention_out': 'attention.output.dense', 'attention_norm': 'attention.output.LayerNorm',
    'intermediate': 'intermediate.dense', 'output': 'output.dense', 'output_norm': 'output.LayerNorm',
}


class MiniLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        h = config['hidden_size']
        self.config = config
        # Layers below this one run without gradients in training (train.py freezes them).
        self.frozen = 0
        self.word = nn.Embedding(config['vocab_size'], h)
        self.position = nn.Embedding(config['max_position_embeddings'], h)
        self.token_type = nn.Parameter(torch.zeros(h))
        self.embed_norm = nn.LayerNorm(h, eps=EPS)
        self.layers = nn.ModuleList(Layer(h, config['num_attention_heads'], config['intermediate_size'])
                                    for _ in range(config['num_hidden_layers']))

    @staticmethod
    def load(model_dir):
        with open(os.path.join(model_dir, 'config.json'), encoding='utf-8') as f:
            config = json.load(f)
        assert config['hidden_act'] == 'gelu' and config['layer_norm_eps'] == EPS, config
        model = MiniLM(config)
        t = {name: torch.from_numpy(array.copy()) for name, array in pinned.tensors(os.path.join(model_dir, 'model.safetensors')).items()}
        with torch.no_grad():
            model.word.weight.copy_(t['embeddings.word_embeddings.weight'])
            model.position.weight.copy_(t['embeddings.position_embeddings.weight'])
            model.token_type.copy_(t['embeddings.token_type_embeddings.weight'][0])
            model.embed_norm.weight.copy_(t['embeddings.LayerNorm.weight'])
            model.embed_norm.bias.copy_(t['embeddings.LayerNorm.bias'])
            for i, layer in enumerate(model.layers):
                for ours, theirs in NAMES.items():
                    module = getattr(layer, ours)
                    module.weight.copy_(t[f'encoder.layer.{i}.{theirs}.weight'])
                    module.bias.copy_(t[f'encoder.layer.{i}.{theirs}.bias'])
        return model

    def save(self, out_dir, source_dir):
        """A model directory `encoder.py --model-dir` reads: this model's weights, the source's
        config and vocabulary."""
        os.makedirs(out_dir, exist_ok=True)
        for name in ('config.json', 'vocab.txt', 'tokenizer.json'):
            shutil.copyfile(os.path.join(source_dir, name), os.path.join(out_dir, name))
        t = {
            'embeddings.word_embeddings.weight': self.word.weight,
            'embeddings.position_embeddings.weight': self.position.weight,
            # The crate reads the first token type only; the second row is kept as it was.
            'embeddings.token_type_embeddings.weight': torch.stack([self.token_type, self.token_type]),
            'embeddings.LayerNorm.weight': self.embed_norm.weight,
            'embeddings.LayerNorm.bias': self.embed_norm.bias,
        }
        for i, layer in enumerate(self.layers):
            for ours, theirs in NAMES.items():
                module = getattr(layer, ours)
                t[f'encoder.layer.{i}.{theirs}.weight'] = module.weight
                t[f'encoder.layer.{i}.{theirs}.bias'] = module.bias
        pinned.write_tensors(os.path.join(out_dir, 'model.safetensors'), {name: value.detach().cpu().numpy() for name, value in t.items()})

    def forward(self, ids, mask):
        """Unit sentence vectors of a padded batch: `ids` and `mask` are [batch, tokens]."""
        n = ids.shape[1]
        bias = ((1.0 - mask[:, None, None, :].to(torch.float32)) * -1e9)
        with torch.set_grad_enabled(torch.is_grad_enabled() and self.frozen == 0):
            x = self.embed_norm(self.word(ids) + self.position.weight[:n] + self.token_type)
            for layer in self.layers[: self.frozen]:
                x = layer(x, bias)
        for layer in self.layers[self.frozen:]:
            x = layer(x, bias)
        m = mask[:, :, None].to(x.dtype)
        pooled = (x * m).sum(1) / m.sum(1)
        return nn.functional.normalize(pooled, dim=-1)
