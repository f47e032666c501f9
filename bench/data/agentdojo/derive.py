#!/usr/bin/env python3
"""Rebuild catalog.json and queries.jsonl for AgentDojo (benchmark version v1.2.2).

Pinned package (PyPI):
    pip download agentdojo==0.1.35 --no-deps -d .
    # -> agentdojo-0.1.35-py3-none-any.whl
    # sha256 364bea4219716b716bf639f504d195943f7f6a5535d312ca41d7098704a2affd
Unpack:
    unzip -q agentdojo-0.1.35-py3-none-any.whl -d pkg
Run:
    python3 derive.py pkg        # writes catalog.json and queries.jsonl next to this script

Standard library only. Nothing is imported from the package: its Python sources are
read with `ast`, and the suite/version logic of agentdojo.task_suite is re-implemented:
  * tools   = the TOOLS list of default_suites/v1/<suite>/task_suite.py; JSON Schema is
              built from each function's signature and its ':param x:' docstring, the
              environment-injected arguments (Annotated[..., Depends(...)]) are dropped,
              StrEnum-typed arguments keep their enum values;
  * queries = every user task of the suite at the version that load_suites.py assigns
              to benchmark "v1.2.2" (latest registered version <= that version), its
              PROMPT as query and the distinct FunctionCall(function=...) names of its
              ground_truth() as relevant tools. Combined tasks (TaskCombinator) get the
              prompt template of task_combinators.py and the union of both parts.
"""
import ast
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from derive_io import MAX_QUERY_CHARS, write_set  # noqa: E402
from derive_tools import (  # noqa: E402
    ModuleTrees, is_none, package_dir, read_module, signature_schema, tool_entry, union_members)

BENCHMARK = "v1.2.2"
SUITES = ["workspace", "travel", "banking", "slack"]
# module import order of agentdojo/default_suites (each package registers tasks on import)
VERSION_DIRS = ["v1", "v1_1", "v1_1_1", "v1_1_2", "v1_2", "v1_2_1", "v1_2_2"]


# ---------------------------------------------------------------- tiny evaluator
class Unevaluable(Exception):
    pass


