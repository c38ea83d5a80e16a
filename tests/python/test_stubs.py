"""The type stubs (.pyi) name exactly what the extension offers, class by class."""

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
    return {n.name for n in body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}


class StubTest(unittest.TestCase):
    def check(self, stub, runtime):
        tree = stub_tree(stub)
        names = defined(tree.body)
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and not issubclass(getattr(runtime, node.name),
                                                                 Exception):
                cls = getattr(runtime, node.name)
                methods = {n for n in defined(node.body) if not n.startswith("__")}
                self.assertEqual(public(cls), methods, node.name)
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
