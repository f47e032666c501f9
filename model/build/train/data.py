#!/usr/bin/env python3
"""Builds the encoder's training data: model/build/train/pairs.jsonl and tools.jsonl.

    python3 model/build/train/data.py

Needs Node (to read the labelled sets as `pnpm eval` builds them: eval-sets.mjs), cargo (the
crate's `train_texts` example gives every text as the shipped ranking embeds it) and the pinned
glossary inputs (the dictionary renderings read CC-CEDICT's glosses through glossary.py's build).
No torch.

A pair is a query and the tools that serve it, with its provenance:

- `request`: a labelled request of a DEV part of bench/data (BFCL dev, tau2-bench, ToolTalk, tau2
  banking, the bilingual set's English and Chinese), with its relevant tools over the set's own
  catalog. Held parts never train; BFCL live and AgentDojo, kept whole as held-out, are not read
  at all. Each request's part is computed here by parts.py's copy of the rule and checked against
  the JavaScript rule on every id. Within the dev parts, `parts.is_validation` sets aside about two
  in seven requests (`split: val`) that the training stops on and never trains on.
- `description`, `parameter`: a sentence of an MCP tool's description, or a parameter's purpose,
  pointing at the tool, from the servers recorded in mcp/ (README there: packages, versions,
  licences). The tool's other tools on its server are its hard negatives. A sentence taken from a
  description is also taken out of the tool's text it points at (`view`), so the pair asks the
  model to find the tool from what the rest says, not to match a sentence with itself.
- `written`: a request written by hand for this project (written/, README there) for a tool of a
  recorded MCP server or one of DSH's own tools, pointing at the tools that serve it.
- `gloss`: a Chinese request or Chinese description sentence, read through the glossary as the
  ranking reads a Chinese query (CJK runs in their words' first meanings).
- `rendering`: an English training query put in Chinese word by word with CC-CEDICT's entries
  (each content word as the most frequent Chinese word whose first meaning it is; words without
  one, names and code, kept as written, as people mix them), then read back through the glossary
  as the ranking would read it: the noise of a gloss (split words, "to" forms, a character's
  first meaning) on a request whose tool is known.

A tool is keyed `<pool>\\t<name>`; its text is what the ranking embeds (name words, then the
description). A pool is a catalog negatives are drawn from (a labelled set's catalog, or one MCP
server); `server` is the tool's server within it (an MCP server, a labelled source, DSH).
"""
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import parts  # noqa: E402

PAIRS = os.path.join(HERE, 'pairs.jsonl')
TOOLS = os.path.join(HERE, 'tools.jsonl')
MCP = os.path.join(HERE, 'mcp')
WRITTEN = os.path.join(HERE, 'written')

# Labelled sets whose dev parts train, with their licences (bench/data/*/README.md). BFCL live and
# AgentDojo are held out whole and never read; the union repeats these sets' requests.
TRAINING_SETS = {
    'bfcl': 'Apache-2.0',
    'tau2-bench': 'MIT + Apache-2.0',
    'tooltalk': 'MIT',
    'tau2-banking': 'MIT',
    'bilingual-en': 'MIT',
    'bilingual-zh': 'MIT',
}
HELD_OUT_WHOLE = ('bfcl-live', 'agentdojo')
# Servers the eval catalogs hold (catalogs/mcp): their tool definitions are not made into pairs,
# so a gain on the sets over them is not a gain from having read their descriptions.
EVAL_SERVER_PACKAGES = ('@modelcontextprotocol/server-github', '@notionhq/notion-mcp-server', '@playwright/mcp',
                        'howtocook-mcp', '@jzone-mcp/antd-components-mcp')
# A description sentence or parameter purpose of fewer words says too little to point at a tool.
MIN_WORDS = 4
MAX_WORDS = 40
# Pairs from one server at most, so a server of hundreds of tools does not outweigh the rest.
PER_SERVER = 150
CJK = re.compile(r'[\u3400-\u9fff\uf900-\ufaff]')


