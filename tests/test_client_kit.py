"""The client's parts kit (game/kit): the router gives an event to the right panel and stops
there; the kit reaches nothing above it."""
import ast
from pathlib import Path

import pygame

from game.kit import Panel, Router, Say, Submit
from game.kit.panel import TAKEN


class Recorder(Panel):
    def __init__(self, rect, answer=None, modal=False, keys=False):
        super().__init__(rect)
        self.answer, self.modal, self.wants_keys, self.seen = answer, modal, keys, []

    def handle(self, ev):
        self.seen.append(ev.type)
        return self.answer


def _click(pos):
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)


def test_the_panel_under_the_pointer_takes_the_click_and_the_one_on_top_is_asked_first():
    under = Recorder((0, 0, 100, 100), Say("under"))
    over = Recorder((50, 50, 100, 100), Submit("x"))
    r = Router([under, over])
    assert r.route(_click((60, 60))) == Submit("x")
    assert under.seen == []                       # stopped at the panel that took it
    assert r.route(_click((10, 10))) == Say("under")
    assert r.route(_click((500, 500))) is None


def test_a_panel_that_lets_the_event_go_passes_it_down():
    under = Recorder((0, 0, 100, 100), TAKEN)
    over = Recorder((0, 0, 100, 100), None)
    assert Router([under, over]).route(_click((5, 5))) is TAKEN
    assert over.seen and under.seen


def test_a_modal_takes_everything_and_only_the_topmost():
    a = Recorder((0, 0, 100, 100), Say("a"))
    m1 = Recorder((200, 200, 10, 10), None, modal=True)
    m2 = Recorder((300, 300, 10, 10), TAKEN, modal=True)
    r = Router([a, m1, m2])
    assert r.route(_click((5, 5))) is TAKEN
    assert a.seen == [] and m1.seen == [] and m2.seen
    m2.visible = False
    assert r.route(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0)) is None
    assert m1.seen and a.seen == []


def test_keys_go_to_the_panels_that_want_them():
    a = Recorder((0, 0, 10, 10), Say("a"))
    k = Recorder((0, 0, 10, 10), Say("k"), keys=True)
    assert Router([k, a]).route(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=0)) == Say("k")
    assert a.seen == []


def test_the_kit_is_a_leaf():
    for f in (Path(__file__).parents[1] / "game" / "kit").glob("*.py"):
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                for n in names:
                    assert not n.startswith(("game", "engine")), (f.name, n)
