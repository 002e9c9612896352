"""Counterblast in play (through Game.submit, dice forced): Panic and moves, reactions to forced
moves, Half-blind moves, Aim with a split shot, dropping Prone during a move, team actions and the
Engaged sight rule.

Seed: /work/shared/seeds/003_52d4831de0a47706.txt.
"""
import math

from engine.rulesets.common import MoveTo
from engine.rulesets.counterblast import choices as C

from counterblast_fixtures import IN, staged, submit, texts


def _rally_on(g, mid):
    """A Panicked model's first action: Rally with a result of exactly 1 (still Panicked, acts on)."""
    n = g.rules.profile[mid].knack
    g.state.rng.force(7, *([1] * (n - 1)))
    ev = submit(g, C.Rally(mid))
    assert any("still Panicked, but acts on" in t for t in texts(ev))


def _move_problem(g, c):
    d = g.pending()
    return next(sp for sp in d.spaces if isinstance(c, sp.choice_type)).check(c)


# --- 7: a Panicked model may not end a move closer to ANY enemy -----------------------------------

def test_a_panicked_move_may_not_end_closer_to_any_enemy():
    """003_52d4831de0a47706.txt, Panic: 'A panicked model may not end a move closer to an enemy model
    than it started'. Drone 1 is the nearest enemy (4" east), Drone 2 is 6" north: moving
    north-west takes the Ranger away from Drone 1 but closer to Drone 2, which is refused."""
    g = staged({"1-ranger-1": (22, 7), "2-drone-1": (26, 7), "2-drone-2": (22, 13)}, moxie=(3, 0))
    g.state.models["1-ranger-1"].gain("panic")
    submit(g, C.ActivateSingle("1-ranger-1"))
    _rally_on(g, "1-ranger-1")
    toward_far = MoveTo("1-ranger-1", 20 * IN, 8.5 * IN)
    assert _move_problem(g, toward_far) == "a Panicked model may not end a move closer to an enemy"
    away = MoveTo("1-ranger-1", 20 * IN, 6 * IN)       # farther from both
    assert _move_problem(g, away) is None
    submit(g, away)
    assert g.state.models["1-ranger-1"].x == 20 * IN


# --- 8: a Panicked model may not Pursue -----------------------------------------------------------
CONTACT_X = (18 * IN + 15 + 12.5 + 0.3) / IN     # a drone in base contact east of a Ranger at x = 18"


def test_a_panicked_engager_may_not_pursue():
    """003_52d4831de0a47706.txt: 'A panicked model may not end a move closer to an enemy model than it
    started' — Pursuit 'moves towards the Disengaging model', so a Panicked engager is not offered
    it (a Snapshot it may still take)."""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (CONTACT_X, 7)}, moxie=(3, 1))
    g.state.models["2-drone-1"].gain("panic")
    submit(g, C.ActivateSingle("1-ranger-1"))
    submit(g, MoveTo("1-ranger-1", 18 * IN, 4 * IN))
    d = g.pending()
    assert d.player == 2 and C.React("2-drone-1", "snapshot", "pulse-carbine") in d.options
    assert C.React("2-drone-1", "pursuit") not in d.options
