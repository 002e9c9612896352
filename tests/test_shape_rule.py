"""The shape rule of ``game/`` (issue 63), read with ``ast`` from the sources: a screen is parts it
owns, not a class spread over files.

- no class in ``game/`` has more than ``MAX_PROJECT_BASES`` bases of this project's own (a base
  imported from ``game`` or ``engine``, or defined in the same module); bases from elsewhere
  (pygame_gui's elements, ``Exception``) do not count;
- no class in ``game/`` is named ``*Mixin``;
- each field of a screen's state (``SCREEN_STATES``: the dataclass and the module it lives in) is
  assigned (``x.field = ...``, ``x.field += ...``, ``x.field[...] = ...``) in one module of
  ``game/`` only: its owner, named in the dataclass's comment.

``ALLOWED`` names the classes that still break the first two rules ("module:Class"); it may only
shrink (a class off the rule that is not listed fails, and so does a listed one that keeps it).
The 400-line module cap stays as a warning (``tests/test_client_module_size.py``).
"""
from __future__ import annotations

import ast
from pathlib import Path

GAME = Path(__file__).resolve().parent.parent / "game"
PROJECT = ("game", "engine")
MAX_PROJECT_BASES = 2

# Classes still off the rule, "module:Class". Empty since 2026-12-07: keep it so (issue 63).
ALLOWED: set[str] = set()

# The screens' state dataclasses: (module, class). Each field is assigned in one module only.
SCREEN_STATES = [("game.editor.state", "EditorState")]


def _module_name(path: Path, root: Path = GAME) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _project_names(tree: ast.Module, module: str) -> set[str]:
    """The names a module binds to this project's things: what it imports from ``game`` or
    ``engine`` (or relatively), and the classes it defines."""
    out = {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level or (node.module or "").split(".")[0] in PROJECT:
                out |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {(a.asname or a.name).split(".")[0] for a in node.names if a.name.split(".")[0] in PROJECT}
    return out


def _root(expr) -> str | None:
    while isinstance(expr, (ast.Attribute, ast.Subscript, ast.Call)):
        expr = expr.value if not isinstance(expr, ast.Call) else expr.func
    return expr.id if isinstance(expr, ast.Name) else None


def off_the_rule(root: Path = GAME) -> dict[str, str]:
    """"module:Class" -> why, for every class of ``root`` that breaks the rule."""
    out = {}
    for p in sorted(root.rglob("*.py")):
        tree = ast.parse(p.read_text(encoding="utf-8"))
        mod = _module_name(p, root)
        ours = _project_names(tree, mod)
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            why = []
            n = sum(1 for b in node.bases if _root(b) in ours)
            if n > MAX_PROJECT_BASES:
                why.append(f"{n} project bases")
            if node.name.endswith("Mixin"):
                why.append("named *Mixin")
            if why:
                out[f"{mod}:{node.name}"] = ", ".join(why)
    return out


def test_no_class_has_more_than_two_project_bases_nor_is_a_mixin():
    found = off_the_rule()
    new = {k: v for k, v in found.items() if k not in ALLOWED}
    assert not new, f"classes off the shape rule (make them parts a class owns): {new}"


def test_the_allow_list_only_shrinks():
    found = off_the_rule()
    stale = sorted(ALLOWED - set(found))
    assert not stale, f"on the rule now: take them off ALLOWED: {stale}"


def test_the_rule_reads_bases_and_names(tmp_path):
    pkg = tmp_path / "game"
    pkg.mkdir()
    (pkg / "x.py").write_text(
        "from game.a import A, B, C\nimport pygame_gui\n"
        "class Three(A, B, C): pass\n"
        "class TwoAndForeign(A, B, pygame_gui.elements.UIProgressBar): pass\n"
        "class ThingMixin: pass\n"
        "class Local(ThingMixin, A): pass\n")
    assert off_the_rule(pkg) == {"game.x:Three": "3 project bases", "game.x:ThingMixin": "named *Mixin"}


def _is_state(expr, aliases: set[str]) -> bool:
    """``expr`` names a screen's state: ``<anything>.state``, or a local bound to one."""
    return (isinstance(expr, ast.Attribute) and expr.attr == "state") or \
        (isinstance(expr, ast.Name) and expr.id in aliases)


def _state_aliases(func) -> set[str]:
    """The locals of ``func`` bound to a state: ``st = self.state``, ``st, cam = self.state, ...``."""
    out = set()
    for node in ast.walk(func):
        if not isinstance(node, ast.Assign):
            continue
        for t in node.targets:
            pairs = [(t, node.value)]
            if isinstance(t, ast.Tuple) and isinstance(node.value, ast.Tuple) and len(t.elts) == len(node.value.elts):
                pairs = list(zip(t.elts, node.value.elts))
            out |= {a.id for a, v in pairs if isinstance(a, ast.Name) and _is_state(v, set())}
    return out


def _assigned_fields(tree: ast.Module) -> set[str]:
    """The fields of a screen state a module assigns (``<x>.state.f = ``, ``st.f += ``,
    ``st.f[i] = ``, tuple targets and ``for`` targets too, ``st`` a local bound to a state)."""
    out = set()

    def target(t, aliases):
        if isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                target(e, aliases)
        elif isinstance(t, ast.Starred):
            target(t.value, aliases)
        elif isinstance(t, ast.Subscript):
            target(t.value, aliases)
        elif isinstance(t, ast.Attribute) and _is_state(t.value, aliases):
            out.add(t.attr)

    scopes = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
    for scope in [tree] + scopes:
        aliases = _state_aliases(scope) if scope is not tree else set()
        for node in ast.walk(scope):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    target(t, aliases)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                target(node.target, aliases)
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                target(node.target, aliases)
            elif isinstance(node, ast.Delete):
                for t in node.targets:
                    target(t, aliases)
    return out


def _state_fields(module: str, cls: str) -> list[str]:
    path = GAME.parent / (module.replace(".", "/") + ".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    return [s.target.id for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]


def test_the_one_writer_check_reads_state_writes():
    tree = ast.parse("def f(self):\n    st, cam = self.state, 1\n    st.a = 1\n    st.b += 1\n"
                     "    self.state.c[0] = 2\n    del st.d[:3]\n    other.e = 3\n    self.f = 4\n")
    assert _assigned_fields(tree) == {"a", "b", "c", "d"}


def test_each_screen_state_field_is_written_in_one_module():
    writers: dict[str, list[str]] = {}
    trees = {_module_name(p): ast.parse(p.read_text(encoding="utf-8")) for p in sorted(GAME.rglob("*.py"))}
    for module, cls in SCREEN_STATES:
        fields = _state_fields(module, cls)
        assert fields, f"{module}.{cls} declares no fields"
        for f in fields:
            writers[f"{cls}.{f}"] = [m for m, t in trees.items() if f in _assigned_fields(t)]
    many = {k: v for k, v in writers.items() if len(v) > 1}
    assert not many, f"screen state fields written from more than one module: {many}"
