#!/usr/bin/env python3
"""Rebuild catalog.json and queries.jsonl for the tau2-bench `banking_knowledge` domain, as vendored
in inspect_evals (UK AI Security Institute's port of tau2-bench).

Pinned package (PyPI):
    pip download inspect-evals==0.28.0 --no-deps -d .
    # -> inspect_evals-0.28.0-py3-none-any.whl
    # sha256 1d5735999b1c4e481162cacc29b962beeefd540c1e6222cccfdb40e79e8d459d
Unpack:
    unzip -q inspect_evals-0.28.0-py3-none-any.whl 'inspect_evals/tau2/*' 'inspect_evals-0.28.0.dist-info/*' -d pkg
Run:
    python3 derive.py pkg        # writes catalog.json and queries.jsonl next to this script

Standard library only; the package is read, never imported.
  * tools (all under inspect_evals/tau2/banking/):
      - base agent tools = the @tool wrappers in tools.py (name without the `banking_` prefix, which is
        the name the tasks' ground truth uses; description/params from the wrapper's Google docstring
        and signature; enum values from the Literal type of the underlying BankingAgentTools method),
        except the discovery mechanism itself (banking_grep,
        give_discoverable_user_tool, unlock_/call_/list_discoverable_agent_tool(s));
      - agent-discoverable tools = AGENT_DISCOVERABLE_TOOLS in BankingAgentTools.py (minus the
        placeholder example_agent_tool_0000), described as the package describes them to the agent
        once unlocked (BankingAgentTools._parse_discoverable_docstring: docstring before 'Args:' is
        the description, 'name (type[, optional]): text' lines are the parameters; here the
        description is also cut at 'Returns:'/'Raises:' for the few docstrings without 'Args:');
      - user-discoverable tools = USER_DISCOVERABLE_TOOLS in BankingUserTools.py, same parsing
        (these are tools the agent hands to the user via give_discoverable_user_tool).
  * queries: data/domains/banking_knowledge/tasks.json; query = user_scenario.instructions
        (a string, verbatim); relevant = for each assistant-side action of
        evaluation_criteria.actions: unlock_/call_discoverable_agent_tool -> its agent_tool_name
        argument, give_discoverable_user_tool -> its discoverable_tool_name argument, any other
        action -> its own name; user-side actions (requestor 'user') are not labels. Tasks with no
        label or a query over 4096 characters are dropped.
"""
import ast
import inspect
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from derive_io import MAX_QUERY_CHARS, write_set  # noqa: E402
from derive_tools import ModuleTrees, object_schema, package_dir, signature_schema, tool_entry  # noqa: E402
from docstrings import google_doc  # noqa: E402

META_TOOLS = {"grep", "give_discoverable_user_tool", "unlock_discoverable_agent_tool",
              "call_discoverable_agent_tool", "list_discoverable_agent_tools"}
DISCOVERY_ACTIONS = {"unlock_discoverable_agent_tool": "agent_tool_name",
                     "call_discoverable_agent_tool": "agent_tool_name",
                     "give_discoverable_user_tool": "discoverable_tool_name"}
TYPE_MAP = {"string": "string", "str": "string", "integer": "integer", "int": "integer",
            "number": "number", "float": "number", "boolean": "boolean", "bool": "boolean",
            "array": "array", "list": "array", "object": "object", "dict": "object"}
PY_TYPES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean",
            "list": "array", "dict": "object"}


BANKING = "inspect_evals.tau2.banking."


def set_literal(mods, module, name):
    _, node = mods.find(BANKING + module, name)
    if node is None:
        raise KeyError(name)
    return ast.literal_eval(node)


def methods(mods, module, clsname):
    _, cls = mods.find(BANKING + module, clsname)
    if not isinstance(cls, ast.ClassDef):
        raise KeyError(clsname)
    return {f.name: f for f in cls.body if isinstance(f, ast.FunctionDef)}


def discoverable_schema(fn):
    """Re-implementation of BankingAgentTools._parse_discoverable_docstring (+ JSON Schema)."""
    doc = inspect.cleandoc(ast.get_docstring(fn, clean=False) or "")
    parts = re.split(r"\n\s*Args:\s*\n", doc, maxsplit=1)
    # the package stops the description at 'Args:' only; a docstring without Args would leak its
    # 'Returns:'/'Raises:' text into the description, so cut there too
    description = re.split(r"\n\s*(?:Returns|Raises):\s*\n", parts[0], maxsplit=1)[0].strip()
    props, required = {}, []
    if len(parts) > 1:
        args_section = re.split(r"\n\s*Returns:\s*\n", parts[1], maxsplit=1)[0]
        args_section = re.split(r"\n\s*Raises:\s*\n", args_section, maxsplit=1)[0]
        for m in re.finditer(r"^\s*(\w+)\s*(?:\(([^)]+)\))?\s*:\s*(.+?)$", args_section, re.MULTILINE):
            pname, type_info, pdesc = m.group(1), m.group(2) or "string", m.group(3).strip()
            optional = "optional" in type_info.lower()
            ptype = re.sub(r",?\s*optional", "", type_info, flags=re.IGNORECASE).strip() or "string"
            props[pname] = {"type": TYPE_MAP.get(ptype.lower(), "string"), "description": pdesc}
            if not optional:
                required.append(pname)
    return tool_entry(fn.name, description, object_schema(props, required))


