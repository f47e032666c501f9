#!/usr/bin/env python3
"""Checks the hand-written training requests of written/<server>.jsonl against the recorded
server mcp/<server>.json (or, for written/dsh.jsonl, DSH's own tools, catalogs/dsh):

    python3 model/build/train/check_written.py [SERVER ...]

Each line: {"tool": a tool name of the server, "lang": "en" | "zh", "query": the request,
"also": [other tools of the server that serve it as well, optional], "needs": [other tools of the
server a task needs besides `tool`, optional]}. A request must not name
any tool it points at (`tool`, `also`, `needs`) nor copy four words in a row from that tool's
description, and a Chinese one must hold Chinese. Exits 1 with the reasons when a file breaks a rule, and prints what each file covers.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
MCP = os.path.join(HERE, 'mcp')
WRITTEN = os.path.join(HERE, 'written')
# Catalogs besides the recorded MCP servers that have written requests, whose tools are registered
# under their own names rather than DSH's `mcp__<server>__<name>`: DSH's own tools.
OWN_CATALOGS = {'dsh': os.path.join(REPO, 'catalogs', 'dsh', 'headless-tools.json')}
CJK = re.compile(r'[\u3400-\u9fff]')


def words(text):
    return re.findall(r'[a-z0-9]+', text.lower())


def name_words(name):
    spaced = re.sub(r'([a-z0-9])([A-Z])', r'\1 \2', name)
    return [w for w in re.split(r'[^A-Za-z0-9]+', spaced.lower()) if w]


def grams(seq, n):
    return {tuple(seq[i:i + n]) for i in range(len(seq) - n + 1)}


def lists_other_tools(names, tool, tools):
    """Whether `also` or `needs` is a list of the server's tools other than the request's own."""
    return isinstance(names, list) and all(isinstance(n, str) and n in tools and n != tool for n in names)


def catalog(server):
    """The record a written file's tools come from: `{source, tools: [{name, description}]}`."""
    with open(OWN_CATALOGS.get(server) or os.path.join(MCP, f'{server}.json'), encoding='utf-8') as f:
        return json.load(f)


def registered_name(server, tool):
    """A tool's name as DSH offers it to the model."""
    return tool if server in OWN_CATALOGS else f'mcp__{server}__{tool}'


def check(server):
    tools = {t['name']: t for t in catalog(server)['tools']}
    problems, seen, covered = [], set(), {}
    path = os.path.join(WRITTEN, f'{server}.jsonl')
    with open(path, encoding='utf-8') as f:
        lines = [line for line in f if line.strip()]
    for number, line in enumerate(lines, 1):
        where = f'{server}.jsonl:{number}'
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            problems.append(f'{where}: not JSON ({e})')
            continue
        if not isinstance(row, dict):
            problems.append(f'{where}: not a JSON object')
            continue
        tool, lang, query = row.get('tool'), row.get('lang'), row.get('query')
        if not isinstance(tool, str) or tool not in tools:
            problems.append(f'{where}: no tool {tool!r} on {server}')
            continue
        if lang not in ('en', 'zh') or not isinstance(query, str) or not query.strip():
            problems.append(f'{where}: needs lang en|zh and a query')
            continue
        if not all(lists_other_tools(row.get(key, []), tool, tools) for key in ('also', 'needs')):
            problems.append(f'{where}: "also" and "needs" must list other tools of {server}')
        if (lang == 'zh') != bool(CJK.search(query)):
            problems.append(f'{where}: lang {lang} but the query {"lacks" if lang == "zh" else "has"} Chinese')
        if query in seen:
            problems.append(f'{where}: repeated query')
        seen.add(query)
        for named in {tool, *row.get('also', []), *row.get('needs', [])} & set(tools):
            name = name_words(named)
            if len(name) > 1 and ' '.join(name) in ' '.join(words(query)) or named.lower() in query.lower():
                problems.append(f'{where}: names a tool it points at ({named})')
            copied = grams(words(query), 4) & grams(words(tools[named].get('description') or ''), 4)
            if copied:
                problems.append(f'{where}: copies the description of {named} ({" ".join(sorted(copied)[0])})')
        if len(query) > 600:
            problems.append(f'{where}: longer than 600 characters')
        covered.setdefault(tool, set()).add(lang)
    missing = [t for t in tools if covered.get(t) != {'en', 'zh'}]
    return problems, len(lines), len(tools), missing


def main():
    servers = sys.argv[1:] or sorted(f[:-6] for f in os.listdir(WRITTEN) if f.endswith('.jsonl'))
    failed = False
    for server in servers:
        problems, lines, tools, missing = check(server)
        print(f'{server}: {lines} requests, {tools - len(missing)} of {tools} tools in both languages')
        if missing:
            print(f'  without an English and a Chinese request: {", ".join(missing[:20])}{" ..." if len(missing) > 20 else ""}')
        for p in problems:
            print('  ' + p)
        failed = failed or bool(problems)
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