def texts_of(requests):
    """The crate's own texts for `requests` (["tool", name, description] or ["query", text]),
    through examples/train_texts.rs."""
    build = subprocess.run(['cargo', 'build', '--quiet', '--release', '--no-default-features', '--example', 'train_texts'],
                           cwd=REPO, check=True)
    assert build.returncode == 0
    exe = os.path.join(REPO, 'target', 'release', 'examples', 'train_texts')
    lines = '\n'.join(json.dumps(r, ensure_ascii=False) for r in requests) + '\n'
    out = subprocess.run([exe, os.path.join(REPO, 'model', 'glossary.bin')], input=lines.encode('utf-8'),
                         capture_output=True, check=True)
    texts = [json.loads(line) for line in out.stdout.decode('utf-8').splitlines()]
    assert len(texts) == len(requests), (len(texts), len(requests))
    return texts


def eval_sets():
    out = subprocess.run(['node', os.path.join(HERE, 'eval-sets.mjs')], cwd=REPO, capture_output=True, check=True)
    export = json.loads(out.stdout)
    compared = parts.check(export)
    print(f'data: the part rule agrees with bench/lib/eval-metrics.mjs on all {compared} ids')
    return export


def sentences(text):
    """A description's sentences: split at sentence ends and line breaks, markdown and list marks
    taken off, kept when they have MIN_WORDS to MAX_WORDS words (or, in Chinese, 6 to 80
    characters)."""
    out = []
    for piece in re.split(r'(?<=[.!?])\s+|[。！？\n]+', text):
        piece = re.sub(r'^[\s#*>\-•\d.)]+', '', piece).strip().strip('*`').strip()
        if CJK.search(piece):
            if 6 <= len(piece) <= 80:
                out.append(piece)
        elif MIN_WORDS <= len(piece.split()) <= MAX_WORDS and re.search(r'[a-z]', piece):
            out.append(piece)
    return out


def parameter_purposes(schema):
    """Each property's description in a tool's input schema (top level), with MIN_WORDS words or
    more."""
    props = (schema or {}).get('properties') or {}
    out = []
    for name in sorted(props):
        spec = props[name]
        text = spec.get('description') if isinstance(spec, dict) else None
        if isinstance(text, str):
            text = ' '.join(text.split())
            if CJK.search(text) and 6 <= len(text) <= 80 or MIN_WORDS + 1 <= len(text.split()) <= MAX_WORDS:
                out.append(text)
    return out


def mcp_servers(only=None):
    for file in sorted(os.listdir(MCP)):
        if not file.endswith('.json') or file == 'servers.json' or only is not None and file[:-5] not in only:
            continue
        with open(os.path.join(MCP, file), encoding='utf-8') as f:
            record = json.load(f)
        if record['source']['package'] in EVAL_SERVER_PACKAGES:
            continue
        yield file[:-5], record


class Builder:
    def __init__(self):
        self.tools = {}  # key -> {pool, server, name, raw: [name, description]}
        self.pairs = []

    def tool(self, pool, server, name, description, view=None):
        key = f'{pool}\t{name}' if view is None else f'{pool}\t{name}\t{view}'
        self.tools.setdefault(key, {'key': key, 'pool': pool, 'server': server, 'name': name, 'raw': ['tool', name, description]})
        return key

    def pair(self, **fields):
        self.pairs.append(fields)


def labelled(builder, export):
    sets = {s['id']: s for s in export['sets']}
    pair_of = {line['id']: line['pair'] for line in export['bilingualPairs']}
    # A bilingual tool's server: its MCP server, or the labelled source (or DSH) it comes from.
    source_of = {}
    for source in ('agentdojo', 'tau2-bench', 'tooltalk', 'tau2-banking'):
        for tool in sets[source]['catalog']:
            source_of.setdefault(tool['name'], source)
    counts = Counter()
    for set_id, licence in TRAINING_SETS.items():
        s = sets[set_id]
        pool = 'bilingual' if set_id.startswith('bilingual') else set_id
        for tool in s['catalog']:
            name = tool['name']
            m = re.match(r'mcp__([^_]+(?:_[^_]+)*)__', name)
            server = m.group(1) if m else (source_of.get(name, 'dsh') if pool == 'bilingual' else set_id)
            builder.tool(pool, server, name, tool['description'] or '')
        for r in s['requests']:
            key = pair_of[r['id']] if set_id.startswith('bilingual') else r['id']
            held = s['whole'] or parts.is_held_back(key)
            assert (r['part'] == 'held') == held
            if held:
                continue
            split = 'val' if parts.is_validation(key) else 'train'
            kind = 'gloss' if set_id == 'bilingual-zh' else 'request'
            builder.pair(source=set_id, licence=licence, kind=kind, split=split, pool=pool, id=r['id'],
                         raw=['query', r['query']], positives=[f'{pool}\t{t}' for t in r['relevant']], lang='zh' if set_id == 'bilingual-zh' else 'en')
            counts[(set_id, split)] += 1
    return counts