def ev(node, env):
    """Evaluate the constant-ish expressions used in task class bodies."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        raise Unevaluable(node.id)
    if isinstance(node, ast.JoinedStr):
        out = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                out.append(v.value)
            else:
                val = ev(v.value, env)
                if v.conversion == ord("r"):
                    val = repr(val)
                elif v.conversion == ord("s"):
                    val = str(val)
                spec = ev(v.format_spec, env) if v.format_spec is not None else ""
                out.append(format(val, spec))
        return "".join(out)
    if isinstance(node, ast.BinOp):
        left, right = ev(node.left, env), ev(node.right, env)
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Mod):
            return left % right
        if isinstance(node.op, ast.Mult):
            return left * right
        if isinstance(node.op, ast.Sub):
            return left - right
        raise Unevaluable(ast.dump(node.op))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -ev(node.operand, env)
    if isinstance(node, ast.Tuple):
        return tuple(ev(e, env) for e in node.elts)
    if isinstance(node, ast.List):
        return [ev(e, env) for e in node.elts]
    if isinstance(node, ast.Dict):
        return {ev(k, env): ev(v, env) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr in ("format", "join"):
            base = ev(node.func.value, env)
            args = [ev(a, env) for a in node.args]
            kwargs = {k.arg: ev(k.value, env) for k in node.keywords}
            return getattr(base, node.func.attr)(*args, **kwargs)
    raise Unevaluable(ast.unparse(node))


def bind(env, name, node):
    """env[name] = the value of `node`, when it can be evaluated."""
    try:
        env[name] = ev(node, env)
    except Unevaluable:
        pass


def module_env(tree):
    env = {}
    for st in tree.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            bind(env, st.targets[0].id, st.value)
    return env


# ---------------------------------------------------------------- tools
def docstring_parts(doc):
    """Split a ':param x: ...' docstring into (description, {param: description})."""
    doc = doc or ""
    lines = [l.strip() for l in doc.strip().splitlines()]
    desc_lines, params, cur = [], {}, None
    for line in lines:
        if line.startswith(":param "):
            name, _, text = line[len(":param "):].partition(":")
            cur = name.strip()
            params[cur] = text.strip()
        elif line.startswith(":return") or line.startswith(":raises"):
            cur = "__ignore__"
        elif cur is None:
            desc_lines.append(line)
        elif cur != "__ignore__" and line:
            params[cur] = (params[cur] + "\n" + line).strip()
    description = "\n".join(l for l in desc_lines if l).strip()
    return description, params


class ToolModules(ModuleTrees):
    def __init__(self, pkg):
        super().__init__(pkg, "agentdojo")

    def alias_value(self, modname, name):
        """The value a module-level assignment gives `name` in modname (imports followed), or None."""
        _, node = self.find(modname, name)
        return node if isinstance(node, ast.expr) else None

    def enum_values(self, modname, clsname):
        _, cls = self.find(modname, clsname)
        if not isinstance(cls, ast.ClassDef):
            return None
        bases = [ast.unparse(b) for b in cls.bases]
        if not any(b in ("StrEnum", "Enum", "str") or b.endswith("Enum") for b in bases):
            return None
        vals = []
        for st in cls.body:
            if isinstance(st, ast.Assign) and isinstance(st.value, ast.Constant):
                vals.append(st.value.value)
        return vals

    def schema_for(self, modname, ann):
        """JSON Schema for an annotation node; returns (schema, nullable)."""
        if ann is None:
            return {}, False
        parts = union_members(ann)
        if parts is not None:
            nullable = any(is_none(p) for p in parts)
            rest = [p for p in parts if not is_none(p)]
            if len(rest) == 1:
                s, _ = self.schema_for(modname, rest[0])
                return s, nullable
            return {"anyOf": [self.schema_for(modname, p)[0] for p in rest]}, nullable
        if isinstance(ann, ast.Subscript):
            base = ast.unparse(ann.value)
            if base in ("list", "List", "Sequence"):
                item, _ = self.schema_for(modname, ann.slice)
                s = {"type": "array"}
                if item:
                    s["items"] = item
                return s, False
            if base in ("dict", "Dict"):
                return {"type": "object"}, False
            if base in ("Optional",):
                s, _ = self.schema_for(modname, ann.slice)
                return s, True
            raise ValueError("unsupported annotation " + ast.unparse(ann))
        name = ast.unparse(ann)
        prim = {"str": "string", "int": "integer", "float": "number", "bool": "boolean",
                "dict": "object", "list": "array", "EmailStr": "string"}
        if name in prim:
            return {"type": prim[name]}, False
        if name in ("datetime.datetime", "datetime.date", "datetime"):
            return {"type": "string"}, False
        vals = self.enum_values(modname, name)
        if vals is not None:
            return {"type": "string", "enum": vals}, False
        alias = self.alias_value(modname, name)
        if alias is not None:
            return self.schema_for(modname, alias)
        raise ValueError("unsupported annotation " + name)

    def is_injected(self, modname, ann):
        if ann is None:
            return False
        text = ast.unparse(ann)
        if "Depends(" in text:
            return True
        if isinstance(ann, ast.Name):
            alias = self.alias_value(modname, ann.id)
            if alias is not None and "Depends(" in ast.unparse(alias):
                return True
        return False

    def tool(self, modname, fname):
        """(catalog entry, (module, function)) for the tool function `fname` visible in modname."""
        defined_in, fn = self.find(modname, fname)
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            raise KeyError(modname + "." + fname)
        description, pdesc = docstring_parts(ast.get_docstring(fn))
        parameters = signature_schema(fn, lambda ann: self.schema_for(defined_in, ann)[0], pdesc,
                                      skip=lambda arg: self.is_injected(defined_in, arg.annotation),
                                      default=evaluated_default)
        return tool_entry(fname, description, parameters), (defined_in, fname)


def evaluated_default(node):
    """A parameter's default, when the tiny evaluator can compute it."""
    try:
        return ev(node, {})
    except Unevaluable:
        return None


def suite_tools(mods, suite):
    """The suite's TOOLS, each (catalog entry, (module, function)), followed to where they are defined."""
    modname = "agentdojo.default_suites.v1.%s.task_suite" % suite
    _, names = mods.find(modname, "TOOLS")
    return [mods.tool(modname, e.id) for e in names.elts]


