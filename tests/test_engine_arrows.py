"""Issue 63's engine items, read with ``ast`` from the sources: the rules and the table never
import the workshop (the table-symmetry kernel deployment reads lives in ``engine/table``), and
no ruleset module imports another that imports it back at run time (Counterblast's and Doubles'
``data.py`` <-> ``points.py`` were a cycle through function-level imports). Imports under
``if TYPE_CHECKING:`` are for the type checker only and do not count."""
from __future__ import annotations

import ast
from pathlib import Path

from test_client_imports import imported_names

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine"


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


class _NoTypeChecking(ast.NodeTransformer):
    def visit_If(self, node):
        return None if "TYPE_CHECKING" in ast.unparse(node.test) else self.generic_visit(node)


def runtime_imports(path: Path) -> set[str]:
    """The names ``path`` imports at run time (anywhere in it; ``test_client_imports``' reading),
    with ``if TYPE_CHECKING:`` blocks left out."""
    tree = _NoTypeChecking().visit(ast.parse(path.read_text(encoding="utf-8")))
    return imported_names(ast.unparse(tree), _module(path), path.name == "__init__.py")


def test_the_rules_and_the_table_never_import_the_workshop():
    bad = {}
    for folder in ("rulesets", "table", "core", "data"):
        for p in sorted((ENGINE / folder).rglob("*.py")):
            got = sorted(n for n in runtime_imports(p) if n == "engine.workshop" or n.startswith("engine.workshop."))
            if got:
                bad[_module(p)] = got
    assert not bad, f"upward arrows into engine.workshop: {bad}"


def test_no_import_cycle_between_a_rulesets_modules():
    for ruleset in ("counterblast", "doubles", "frontier"):
        folder = ENGINE / "rulesets" / ruleset
        mods = {_module(p): p for p in folder.glob("*.py")}

        def resolve(name: str, mods=mods) -> str | None:    # the most specific module a name names
            while name and name not in mods:
                name = name.rpartition(".")[0]
            return name or None

        edges = {m: {resolve(n) for n in runtime_imports(p)} - {m, None} for m, p in mods.items()}
        pairs = sorted((a, b) for a in edges for b in edges[a] if a in edges.get(b, ()) and a < b)
        assert not pairs, f"{ruleset}: modules that import each other: {pairs}"
