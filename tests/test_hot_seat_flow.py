"""The hot-seat flow as a pure function (issue 48): ``next_screen(session)`` says, after every
change, whether the game screen gives way to the game-over screen or to a pass screen, with no
pygame, no window and no scene. Whole games of each ruleset, stepped by agents, check the privacy
invariant on it alone: every time a different player's decision comes up in hot-seat while the
two players' views differ, a pass screen is asked for before anything of that player's view could
be drawn; never a pass screen when the seat deciding is an AI or the same player goes on."""
from __future__ import annotations

import pytest
from ai_fixtures import HOME  # each ruleset's home map, from the engine

from engine.ai import make_agent
from engine.data.maps import load_named_map
from game.kit.transitions import Push
from game.play.flow import next_screen
from game.session import GameSession


def _private_differs(game) -> bool:
    """The two players' views differ (cards, secret choices, unseen placements, private log lines)."""
    a, b = game.view(1), game.view(2)
    for v in (a, b):
        v.pop("you", None)
    return a != b


def _play_out(ruleset: str, seats: dict, seed: int, deployment: str, limit: int = 4000):
    """Step a whole game through ``next_screen`` as the game screen does: ask it before every
    decision (before anything is drawn), confirm each pass screen as the player taking the device
    would, and answer with random agents. Returns (pass screens asked for, decisions answered)."""
    s = GameSession.new(ruleset, load_named_map(HOME[ruleset]), (), seats, seed,
                        options={"deployment": deployment}, autosave=False)
    agents = {p: make_agent("random", p, seed * 7 + p) for p in (1, 2)}
    for a in agents.values():
        a.attach(s.game.table, s.game.rules)
    hot_seat = list(seats.values()).count("human") == 2
    passes = n = 0
    while n < limit:
        d = s.pending()
        if d is None:
            break
        before = s.eyes
        differs = _private_differs(s.game)
        t = next_screen(s)
        human = s.is_human(d.player)
        if hot_seat and human and d.player != before and differs:
            assert t == Push("pass", {"player": d.player}), (
                f"decision {n}: player {d.player} decides after player {before} with hidden information, "
                f"but next_screen said {t!r}")
            assert s.eyes == before, "the eyes moved before the pass screen was confirmed"
            assert next_screen(s) == t, "asked again before the device was taken: still the pass screen"
            s.confirm_eyes(d.player)                 # the player takes the device
            passes += 1
            assert next_screen(s) is None
        else:
            assert t is None, (f"decision {n}: {t!r} for player {d.player} ({s.seats[d.player]}) "
                               f"after player {before}: a pass screen with nothing to hide, an AI seat or the same player")
        if human:
            # what the screen would draw now is the deciding player's own view, and only theirs
            assert s.eyes == d.player
            if before is not None and before != d.player and not (hot_seat and differs):
                assert s.game.view(before) | {"you": None} == s.game.view(d.player) | {"you": None}
        else:
            assert s.eyes == before, "an AI's decision moved the screen's eyes"
        s.submit(d.player, agents[d.player].choose(d, s.game.view(d.player)))
        n += 1
    assert s.pending() is None, f"{ruleset}: the game did not end in {limit} decisions"
    assert next_screen(s) == Push("game_over")
    assert next_screen(s, game_over_seen=True) is None      # the players came back to look at the table
    return passes, n


@pytest.mark.parametrize("ruleset", sorted(HOME))
@pytest.mark.parametrize("deployment,seed", [("automatic", 3), ("hidden", 3), ("alternate", 8)])
def test_hot_seat_asks_for_the_pass_screen_before_every_private_view(ruleset, deployment, seed):
    passes, n = _play_out(ruleset, {1: "human", 2: "human"}, seed, deployment)
    assert n > 10
    if ruleset == "frontier" or deployment == "hidden":   # cards in hand; unseen placements
        assert passes > 0, f"{ruleset}: a hot-seat game with hidden information and no pass screen"


@pytest.mark.parametrize("ruleset", sorted(HOME))
def test_no_pass_screen_against_an_ai(ruleset):
    passes, _ = _play_out(ruleset, {1: "human", 2: "ai:random"}, 4, "hidden")
    assert passes == 0


def test_two_ais_need_no_pass_screen_and_the_game_over_screen_comes_once():
    passes, _ = _play_out("frontier", {1: "ai:random", 2: "ai:random"}, 5, "automatic")
    assert passes == 0


def test_next_screen_needs_no_pygame():
    """The flow decides from the session alone: its module imports nothing of pygame's itself."""
    import ast
    from pathlib import Path

    import game.play.flow as flow
    tree = ast.parse(Path(flow.__file__).read_text())
    names = {a.name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
             for a in node.names} | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not any(n and n.split(".")[0] in ("pygame", "pygame_gui") for n in names)
    assert not any(n and n.startswith("game.scenes") for n in names)