def wrapper_tools(tree):
    out = []
    for st in tree.body:
        if not (isinstance(st, ast.FunctionDef) and any(ast.unparse(d) == "tool" for d in st.decorator_list)):
            continue
        inner = next(f for f in st.body if isinstance(f, (ast.AsyncFunctionDef, ast.FunctionDef)))
        name = st.name[len("banking_"):] if st.name.startswith("banking_") else st.name
        description, pdesc = google_doc(ast.get_docstring(inner, clean=False))
        out.append(tool_entry(name, description, signature_schema(inner, python_type, pdesc)))
    return out


def python_type(annotation):
    """A wrapper parameter's schema: the JSON type of a plain Python type, else nothing."""
    name = ast.unparse(annotation) if annotation else None
    return {"type": PY_TYPES[name]} if name in PY_TYPES else {}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    pkg = package_dir(here)
    base = os.path.join(pkg, "inspect_evals", "tau2")
    mods = ModuleTrees(pkg, "inspect_evals")
    agent_tree = mods.load(BANKING + "BankingAgentTools")
    am = methods(mods, "BankingAgentTools", "BankingAgentTools")
    um = methods(mods, "BankingUserTools", "BankingUserTools")
    wrappers = [t for t in wrapper_tools(mods.load(BANKING + "tools")) if t["name"] not in META_TOOLS]
    agent_disc = sorted(set_literal(mods, "BankingAgentTools", "AGENT_DISCOVERABLE_TOOLS") - {"example_agent_tool_0000"})
    user_disc = sorted(set_literal(mods, "BankingUserTools", "USER_DISCOVERABLE_TOOLS"))
    # enum values: where the underlying BankingAgentTools method types an argument with a module-level
    # Literal[...] alias (transfer_to_human_agents.reason: TransferReasonLiteral), keep its values
    literals = {}
    for st in agent_tree.body:
        if isinstance(st, ast.Assign) and isinstance(st.value, ast.Subscript) and ast.unparse(st.value.value) == "Literal":
            elts = st.value.slice.elts if isinstance(st.value.slice, ast.Tuple) else [st.value.slice]
            literals[st.targets[0].id] = [e.value for e in elts]
    for t in wrappers:
        fn = am.get(t["name"])
        if fn is None:
            continue
        for a in fn.args.args:
            if a.annotation is not None and ast.unparse(a.annotation) in literals and a.arg in t["parameters"]["properties"]:
                t["parameters"]["properties"][a.arg]["enum"] = literals[ast.unparse(a.annotation)]
    catalog = list(wrappers)
    # source order of definition in the class, for stability and readability
    agent_disc.sort(key=lambda n: am[n].lineno)
    user_disc.sort(key=lambda n: um[n].lineno)
    catalog += [discoverable_schema(am[n]) for n in agent_disc]
    catalog += [discoverable_schema(um[n]) for n in user_disc]
    names = [t["name"] for t in catalog]
    assert len(names) == len(set(names)), "duplicate tool names"
    known = set(names)

    with open(os.path.join(base, "data", "domains", "banking_knowledge", "tasks.json"), encoding="utf-8") as f:
        tasks = json.load(f)
    queries = []
    for task in tasks:
        query = task["user_scenario"]["instructions"]
        rel = []
        for a in (task.get("evaluation_criteria") or {}).get("actions") or []:
            if a.get("requestor", "assistant") != "assistant":
                continue
            n = a["arguments"][DISCOVERY_ACTIONS[a["name"]]] if a["name"] in DISCOVERY_ACTIONS else a["name"]
            if n not in known:
                raise ValueError("unknown tool %s in task %s" % (n, task["id"]))
            if n not in rel:
                rel.append(n)
        if not isinstance(query, str) or not rel or len(query) > MAX_QUERY_CHARS:
            continue
        queries.append({"id": task["id"], "query": query, "relevant": rel, "group": "banking_knowledge"})

    write_set(here, catalog, queries=queries)
    print("tools", len(catalog), "(base %d, agent-discoverable %d, user-discoverable %d)"
          % (len(wrappers), len(agent_disc), len(user_disc)), "queries", len(queries), "of", len(tasks))


if __name__ == "__main__":
    main()
