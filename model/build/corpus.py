"""Texts that read like tool descriptions, from public API definitions under Apache-2.0: the AWS
service models in botocore and the Google API discovery documents in google-api-python-client.
Each operation gives its name, the start of its description and its parameters' descriptions."""
import glob
import gzip
import html
import json
import os
import re


def _clean(text):
    text = html.unescape(re.sub(r'<[^>]+>', ' ', text or ''))
    return re.sub(r'\s+', ' ', text).strip()


def _operation(name, description, parameter_docs):
    return [name + ' ' + _clean(description)[:600]] + [_clean(d)[:200] for d in parameter_docs if d]


def aws(root):
    """Every operation of every service model under `root` (an unpacked botocore wheel)."""
    texts = []
    for path in sorted(glob.glob(os.path.join(root, 'botocore', 'data', '*', '*', 'service-2.json*'))):
        with (gzip.open(path) if path.endswith('.gz') else open(path, 'rb')) as f:
            model = json.load(f)
        shapes = model.get('shapes', {})
        for name, op in sorted(model.get('operations', {}).items()):
            members = shapes.get(op.get('input', {}).get('shape', ''), {}).get('members', {})
            texts += _operation(name, op.get('documentation'), [m.get('documentation') for _, m in sorted(members.items())])
    return texts


def google(root):
    """Every method of every discovery document under `root` (an unpacked google-api-python-client wheel)."""
    texts = []

    def walk(resource, path):
        for name, method in sorted(resource.get('methods', {}).items()):
            params = [p.get('description') for _, p in sorted(method.get('parameters', {}).items())]
            texts.extend(_operation('.'.join(path + [name]), method.get('description'), params))
        for name, sub in sorted(resource.get('resources', {}).items()):
            walk(sub, path + [name])

    for path in sorted(glob.glob(os.path.join(root, 'googleapiclient', 'discovery_cache', 'documents', '*.json'))):
        with open(path, encoding='utf-8') as f:
            walk(json.load(f), [])
    return texts
