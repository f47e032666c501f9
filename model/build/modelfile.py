"""Writing the model format src/semantic/model.rs reads (its header comment is the spec)."""
import struct

import numpy as np

MAGIC = b'DSHTSEMB'
VERSION = 1


def fnv1a(data):
    """FNV-1a 64: what the reader checks a file against, to tell a damaged download."""
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def encode(terms, vectors):
    """The file's bytes for rows `vectors` (float, one per term). Each row is stored as its
    direction at a signed byte per value and its magnitude as a 16-bit weight."""
    order = sorted(range(len(terms)), key=lambda i: terms[i].encode())
    names = [terms[i].encode() for i in order]
    assert all(0 < len(n) < 256 for n in names) and all(a < b for a, b in zip(names, names[1:]))
    rows = np.asarray(vectors, dtype=np.float64)[order]
    peak = np.abs(rows).max(axis=1)
    peak[peak == 0] = 1.0
    values = np.clip(np.round(rows / peak[:, None] * 127), -127, 127).astype(np.int8)
    weights = np.clip(np.round(peak / peak.max() * 65535), 1, 65535).astype('<u2')
    body = bytes(len(n) for n in names) + b''.join(names) + weights.tobytes() + values.tobytes()
    header = MAGIC + struct.pack('<IIII', VERSION, rows.shape[1], len(names), sum(map(len, names)))
    return header + struct.pack('<Q', fnv1a(body)) + body


def decode(data):
    """The terms and rows (float64, each its direction times its weight, as the reader sums them)
    of a file `encode` wrote; the inverse of `encode` up to its rounding."""
    assert data[:8] == MAGIC, 'not a model file'
    version, dims, count, name_bytes = struct.unpack_from('<IIII', data, 8)
    assert version == VERSION and fnv1a(data[32:]) == struct.unpack_from('<Q', data, 24)[0], 'a damaged model file'
    at = 32 + count
    terms = []
    for length in data[32:32 + count]:
        terms.append(data[at:at + length].decode())
        at += length
    weights = np.frombuffer(data, '<u2', count, at).astype(np.float64)
    values = np.frombuffer(data, np.int8, count * dims, at + 2 * count).reshape(count, dims).astype(np.float64)
    return terms, values * (weights[:, None] / 65535.0)
