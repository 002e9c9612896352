"""Views for agents leave out the client's drawing (issue 28: "roll-outs ask for views without
the drawing entries"): ``Rules.view(..., drawing=False)`` is the full view less ``pieces``, at
every decision of random games of every ruleset, and the pieces drawn afterwards are the ones a
fresh rules object draws (Counterblast builds a model's piece when first drawn, not when the
model changes, so a piece must not depend on when it is built)."""
from __future__ import annotations

import copy
import random

import pytest
from ai_fixtures import HOME

from engine.ai import make_agent
from engine.core import Game, Setup
from engine.data.maps import load_map
from engine.paths import resolve_map


@pytest.mark.parametrize("ruleset", sorted(HOME))
def test_an_agents_view_is_the_players_view_without_the_pieces(ruleset):
    m = load_map(resolve_map(HOME[ruleset]))
    for seed in (1, 2):
        g = Game(Setup(ruleset, m, (), {}, seed))
        agents = {p: make_agent("random", p, seed * 10 + p) for p in (1, 2)}
        rng = random.Random(seed)
        checked = 0
        while (d := g.pending()) is not None:
            if rng.random() < 0.3:
                p = rng.choice((1, 2, None))
                lean = g.rules.view(g.state, p, drawing=False)
                full = g.rules.view(g.state, p)
                assert "pieces" not in lean and "pieces" in full
                assert lean == {k: v for k, v in full.items() if k != "pieces"}
                # the pieces once the lean views were asked first equal those of rules that never were
                fresh = Game(Setup(ruleset, m, (), {}, seed))
                fresh.state = copy.deepcopy(g.state)
                assert full["pieces"] == fresh.rules.view(fresh.state, p)["pieces"]
                checked += 1
            g.submit(d.player, agents[d.player].choose(d, None))
        assert checked > 10


def test_game_view_passes_the_drawing_flag_and_keeps_the_log():
    g = Game(Setup("doubles", load_map(resolve_map(HOME["doubles"])), (), {}, 3))
    a = make_agent("random", 1, 1)
    for _ in range(12):
        d = g.pending()
        g.submit(d.player, (a if d.player == 1 else make_agent("random", 2, 2)).choose(d, None))
    lean, full = g.view(1, drawing=False), g.view(1)
    assert "pieces" not in lean and full["pieces"]
    assert lean["log"] == full["log"] and lean["log"]