def mcp(builder, only=None, keep_shared=False):
    counts = Counter()
    licences = {}
    for server, record in mcp_servers(only):
        if parts.is_validation_server(server):
            continue
        pool = f'mcp:{server}'
        licences[server] = record['source']['license']
        made = []
        # A sentence or purpose several of the server's tools share ("It is read-only and does not
        # mutate GitLab data") points at none of them.
        seen = Counter()
        for tool in record['tools']:
            description = ' '.join((tool.get('description') or '').split())
            if not keep_shared:
                seen.update(set(sentences(description)) | set(parameter_purposes(tool.get('inputSchema'))))
        for tool in record['tools']:
            name = f'mcp__{server}__{tool["name"]}'
            description = ' '.join((tool.get('description') or '').split())
            whole = builder.tool(pool, server, name, tool.get('description') or '')
            said = sentences(description)
            for i, sentence in enumerate(said[:4]):
                if seen[sentence] > 1:
                    continue
                if len(said) > 1:
                    rest = ' '.join(s for j, s in enumerate(said) if j != i)
                    positive = builder.tool(pool, server, name, rest, view=i)
                else:
                    positive = whole
                made.append(('description', sentence, positive, whole))
            for purpose in [p for p in parameter_purposes(tool.get('inputSchema')) if seen[p] <= 1][:3]:
                made.append(('parameter', purpose, whole, whole))
        # Description sentences first, then parameters, each server's pairs at most PER_SERVER, in
        # the tools' order.
        made.sort(key=lambda m: m[0] != 'description')
        for kind, text, positive, whole in made[:PER_SERVER]:
            lang = 'zh' if CJK.search(text) else 'en'
            builder.pair(source=f'mcp:{server}', licence=record['source']['license'], kind='gloss' if lang == 'zh' else kind,
                         split='train', pool=pool, id=f'{server}:{len(builder.pairs)}', raw=['query', text],
                         positives=[positive], canonical=whole, lang=lang)
            counts[(server, kind)] += 1
    return counts, licences


def written(builder):
    """The requests written by hand for the recorded servers' tools and DSH's own
    (written/<server>.jsonl, checked by check_written.py), each pointing at its tool and at the
    siblings that serve it as well (`also`) or that its other steps take (`needs`); the tool's
    other siblings on its server are its hard negatives. DSH's tools keep the names DSH registers
    them under, in a pool of their own (`dsh`). The requests of the validation servers
    (`parts.is_validation_server`, the rule DSH's name passes through too) never train: they are
    ranked over every recorded server's tools at once (the pool `written`), the scale a user with
    many servers searches."""
    import check_written
    counts = Counter()
    for file in sorted(os.listdir(WRITTEN)):
        if not file.endswith('.jsonl'):
            continue
        server = file[:-6]
        problems, _, _, _ = check_written.check(server)
        assert not problems, problems
        record = check_written.catalog(server)
        assert record['source']['package'] not in EVAL_SERVER_PACKAGES, server
        validation = parts.is_validation_server(server)
        own = server in check_written.OWN_CATALOGS
        # The JavaScript validation sets (bench/lib/eval-sets.mjs) read the recorded servers only.
        assert not (own and validation), server
        pool = 'written' if validation else server if own else f'mcp:{server}'
        key = {}
        for tool in record['tools']:
            name = check_written.registered_name(server, tool['name'])
            key[tool['name']] = builder.tool(pool, server, name, tool.get('description') or '')
        with open(os.path.join(WRITTEN, file), encoding='utf-8') as f:
            rows = [json.loads(line) for line in f if line.strip()]
        for number, row in enumerate(rows):
            lang = row['lang']
            builder.pair(source=f'written-{lang}' if validation else f'written:{server}', licence='MIT (ours)', kind='written',
                         split='val' if validation else 'train', pool=pool, id=f'written:{server}:{number}',
                         raw=['query', row['query']], positives=[key[row['tool']], *(key[t] for t in row.get('also', []) + row.get('needs', []))], lang=lang)
            counts[(lang, 'val' if validation else 'train')] += 1
            counts[server] += 1
    # The validation requests are ranked over every recorded server's tools.
    for server, record in mcp_servers():
        for tool in record['tools']:
            builder.tool('written', server, f'mcp__{server}__{tool["name"]}', tool.get('description') or '')
    return counts


