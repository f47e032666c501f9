"""A package's Python modules as syntax trees, by dotted name: the derive scripts read a wheel's
source without importing it (no dependency of the benchmark runs)."""
import ast
import os


class ModuleTrees:
    def __init__(self, pkg):
        self.pkg = pkg
        self.cache = {}

    def load(self, dotted):
        """The parsed module `dotted` (`tau2.domains.airline.tools`) under the unpacked wheel."""
        if dotted not in self.cache:
            path = os.path.join(self.pkg, *dotted.split(".")) + ".py"
            with open(path, encoding="utf-8") as f:
                self.cache[dotted] = ast.parse(f.read(), filename=path)
        return self.cache[dotted]
