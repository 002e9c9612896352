"""The client's import graph keeps its shape (issue 48), read with ``ast`` from the sources: every
``import`` and ``from ... import`` counts, at the top of a module or inside a function.

- ``game/`` has no import cycle between its modules;
- no upward arrow between its layers (``LAYERS``, lowest first; ``docs/architecture.md`` says the
  same): a module imports only from its own layer or below, so a panel, a tool or a part of a
  screen never imports a scene, and a scene never imports the app;
- a scene module never imports another scene module (``game/scenes/base.py``, the ``Scene`` base
  class, is not a scene);
- nothing under ``game/kit``, ``game/render`` (or ``game/presenters``) imports ``game.session``;
- ``game/kit`` imports nothing of ``game`` or ``engine``.

Exceptions are explicit (``ALLOWED_*``), each naming one import and why it is still there, so the
lists only shrink.
"""
from __future__ import annotations

import ast
from pathlib import Path

GAME = Path(__file__).resolve().parent.parent / "game"

# The layers of game/, lowest first. A unit is a folder of game/ (its modules) or a module at
# game/'s top. An arrow may go to the same layer or a lower one, never up.
LAYERS: list[tuple[str, set[str]]] = [
    ("leaves", {"kit", "assets", "userdirs", "names", "__init__"}),
    ("render", {"render"}),                          # drawing: fonts, the table, overlays, pictures
    ("ui", {"ui", "presenters"}),                    # panels of the game screen (view in, pixels out)
    ("model", {"settings", "session", "controllers", "net"}),   # the game in play (local or over the
                                                     # network), its seats, its answers
    ("parts", {"play", "editor", "forces",           # the parts of the game screen, the editor, the force builder
               "launch"}),                           # and the launcher (what it offers and checks, its widgets)
    ("scenes", {"scenes", "crash"}),                 # screens (the crash screen is one)
    ("app", {"app", "table_app", "cli"}),            # the window, its loop and registry; the commands
                                                     # (game/cli/, one module per subcommand)
]

# Upward arrows still there: (importer, imported), each with why. None today.
ALLOWED_UPWARD: dict[tuple[str, str], str] = {}

# A scene importing another scene: (importer, imported), each with why. None today (a replay is
# the game screen on a record, ``game/play/source.py``, no longer a subclass of it).
ALLOWED_SCENE_IMPORTS: dict[tuple[str, str], str] = {}

# Import cycles still there: frozensets of the modules in one, each with why. None today.
ALLOWED_CYCLES: dict[frozenset, str] = {}

NO_SESSION = ("game.kit", "game.render", "game.presenters")