# ---------------------------------------------------------------- user tasks
def suite_version(pkg, suite):
    tree = read_module(os.path.join(pkg, "agentdojo", "task_suite", "load_suites.py"))
    var = "_V" + BENCHMARK[1:].replace(".", "_") + "_SUITES"
    for st in tree.body:
        tgt = st.targets[0] if isinstance(st, ast.Assign) else getattr(st, "target", None)
        if getattr(tgt, "id", None) == var:
            for k, v in zip(st.value.keys, st.value.values):
                if k.value == suite:
                    if isinstance(v, ast.Call):  # xxx_task_suite.get_new_version((1, 2, 0))
                        return ev(v.args[0], {})
                    return (1, 0, 0)
    raise KeyError(var)


def combined_prompt_template(pkg):
    tree = read_module(os.path.join(pkg, "agentdojo", "task_suite", "task_combinators.py"))
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", None) == "PROMPT" \
                and isinstance(n.value, ast.JoinedStr):
            return n.value
    raise KeyError("combined PROMPT template")


def gt_functions(fn):
    names = []
    for n in ast.walk(fn):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "FunctionCall":
            for k in n.keywords:
                if k.arg == "function":
                    if not isinstance(k.value, ast.Constant):
                        raise ValueError("non-literal function name: " + ast.unparse(k.value))
                    if k.value.value not in names:
                        names.append(k.value.value)
    # ast.walk is breadth-first; re-order by source position for stability/readability
    pos = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "FunctionCall":
            for k in n.keywords:
                if k.arg == "function" and k.value.value not in pos:
                    pos[k.value.value] = (n.lineno, n.col_offset)
    return sorted(names, key=lambda x: pos[x])


def task_number(clsname):
    assert clsname.startswith("UserTask"), clsname
    return int(clsname[len("UserTask"):])


class Registry:
    def __init__(self):
        self.tasks = {}  # task_id -> {version: {"prompt":..., "functions": [...]}}

    def register(self, task_id, version, rec):
        self.tasks.setdefault(task_id, {})[version] = rec

    def compatible(self, task_id, version):  # task_suite.user_tasks at that version (<=)
        vs = [v for v in self.tasks[task_id] if v <= version]
        return self.tasks[task_id][max(vs)]

    def latest_below(self, task_id, version):  # get_latest_user_task_by_id (<)
        vs = [v for v in self.tasks[task_id] if v < version]
        return self.tasks[task_id][max(vs)]


def eval_task_ref(node, reg, env):
    """task_suite.user_tasks["id"] | task_suite.get_latest_user_task_by_id("id", V) |
    task_suite._user_tasks["id"][V]"""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "user_tasks":
        return reg.compatible(ev(node.slice, env), (1, 0, 0))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get_latest_user_task_by_id":
        return reg.latest_below(ev(node.args[0], env), ev(node.args[1], env))
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Subscript) \
            and isinstance(node.value.value, ast.Attribute) and node.value.value.attr == "_user_tasks":
        return reg.tasks[ev(node.value.slice, env)][ev(node.slice, env)]
    raise Unevaluable(ast.unparse(node))


