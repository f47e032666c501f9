"""Reading a Google-style docstring into a tool's description and its parameters' descriptions,
as the tau2 sources (tau2-bench and its banking domain) write their tools' docstrings."""
import inspect
import re

SECTION_RE = re.compile(r"^(Args|Arguments|Parameters|Returns|Return|Raises|Yields|Examples?|Notes?|Warning|Warnings):\s*$")
PARAMETER_SECTIONS = ("Args", "Arguments", "Parameters")
PARAMETER_RE = re.compile(r"^(\w+)\s*(\([^)]*\))?\s*:\s*(.*)$")


def google_doc(doc):
    """(description, {parameter: description}): the text before the first section, and each
    `name (type): text` entry of the parameter section with its continuation lines."""
    desc, params, section, cur, base_indent = [], {}, None, None, None
    for line in inspect.cleandoc(doc or "").splitlines():
        heading = SECTION_RE.match(line.strip()) if not line.startswith(" ") else None
        if heading:
            section, cur, base_indent = heading.group(1), None, None
        elif section is None:
            desc.append(line.rstrip())
        elif section in PARAMETER_SECTIONS and line.strip():
            indent = len(line) - len(line.lstrip())
            entry = PARAMETER_RE.match(line.strip())
            if entry and (base_indent is None or indent <= base_indent):
                base_indent, cur = indent, entry.group(1)
                params[cur] = entry.group(3).strip()
            elif cur is not None:
                params[cur] = (params[cur] + "\n" + line.strip()).strip()
    return "\n".join(desc).strip(), params