# English words a Chinese request leaves unsaid or that the glossary's reading drops anyway.
STOP = set('a an the to of for in on at by with from and or is are be was were it its this that these those my your our '
           'me i you we us he she they them their his her what which who whom whose how when where why do does did '
           'can could would should will shall may might must please just about into than then so if any some all '
           'there here also not no yes as up out'.split())


def reverse_dictionary():
    """English word -> the most frequent glossary word (two characters or more preferred) whose
    first meaning is that word (or "to <word>")."""
    import glossary
    with open(os.path.join(os.path.dirname(HERE), 'inputs.json'), encoding='utf-8') as f:
        spec = json.load(f)['glossary']
    cache = os.path.join(os.path.expanduser('~'), '.cache', 'dsh-tool-search', 'model-build')
    words, _ = glossary.words_from(cache, spec)
    best = {}
    for word, (frequency, pos, gloss) in words.items():
        if pos.startswith(glossary.FUNCTION_POS):
            continue
        first = re.split(r'[;/]', gloss)[0].strip().lower()
        first = re.sub(r'^to ', '', first)
        if not re.fullmatch(r'[a-z]+', first):
            continue
        rank = (len(word) >= 2, frequency)
        if first not in best or rank > best[first][0]:
            best[first] = (rank, word)
    return {english: word for english, (_, word) in best.items()}


def lemmas(word):
    yield word
    for suffix, repl in (('ies', 'y'), ('es', ''), ('s', ''), ('ed', ''), ('ed', 'e'), ('ing', ''), ('ing', 'e')):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            yield word[: -len(suffix)] + repl


def render(text, dictionary):
    """`text` in Chinese word by word; None when fewer than two of its words have a rendering."""
    out, rendered = [], 0
    for token in re.findall(r"[A-Za-z][A-Za-z'’-]*|\d+|[^\sA-Za-z\d]", text):
        low = token.lower()
        if low in STOP:
            continue
        zh = next((dictionary[w] for w in lemmas(low) if w in dictionary), None)
        if zh is not None and token[0].islower():
            out.append(zh)
            rendered += 1
        elif re.match(r'[A-Za-z\d]', token):
            out.append(f' {token} ')
    if rendered < 2:
        return None
    return re.sub(r'\s+', ' ', ''.join(out)).strip()


def renderings(builder):
    """A rendering of each English training pair's query that has one."""
    dictionary = reverse_dictionary()
    made = Counter()
    for p in list(builder.pairs):
        if p['split'] != 'train' or p['lang'] != 'en' or p['kind'] not in ('request', 'description', 'parameter'):
            continue
        zh = render(p['raw'][1], dictionary)
        if zh is None:
            continue
        builder.pair(**{**p, 'kind': 'rendering', 'id': p['id'] + ':zh', 'raw': ['query', zh], 'rendered': zh, 'lang': 'zh'})
        made[p['source'].split(':')[0]] += 1
    return made, len(dictionary)


