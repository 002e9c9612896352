"""Game.view's log is read incrementally: it must always equal a fresh filter of the events."""
from __future__ import annotations

from engine.ai import make_agent
from engine.core import Game, Setup
from engine.data.maps import load_map
from engine.paths import resolve_map


def test_incremental_view_log_equals_a_fresh_filter_through_a_game_clones_and_a_restore():
    g = Game(Setup("frontier", load_map(resolve_map("town")), (), {}, 11))
    agents = {p: make_agent("random", p, p) for p in (1, 2)}
    n = 0
    while (d := g.pending()) is not None and n < 400:
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
        n += 1
        if n % 37 == 0:
            c = g.clone()
            for who in (1, 2, None):
                want = [e.text for e in g.log if e.visible(who)]
                assert g.view(who)["log"] == want and c.view(who)["log"] == want
            d2 = c.pending()
            if d2 is not None:
                c.submit(d2.player, agents[d2.player].choose(d2, c.view(d2.player)))
                assert c.view(1)["log"] == [e.text for e in c.log if e.visible(1)]
                assert g.view(1)["log"] == [e.text for e in g.log if e.visible(1)]  # the clone did not leak back
    g._restore()
    assert g.view(2)["log"] == [e.text for e in g.log if e.visible(2)]
    assert any("commit" in t.lower() for t in g.view(1)["log"]) or n < 50
