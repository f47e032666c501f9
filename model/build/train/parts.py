"""The part rule of bench/lib/eval-metrics.mjs (`isHeldBack`), in Python: a request is held back
when the 32-bit FNV-1a hash of its id's UTF-8 bytes, modulo 10, is below 3 (for the bilingual set,
of its `pair` id). Held parts never train; `data.py` checks this copy against the JavaScript rule
on every id of every set (`check`).

Within a dev part, `is_validation` sets aside the ids whose hash modulo 10 is 3 or 4 (about two in
seven): the training stops, and its choices are made, on them, never on a held part.
"""


def fnv1a32(text):
    h = 0x811C9DC5
    for byte in text.encode('utf-8'):
        h ^= byte
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def is_held_back(key):
    return fnv1a32(key) % 10 < 3


def is_validation(key):
    return fnv1a32(key) % 10 in (3, 4)


def is_validation_server(server):
    """Whether a recorded MCP server's written requests are set aside for validation (about one
    server in five, by the hash of its name): they never train, nor do the server's description
    pairs, so the validation measures requests for tools the training never saw."""
    return fnv1a32('v1:' + server) % 5 == 0


def check(export):
    """Stops unless this rule gives every request of `export` (eval-sets.mjs's output) the part the
    JavaScript rule gave it; returns how many ids it compared."""
    pair_of = {}
    compared = 0
    for line in export['bilingualPairs']:
        assert is_held_back(line['pair']) == line['held'], ('part rules disagree on pair', line['pair'])
        pair_of[line['id']] = line['pair']
        compared += 1
    # The union's requests keep the part they have in their own source (AgentDojo's all held).
    own = {}
    for s in export['sets']:
        if s['id'] == 'union':
            continue
        if s.get('devOnly'):
            # The written requests of the validation servers, each id `<server>:<line>`: the
            # JavaScript rule chose the same servers.
            for r in s['requests']:
                assert r['part'] == 'dev' and is_validation_server(r['id'].split(':')[0]), ('validation rules disagree', r['id'])
                compared += 1
            continue
        for r in s['requests']:
            # A request of a set of pairs names its pair, the key of its part.
            key = r.get('pair') or (pair_of[r['id']] if s['id'].startswith('bilingual') else r['id'])
            mine = 'held' if s['whole'] or is_held_back(key) else 'dev'
            assert mine == r['part'], ('part rules disagree', s['id'], r['id'], mine, r['part'])
            own[r['id']] = mine
            compared += 1
    for s in export['sets']:
        if s['id'] == 'union':
            for r in s['requests']:
                assert own[r['id']] == r['part'], ('part rules disagree', 'union', r['id'])
                compared += 1
    return compared


if __name__ == '__main__':
    import json
    import sys
    # Known values of the JavaScript function, so this copy is checked without Node too.
    assert fnv1a32('') == 0x811C9DC5 and fnv1a32('a') == 0xE40C292C and fnv1a32('foobar') == 0xBF9CF968
    if sys.argv[1:] == ['--check-stdin']:
        # eval-sets.mjs's output on standard input (the vitest suite sends it).
        print(f'parts: the rule agrees with the JavaScript one on all {check(json.load(sys.stdin))} ids')
    else:
        print('parts: FNV-1a test vectors pass')