README_HEAD = '''# MCP servers recorded for training

The tool lists of public MCP servers published on npm, each recorded from the server itself by
`node bench/capture-mcp.mjs --list model/build/train/mcp/servers.json --out model/build/train/mcp`
(the exact package version installed with `npm install --ignore-scripts`, its binary started over
stdio, `initialize` and `tools/list`; a server that wants a credential or a path just to start was
given a dummy one, named in its record's `dummyEnv` and `args`). Each file keeps the package, its
exact version and its licence beside the tools exactly as the server listed them. Only packages
whose `license` is MIT, Apache-2.0, BSD or ISC are recorded; servers that failed to start without
a network or real credentials, or whose licence is another, are not here (servers.json lists what
was tried).

`data.py` makes training pairs of them: the requests written for every tool
([`../written/`](../written/README.md)), and, for the servers `recipe.json` names, a description's
sentence or a parameter's purpose pointing at its tool; a tool's siblings on its server are its
hard negatives. The requests of the validation servers (marked *val*, one in five by the hash of
the name: `parts.is_validation_server`) never train, nor do those servers' descriptions: the
training is judged on them, ranked over every server's tools at once. The five servers the eval
catalogs hold (catalogs/mcp: GitHub, Notion, Playwright, HowToCook, Ant Design) are not recorded
here. `data.py` writes the table; its counts are those of the committed pairs.jsonl.

| Server | Package | Version | Licence | Tools | Written | Description pairs |
| --- | --- | --- | --- | ---: | ---: | ---: |
'''


def write_readme(counts, written_counts):
    rows, tools, made, requests = [], 0, 0, 0
    for server, record in mcp_servers():
        n = sum(v for (s, _), v in counts.items() if s == server)
        w = written_counts.get(server, 0)
        source = record['source']
        name = f'{server} (val)' if parts.is_validation_server(server) else server
        rows.append(f"| {name} | `{source['package']}` | {source['version']} | {source['license']} | {len(record['tools'])} | {w} | {n} |")
        tools += len(record['tools'])
        made += n
        requests += w
    rows.append(f'| **{len(rows)} servers** | | | | **{tools}** | **{requests}** | **{made}** |')
    with open(os.path.join(MCP, 'README.md'), 'w', encoding='utf-8') as f:
        f.write(README_HEAD + '\n'.join(rows) + '\n')


def main():
    import argparse
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--servers', help='make pairs of these recorded servers only (comma-separated; all by default)')
    parser.add_argument('--keep-shared', action='store_true',
                        help="keep sentences several of a server's tools share (the first data set did)")
    args = parser.parse_args()
    only = set(args.servers.split(',')) if args.servers else None
    export = eval_sets()
    builder = Builder()
    labelled_counts = labelled(builder, export)
    mcp_counts, licences = mcp(builder, only, args.keep_shared)
    written_counts = written(builder)
    write_readme(mcp_counts, written_counts)
    rendered, dictionary_words = renderings(builder)
    # Every text as the crate makes it.
    tools = list(builder.tools.values())
    queries = builder.pairs
    texts = texts_of([t['raw'] for t in tools] + [p['raw'] for p in queries])
    for t, text in zip(tools, texts[: len(tools)]):
        t['text'] = text
        del t['raw']
    for p, text in zip(queries, texts[len(tools):]):
        p['written'] = p['raw'][1]
        p['query'] = text
        del p['raw']
    with open(TOOLS, 'w', encoding='utf-8') as f:
        for t in tools:
            f.write(json.dumps(t, ensure_ascii=False, sort_keys=True) + '\n')
    with open(PAIRS, 'w', encoding='utf-8') as f:
        for p in queries:
            f.write(json.dumps(p, ensure_ascii=False, sort_keys=True) + '\n')
    print(f'data: {len(tools)} tool texts, {len(queries)} pairs')
    for (set_id, split), n in sorted(labelled_counts.items()):
        print(f'  request {set_id} {split}: {n}')
    kinds = defaultdict(Counter)
    for (server, kind), n in mcp_counts.items():
        kinds[kind][server] = n
    for kind, by in kinds.items():
        print(f'  mcp {kind}: {sum(by.values())} from {len(by)} servers')
    print(f'  written: {dict((k, v) for k, v in written_counts.items() if isinstance(k, tuple))}')
    print(f'  renderings: {sum(rendered.values())} ({dict(rendered)}), over {dictionary_words} English words')
    print(f'  licences: {dict(Counter(licences.values()))}')


if __name__ == '__main__':
    main()
