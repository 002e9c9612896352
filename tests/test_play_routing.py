"""The game screen's dispatch tables (issue 63, ``game/play/routing.py``): every intent a panel, a
tool, a key or a button of the screen can give has its entry in ``Routing.INTENTS``, and every
named command in ``Routing.COMMANDS`` (a name missing from a table is silently not done: this is
the check that none is). The names are read from what the screen's parts return: each key through
``key_intent``, each button through ``button_intent``, and every ``Command("...")`` written under
``game/play/`` (read with ``ast``)."""
from __future__ import annotations

import ast
from pathlib import Path

import pygame
from client_helpers import app, game_screen  # noqa: F401

from engine.core import Game, Setup
from engine.data.maps import load_named_map
from game.kit import Click, Command, Hover, PickCards, PickDice, PickOption, Say, Submit, Toggle, Undo
from game.play.keys import key_intent
from game.play.panels import BUTTONS, button_intent

PLAY = Path(__file__).resolve().parent.parent / "game" / "play"


def commands_written(root: Path = PLAY) -> set[str]:
    """The names of every ``Command("name", ...)`` written in ``root``'s modules."""
    names = set()
    for p in root.rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Command" and node.args \
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                names.add(node.args[0].value)
    return names


def _given() -> list:
    """What the keys and buttons give: each key with and without Ctrl, answering or not."""
    out = [button_intent(key) for row in BUTTONS for key, _, _ in row]
    for k in range(pygame.K_a, pygame.K_z + 1):
        out += [key_intent(pygame.event.Event(pygame.KEYDOWN, key=k, mod=m), a)
                for m in (0, pygame.KMOD_CTRL) for a in (False, True)]
    for k in (pygame.K_F1, pygame.K_F2, pygame.K_HOME, pygame.K_ESCAPE, pygame.K_TAB, pygame.K_PLUS,
              pygame.K_MINUS, pygame.K_EQUALS, pygame.K_KP_PLUS, pygame.K_KP_MINUS, *range(pygame.K_1, pygame.K_9 + 1)):
        out.append(key_intent(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0), True))
    return [i for i in out if i is not None]


def test_the_check_reads_the_commands_written(tmp_path):
    (tmp_path / "x.py").write_text('def f(a):\n    return Command("one", a) or Command(a) or Other("two")\n')
    assert commands_written(tmp_path) == {"one"}


def test_every_intent_and_command_of_the_screen_has_its_entry(app):  # noqa: F811
    scene = game_screen(app, Game(Setup("frontier", load_named_map("town"), (), {}, 1)), {1: "human", 2: "human"})
    routing = scene.routing
    kinds = {Submit, Undo, PickCards, PickOption, PickDice, Say, Hover, Click, Toggle, Command, tuple}
    assert kinds <= set(routing.INTENTS), kinds - set(routing.INTENTS)
    given = _given()
    assert {type(i) for i in given} <= set(routing.INTENTS)
    names = commands_written() | {i.name for i in given if isinstance(i, Command)}
    assert {"save", "load", "help", "menu", "hint", "escape", "next model", "hotkey", "speed"} <= names
    missing = sorted(names - set(routing.COMMANDS))
    assert not missing, f"commands of the game screen that no entry of Routing.COMMANDS does: {missing}"
