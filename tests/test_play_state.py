"""The game screen's state (``game/play/state.py``, issue 63): every field is written from one
module of game/ only, its owner, as the field's comment says. Read with ``ast`` from the sources: an
assignment (plain, augmented or annotated, or a name in a tuple target) to ``<something>.field``
where the something is the state (``self.state``, ``state``, ``st``, ``s`` or ``<x>.state``) counts
for the module it is in."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from game.play.state import PlayState

GAME = Path(__file__).resolve().parent.parent / "game"
STATE_NAMES = {"state", "st", "s"}


def _is_state(node) -> bool:
    """``state``, ``st``, ``s``, or an attribute named ``state`` (``self.state``, ``scene.state``)."""
    return (isinstance(node, ast.Name) and node.id in STATE_NAMES) or \
        (isinstance(node, ast.Attribute) and node.attr == "state")


def _targets(node):
    if isinstance(node, ast.Assign):
        out = list(node.targets)
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        out = [node.target]
    else:
        return []
    flat = []
    while out:
        t = out.pop()
        if isinstance(t, (ast.Tuple, ast.List)):
            out.extend(t.elts)
        else:
            flat.append(t)
    return flat


def writers(fields: set[str], root: Path = GAME) -> dict[str, set[str]]:
    """Each field of ``fields`` -> the modules of ``root`` that assign it on a state."""
    out: dict[str, set[str]] = {f: set() for f in fields}
    for p in sorted(root.rglob("*.py")):
        mod = p.relative_to(root.parent).with_suffix("").as_posix().replace("/", ".")
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            for t in _targets(node):
                if isinstance(t, ast.Attribute) and t.attr in fields and _is_state(t.value):
                    out[t.attr].add(mod)
    return out


def test_the_check_sees_every_kind_of_write(tmp_path):
    (tmp_path / "game" / "play").mkdir(parents=True)
    (tmp_path / "game" / "play" / "a.py").write_text(
        "def f(self, st):\n    self.state.t = 1\n    st.mouse += 1\n    w, st.worker = 1, 2\n")
    (tmp_path / "game" / "play" / "b.py").write_text(
        "def g(scene, s):\n    scene.state.t: float = 2\n    s.mouse = 0\n    other.mouse = 3\n")
    got = writers({"t", "mouse", "worker", "cam"}, tmp_path / "game")
    assert got == {"t": {"game.play.a", "game.play.b"}, "mouse": {"game.play.a", "game.play.b"},
                   "worker": {"game.play.a"}, "cam": set()}


def test_each_field_of_the_play_state_has_one_writer():
    fields = {f.name for f in dataclasses.fields(PlayState)}
    many = {f: sorted(mods) for f, mods in writers(fields).items() if len(mods) > 1}
    assert not many, "fields of PlayState written from more than one module (give each one owner):\n" + \
        "\n".join(f"{f}: {', '.join(mods)}" for f, mods in sorted(many.items()))
