"""The type stubs (.pyi) name exactly what the extension offers, class by class, and every function
and method of the extension takes the parameters, in order, with the defaults, that its stub says."""

import ast
import os
import types
import unittest

import sling

PACKAGE = os.path.dirname(sling.__file__)


def stub_tree(name):
    with open(os.path.join(PACKAGE, name)) as f:
        return ast.parse(f.read())


def public(obj):
    return {name for name in dir(obj) if not name.startswith("_")}


def defined(body):
    """The public classes and functions of a stub (not its private helper types)."""
    return {n.name for n in body
            if isinstance(n, (ast.ClassDef, ast.FunctionDef)) and not n.name.startswith("_")}


def runtime_signatures(obj):
    """The parameters (name, default text) of each signature in a pybind11 docstring."""
    signatures = []
    for line in (getattr(obj, "__doc__", None) or "").splitlines():
        line = line.strip()
        # An overloaded function lists "1. name(...) -> ...", one line each.
        line = line.split(". ", 1)[1] if line[:1].isdigit() and ". " in line else line
        name = getattr(obj, "__name__", "")
        if not line.startswith(name + "(") or ") -> " not in line:
            continue
        # The parameters only: pybind11 writes a type it cannot name in C++'s words (a::B).
        params = line[len(name):line.rindex(") -> ") + 1].replace("::", ".")
        parsed = ast.parse("def f" + params + ": pass").body[0]
        signatures.append(parameters(parsed))
    return signatures


def parameters(function):
    args = function.args
    defaults = [None] * (len(args.args) - len(args.defaults)) + list(args.defaults)
    return [(a.arg, None if d is None else ast.unparse(d)) for a, d in zip(args.args, defaults)]


class StubTest(unittest.TestCase):
    def check_signatures(self, body, runtime, where):
        for node in body:
            if not isinstance(node, ast.FunctionDef) or node.name.startswith("__"):
                continue
            if any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list):
                continue
            signatures = runtime_signatures(getattr(runtime, node.name))
            if not signatures:
                continue  # a pure-Python function: its own signature is its stub
            self.assertIn(parameters(node), signatures, f"{where}.{node.name}")


    def check(self, stub, runtime):
        tree = stub_tree(stub)
        names = defined(tree.body)
        self.check_signatures(tree.body, runtime, stub)
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name in names and not issubclass(getattr(runtime, node.name),
                                                                 Exception):
                cls = getattr(runtime, node.name)
                methods = {n for n in defined(node.body) if not n.startswith("__")}
                self.assertEqual(public(cls), methods, node.name)
                self.check_signatures(node.body, cls, node.name)
        # Submodules (sling.pig, sling.env, ...) and constants (CHANCE, __version__, PLANES) are not
        # classes or functions.
        runtime_names = {n for n in public(runtime)
                         if not isinstance(getattr(runtime, n), (int, str, tuple, types.ModuleType))}
        self.assertEqual(runtime_names, names, stub)

    def test_package(self):
        self.check("__init__.pyi", sling)

    def test_pig(self):
        self.check("pig.pyi", sling.pig)

    def test_duel(self):
        self.check("duel.pyi", sling.duel)

    def test_danelaw(self):
        self.check("danelaw.pyi", sling.danelaw)


if __name__ == "__main__":
    unittest.main()
