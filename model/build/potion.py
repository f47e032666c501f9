"""Reading potion-base-8M (model2vec, MIT): its embedding matrix (safetensors) and its WordPiece
vocabulary, without the libraries that usually load them."""
import json
import os
import unicodedata

import numpy as np

import pinned


def matrix(model_dir):
    """The embedding matrix of model.safetensors (its one tensor), as float64."""
    (table,) = pinned.tensors(os.path.join(model_dir, 'model.safetensors')).values()
    return table.astype(np.float64)


class WordPiece:
    """BERT's uncased tokenization of one already-folded word: punctuation split off, then the
    longest vocabulary prefix at each step, continuations marked '##'."""

    def __init__(self, model_dir):
        with open(os.path.join(model_dir, 'tokenizer.json'), encoding='utf-8') as f:
            spec = json.load(f)['model']
        self.vocab = spec['vocab']
        self.unk = self.vocab[spec['unk_token']]
        self.max_chars = spec['max_input_chars_per_word']

    def ids(self, word):
        out = []
        for piece in self._pieces(word):
            out += self._wordpiece(piece)
        return out

    @staticmethod
    def _pieces(word):
        piece = ''
        for c in word:
            if unicodedata.category(c).startswith('P') or (c.isascii() and not c.isalnum()):
                if piece:
                    yield piece
                yield c
                piece = ''
            else:
                piece += c
        if piece:
            yield piece

    def _wordpiece(self, piece):
        if len(piece) > self.max_chars:
            return [self.unk]
        ids, start = [], 0
        while start < len(piece):
            end = len(piece)
            while end > start:
                sub = piece[start:end] if start == 0 else '##' + piece[start:end]
                if sub in self.vocab:
                    ids.append(self.vocab[sub])
                    break
                end -= 1
            else:
                return [self.unk]
            start = end
        return ids

    def whole_words(self):
        """The vocabulary's entries that are whole alphabetic words."""
        return sorted(w for w in self.vocab if w.isalpha() and len(w) > 1)
