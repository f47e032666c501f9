"""How the derive scripts read a package's tools without importing it, in one place: the unpacked
wheel, its modules as syntax trees, a name followed through the package's own from-imports to
its definition, an annotation's union members, and a signature turned into the JSON Schema of a
tool's parameters, in the `{name, description, parameters}` shape every catalog.json holds."""
import ast
import os
import sys


def package_dir(here):
    """The unpacked wheel: the script's first argument, else `pkg` beside the script (`here`)."""
    return os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "pkg"))


def read_module(path):
    """The Python file at `path` as a syntax tree."""
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), filename=path)


def binding(statement, name):
    """What a module-level `statement` binds `name` to: the class or function definition itself,
    or the value of a one-target assignment; None when it binds no such thing."""
    if isinstance(statement, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        return statement if statement.name == name else None
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        return statement.value if isinstance(target, ast.Name) and target.id == name else None
    return None


class ModuleTrees:
    """A package's Python modules as syntax trees, by dotted name, under the unpacked wheel `pkg`.
    `root` is the package's top-level name: only its own from-imports are followed."""

    def __init__(self, pkg, root):
        self.pkg = pkg
        self.root = root
        self.cache = {}

    def load(self, dotted):
        """The parsed module `dotted` (`tau2.domains.airline.tools`) under the unpacked wheel."""
        if dotted not in self.cache:
            self.cache[dotted] = read_module(os.path.join(self.pkg, *dotted.split(".")) + ".py")
        return self.cache[dotted]

    def find(self, dotted, name):
        """(module, node): the definition `name` has in module `dotted` (the first class, function
        or one-target assignment that binds it; for an assignment its value), or, when the
        module imports `name` from the package (`from tau2.x import name as alias`), the
        definition there. (None, None) when neither."""
        tree = self.load(dotted)
        for statement in tree.body:
            node = binding(statement, name)
            if node is not None:
                return dotted, node
        for statement in tree.body:
            if isinstance(statement, ast.ImportFrom) and statement.module and statement.module.startswith(self.root):
                for alias in statement.names:
                    if (alias.asname or alias.name) == name:
                        return self.find(statement.module, alias.name)
        return None, None


def is_none(node):
    """True for the annotation `None`."""
    return isinstance(node, ast.Constant) and node.value is None


def union_members(annotation):
    """The members of a union written `A | B | None`, left to right (`None` among them); None when
    the annotation is no such union."""
    if not (isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr)):
        return None
    members, stack = [], [annotation]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            stack.extend([node.right, node.left])
        else:
            members.append(node)
    return members


def constant_default(node):
    """A parameter's default when it is a literal constant, else None (no default is written)."""
    return node.value if isinstance(node, ast.Constant) else None


def object_schema(properties, required):
    """The JSON Schema of an object with these properties, `required` naming the ones it needs."""
    return {"type": "object", "properties": properties, "required": required}


def tool_entry(name, description, parameters):
    """A catalog.json entry."""
    return {"name": name, "description": description, "parameters": parameters}


def signature_schema(fn, annotation_schema, descriptions, skip=None, default=constant_default):
    """The JSON Schema of the function `fn`'s positional parameters, in order: each one's schema is
    `annotation_schema(annotation)` (the annotation node, or None), then its description from
    `descriptions` (parameter name to text) and its default (`default(node)`, left out when that
    gives None). A parameter without a default is required; one that `skip(arg)` is true for
    (`self`, an argument the framework supplies) is left out."""
    args = fn.args.args
    defaults = [None] * (len(args) - len(fn.args.defaults)) + list(fn.args.defaults)
    properties, required = {}, []
    for arg, node in zip(args, defaults):
        if skip is not None and skip(arg):
            continue
        schema = dict(annotation_schema(arg.annotation))
        if arg.arg in descriptions:
            schema["description"] = descriptions[arg.arg]
        value = default(node) if node is not None else None
        if value is not None:
            schema["default"] = value
        properties[arg.arg] = schema
        if node is None:
            required.append(arg.arg)
    return object_schema(properties, required)
