"""Frontier's cards at the table (issue 46, item 16): a card that can only be played alone is
committed by one click; one that may lead a pair is lifted first and the hand says what the
next click does. Driven through ``App.step`` with the clicks a hand makes."""
from __future__ import annotations

from client_helpers import app, click, frame  # noqa: F401

from engine.ai import make_agent
from engine.core import Game, Setup
from engine.data.maps import load_named_map
from engine.rulesets.frontier.choices import Commit
from game.render.cards import card_words
from game.session import GameSession


def a_card_decision_with_a_pair():
    g = Game(Setup("frontier", load_named_map("town"), (), {}, 1))
    agents = {p: make_agent("easy", p, 11 + p) for p in (1, 2)}
    for a in agents.values():
        a.attach(g.table, g.rules)
    while (d := g.pending()) is not None:
        if any(isinstance(o, Commit) and len(o.cards) == 2 for o in d.options) and \
                any(isinstance(o, Commit) and len(o.cards) == 1 for o in d.options):
            return g, d
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    raise AssertionError("no leader's pair offered")


def test_a_card_that_may_lead_a_pair_is_lifted_and_the_hand_says_what_next(app):
    from game.scenes.play import PlayScene
    g, d = a_card_decision_with_a_pair()
    scene = PlayScene(app, GameSession(g, {d.player: "human", 3 - d.player: "ai:random"}, autosave=False),
                      "town")
    app.switch(scene)
    frame(app, n=2)
    kept, other = next(o.cards for o in d.options if isinstance(o, Commit) and len(o.cards) == 2)
    alone = Commit((kept,))
    assert alone in d.options and scene.state.hand.pairs_with(kept)
    assert "then click it again to play it alone, or another card for a pair" in scene.state.hand.hint()
    n0 = len(g.decisions)
    rect = dict(scene.state.hand.rects)[kept]
    click(app, (rect.centerx, rect.top + 10))
    assert scene.state.hand.lifted == kept and len(g.decisions) == n0           # lifted, nothing played
    assert scene.state.hand.hint() == (f"{card_words(kept)} lifted: click it again to play it alone, "
                                 "or click a second card to play the pair (the first counts)")
    rect = dict(scene.state.hand.rects)[kept]
    click(app, (rect.centerx, rect.top + 10))
    assert g.decisions[n0] == (d.player, alone)
