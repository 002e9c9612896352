"""The suite runs as CI runs it (``pytest`` from the checkout, no ``tests`` package): a test
module that imports another as ``tests.test_x`` passes under ``python -m pytest`` (the current
folder is on the path) and errors under ``pytest`` (found 2026-12-05: four modules)."""
import ast
from pathlib import Path

HERE = Path(__file__).resolve().parent


def test_no_test_module_imports_the_tests_folder_as_a_package():
    bad = []
    for f in sorted(HERE.rglob("*.py")):
        for node in ast.walk(ast.parse(f.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            bad += [f"{f.relative_to(HERE)}: {n}" for n in names if n == "tests" or n.startswith("tests.")]
    assert not bad, bad