def _modules(root: Path = GAME) -> dict[str, tuple[Path, bool]]:
    """Every module of the package: dotted name -> (file, is a package's __init__)."""
    out = {}
    for p in sorted(root.rglob("*.py")):
        parts = list(p.relative_to(root.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        out[".".join(parts)] = (p, is_pkg)
    return out


def imported_names(source: str, module: str, is_pkg: bool) -> set[str]:
    """The dotted names ``source`` imports anywhere (module level, functions, classes), relative
    imports made absolute; ``from a import b`` gives ``a.b`` (b a module, or a name in module a)."""
    pkg = module if is_pkg else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")[:len(pkg.split(".")) - node.level + 1]
                full = ".".join(base + ([node.module] if node.module else []))
            else:
                full = node.module or ""
            names |= {full if a.name == "*" else f"{full}.{a.name}" for a in node.names}
    return names


def _graph(root: Path = GAME) -> dict[str, set[str]]:
    """Module -> the modules of game/ it imports (the most specific module each name names)."""
    mods = _modules(root)

    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    edges = {}
    for m, (p, is_pkg) in mods.items():
        names = imported_names(p.read_text(encoding="utf-8"), m, is_pkg)
        edges[m] = {resolve(n) for n in names if n == "game" or n.startswith("game.")} - {m, None}
    return edges


def unit(module: str) -> str:
    parts = module.split(".")
    return "__init__" if len(parts) == 1 else parts[1]


def layer(module: str) -> int:
    u = unit(module)
    for i, (_, units) in enumerate(LAYERS):
        if u in units:
            return i
    raise AssertionError(f"{module}: its unit {u!r} is in no layer of LAYERS (place it)")


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_imports_inside_functions_count():
    src = "import os\nfrom . import sibling\ndef f():\n    from game.scenes.play import PlayScene\n" \
          "class C:\n    def g(self):\n        from ..render.text import font\n"
    names = imported_names(src, "game.ui.panel", False)
    assert names == {"os", "game.ui.sibling", "game.scenes.play.PlayScene", "game.render.text.font"}


def test_the_checks_see_what_they_forbid(tmp_path):
    """A planted tree: a cycle through an import inside a function, an upward arrow from a panel to
    a scene, a scene importing a scene; the graph finds each."""
    files = {"__init__.py": "", "render/__init__.py": "", "ui/__init__.py": "", "scenes/__init__.py": "",
             "render/text.py": "def f():\n    from . import overlays\n",
             "render/overlays.py": "from .text import f\n",
             "ui/panel.py": "def g():\n    from game.scenes.play import PlayScene\n",
             "scenes/play.py": "from game.render.text import f\n",
             "scenes/replay.py": "def h():\n    from .play import PlayScene\n"}
    for name, text in files.items():
        (tmp_path / "game" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "game" / name).write_text(text)
    edges = _graph(tmp_path / "game")
    assert _cycles(edges) == [["game.render.overlays", "game.render.text"]]
    assert "game.scenes.play" in edges["game.ui.panel"] and layer("game.scenes.play") > layer("game.ui.panel")
    assert edges["game.scenes.replay"] == {"game.scenes.play"}


def test_every_module_of_game_is_in_a_layer():
    for m in _modules():
        layer(m)


def test_game_has_no_import_cycle():
    found = [c for c in _cycles(_graph()) if frozenset(c) not in ALLOWED_CYCLES]
    assert not found, f"import cycles in game/: {found}"


def test_no_upward_arrow_between_the_layers():
    edges = _graph()
    up = sorted((m, t) for m, out in edges.items() for t in out
                if layer(t) > layer(m) and (m, t) not in ALLOWED_UPWARD)
    words = [f"{m} ({LAYERS[layer(m)][0]}) imports {t} ({LAYERS[layer(t)][0]})" for m, t in up]
    assert not up, "upward arrows:\n" + "\n".join(words)
    stale = [k for k in ALLOWED_UPWARD if k[1] not in edges.get(k[0], ())]
    assert not stale, f"allowed but no longer there (take them off the list): {stale}"


def test_a_scene_never_imports_another_scene():
    edges = _graph()
    scenes = {m for m in edges if m.startswith("game.scenes.") and m != "game.scenes.base"}
    bad = sorted((m, t) for m in scenes for t in edges[m]
                 if t in scenes and (m, t) not in ALLOWED_SCENE_IMPORTS)
    assert not bad, f"scenes importing scenes: {bad}"
    stale = [k for k in ALLOWED_SCENE_IMPORTS if k[1] not in edges.get(k[0], ())]
    assert not stale, f"allowed but no longer there (take them off the list): {stale}"


def test_only_the_app_builds_scenes():
    """Transitions: outside game/scenes only game/app.py (the registry) imports a scene module;
    game/crash.py and the starts reach the base class only."""
    edges = _graph()
    scenes = {m for m in edges if m.startswith("game.scenes.") and m != "game.scenes.base"}
    bad = sorted((m, t) for m, out in edges.items() for t in out
                 if t in scenes and not m.startswith("game.scenes.") and m != "game.app")
    assert not bad, f"scene modules imported outside the app's registry: {bad}"


def test_the_kit_render_and_presenters_never_read_the_session():
    edges = _graph()
    bad = sorted((m, t) for m, out in edges.items() for t in out
                 if m.startswith(NO_SESSION) and t == "game.session")
    assert not bad, f"these read the session: {bad}"


def test_the_kit_imports_nothing_of_game_or_engine():
    for m, (p, is_pkg) in _modules().items():
        if not (m == "game.kit" or m.startswith("game.kit.")):
            continue
        for n in imported_names(p.read_text(encoding="utf-8"), m, is_pkg):
            top = n.split(".")[0]
            assert top not in ("engine", "game") or n.startswith("game.kit"), f"{m} imports {n}"


# --- the screens' size (issue 63). The shape rule itself (no class of game/ with more than 2
# project bases, none named *Mixin) and the screen states' one-writer check: tests/test_shape_rule.py.
# The screens' methods, counting their bases (functions and properties of every class of game/ in
# the MRO, each name once): at most 25 each (issue 63). PlayScene had 110 over 13 classes; 11 since
# its mixins became owned parts. A screen not yet at 25 has its count today as a ceiling that may
# only go down.
MAX_SCREEN_METHODS: dict[str, int] = {
    "game.scenes.editor.EditorScene": 25,
    "game.scenes.play.PlayScene": 25,
}


def screen_methods(cls) -> set[str]:
    """The names of the functions and properties a screen class has from the classes of game/ in
    its MRO (its own and its bases')."""
    import inspect
    names = set()
    for c in cls.__mro__:
        if c.__module__.startswith("game."):
            names |= {k for k, v in vars(c).items()
                      if inspect.isfunction(v) or isinstance(v, (staticmethod, classmethod, property))}
    return names


def test_the_screens_methods_only_go_down():
    import importlib
    for dotted, ceiling in MAX_SCREEN_METHODS.items():
        mod, _, name = dotted.rpartition(".")
        got = screen_methods(getattr(importlib.import_module(mod), name))
        assert len(got) <= ceiling, f"{dotted}: {len(got)} methods counting its bases (at most {ceiling})"
