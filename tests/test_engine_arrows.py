"""Issue 63's engine items, read with ``ast`` from the sources: the rules and the table never
import the workshop (the table-symmetry kernel deployment reads lives in ``engine/table``), and
no ruleset module imports another that imports it back at run time (Counterblast's and Doubles'
``data.py`` <-> ``points.py`` were a cycle through function-level imports). Imports under
``if TYPE_CHECKING:`` are for the type checker only and do not count."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine"


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_nodes(tree) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return out


def runtime_imports(path: Path) -> set[str]:
    """The modules ``path`` imports at run time (anywhere in it), relative imports made absolute."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_nodes(tree)
    mod = _module(path)
    pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")[:len(pkg.split(".")) - node.level + 1]
                full = ".".join(base + ([node.module] if node.module else []))
            else:
                full = node.module or ""
            out.add(full)
            out |= {f"{full}.{a.name}" for a in node.names}
    return out


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
        edges = {m: {n for n in runtime_imports(p) if n in mods and n != m} for m, p in mods.items()}
        pairs = sorted((a, b) for a in edges for b in edges[a] if a in edges.get(b, ()) and a < b)
        assert not pairs, f"{ruleset}: modules that import each other: {pairs}"