def process_module(path, reg, template, class_defs):
    tree = read_module(path)
    env = module_env(tree)
    for st in tree.body:
        if isinstance(st, ast.ClassDef):
            class_defs[st.name] = st
            version = None
            for dec in st.decorator_list:
                if isinstance(dec, ast.Attribute) and dec.attr == "register_user_task":
                    version = (1, 0, 0)
                elif isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute) and dec.func.attr == "update_user_task":
                    version = ev(dec.args[0], env)
            if version is None:
                continue
            # class body env (class attributes may reference earlier ones / module constants)
            cenv = dict(env)
            prompt, gt = None, None
            chain = [st]
            # inherit PROMPT / ground_truth from a user-task base class defined in a parsed module
            for b in st.bases:
                bn = ast.unparse(b)
                if bn in class_defs:
                    chain.append(class_defs[bn])
            for cls in reversed(chain):
                for item in cls.body:
                    if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name):
                        bind(cenv, item.targets[0].id, item.value)
                    elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and item.value is not None:
                        bind(cenv, item.target.id, item.value)
                    elif isinstance(item, ast.FunctionDef) and item.name == "ground_truth":
                        gt = item
            prompt = cenv.get("PROMPT")
            if not isinstance(prompt, str):
                raise ValueError("no PROMPT for %s in %s" % (st.name, path))
            task_id = "user_task_%d" % task_number(st.name)
            reg.register(task_id, version, {"prompt": prompt, "functions": gt_functions(gt)})
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Attribute) \
                and st.value.func.attr in ("create_combined_task", "update_combined_task"):
            call = st.value
            kw = {k.arg: k.value for k in call.keywords}
            name = ev(call.args[0], env)
            t1 = eval_task_ref(call.args[1], reg, env)
            t2 = eval_task_ref(call.args[2], reg, env)
            if call.func.attr == "create_combined_task":
                version = (1, 0, 0)
                pnode = call.args[3] if len(call.args) > 3 else kw.get("prompt")
            else:
                version = ev(call.args[3] if len(call.args) > 3 else kw["benchmark_version"], env)
                pnode = call.args[4] if len(call.args) > 4 else kw.get("prompt")
            prompt = ev(pnode, env) if pnode is not None else None
            if prompt is None:
                prompt = render_template(template, t1, t2)
            funcs = list(t1["functions"]) + [f for f in t2["functions"] if f not in t1["functions"]]
            reg.register("user_task_%d" % task_number(name), version, {"prompt": prompt, "functions": funcs})


def render_template(template, t1, t2):
    out = []
    for v in template.values:
        if isinstance(v, ast.Constant):
            out.append(v.value)
        else:
            src = ast.unparse(v.value)
            if src == "user_task_1.PROMPT":
                out.append(t1["prompt"])
            elif src == "user_task_2.PROMPT":
                out.append(t2["prompt"])
            else:
                raise Unevaluable(src)
    return "".join(out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    pkg = package_dir(here)
    mods = ToolModules(pkg)
    template = combined_prompt_template(pkg)

    # ---- tools
    tools_by_suite = {}
    origin = {}  # tool name -> set of (module, function) definitions
    for suite in SUITES:
        tools_by_suite[suite] = suite_tools(mods, suite)
        for t, o in tools_by_suite[suite]:
            origin.setdefault(t["name"], set()).add(o)
    clash = {n for n, o in origin.items() if len(o) > 1}  # same name, different definitions

    def cname(suite, name):
        return "%s.%s" % (suite, name) if name in clash else name

    catalog, seen = [], {}
    for suite in SUITES:
        for t, o in tools_by_suite[suite]:
            n = cname(suite, t["name"])
            if n in seen:
                assert seen[n] == t, n  # identical shared function (e.g. email tools in travel)
                continue
            seen[n] = t
            catalog.append(dict(t, name=n))

    # ---- user tasks
    queries = []
    for suite in SUITES:
        version = suite_version(pkg, suite)
        reg = Registry()
        class_defs = {}
        for vd in VERSION_DIRS:
            path = os.path.join(pkg, "agentdojo", "default_suites", vd, suite, "user_tasks.py")
            if os.path.exists(path):
                process_module(path, reg, template, class_defs)
        suite_tool_names = {t["name"] for t, _ in tools_by_suite[suite]}
        ids = sorted(reg.tasks, key=lambda x: int(x.rsplit("_", 1)[1]))
        for tid in ids:
            if not any(v <= version for v in reg.tasks[tid]):
                continue
            rec = reg.compatible(tid, version)
            rel = []
            for f in rec["functions"]:
                if f not in suite_tool_names:
                    raise ValueError("%s/%s calls unknown tool %s" % (suite, tid, f))
                n = cname(suite, f)
                if n not in rel:
                    rel.append(n)
            if not rel or len(rec["prompt"]) > MAX_QUERY_CHARS:
                continue
            queries.append({"id": "%s/%s" % (suite, tid), "query": rec["prompt"], "relevant": rel,
                            "group": suite,
                            })

    write_set(here, catalog, queries=queries)
    print("tools", len(catalog), "queries", len(queries), "clashing names", sorted(clash))


if __name__ == "__main__":
    main()
