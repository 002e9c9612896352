"""Seeded random Counterblast games: every invariant after every decision, every offered option
and sampled move point accepted by a clone, replays equal. Seed: 003_52d4831de0a47706.txt
(Counterblast)."""
import math
import random
from collections import Counter

import pytest
from counterblast_fixtures import CLOSE, OUTPOST, new_game

from engine.ai import make_agent
from engine.core import replay
from engine.rulesets.counterblast import choices as C
from engine.rulesets.counterblast.conditions import CONDITIONS
from engine.rulesets.counterblast.flow.headings import HeadingSpace


def check_invariants(g):
    st, rules = g.state, g.rules
    assert st.moxie[1] >= 0 and st.moxie[2] >= 0 and st.dread[1] >= 0 and st.dread[2] >= 0
    assert 1 <= st.turn <= 6
    live = [m for m in st.models.values() if m.on_table]
    for m in live:
        mettle = rules.profile[m.id].mettle
        assert m.down == (m.tokens >= mettle), m
        assert m.tokens <= 2 * mettle
        assert not m.stable or m.down
        assert not m.down or m.has("prone")
        assert set(m.conditions) <= set(CONDITIONS) and m.conditions == sorted(set(m.conditions))
        for ab in rules.abilities[m.id]:
            assert ab.effect != "immune" or not m.has(ab.condition), (m.id, ab.id)
    for i, a in enumerate(live):
        for b in live[i + 1:]:
            gap = math.hypot(a.x - b.x, a.y - b.y) - rules.radius[a.id] - rules.radius[b.id]
            assert gap > -0.05, (a.id, b.id, gap)
    if st.act is not None:
        assert all(not st.models[i].down and st.models[i].on_table for i in st.act.members)


# Every shipped crew meets every other, in both seats.
PAIRINGS = (("reach-rangers", "iron-choir"), ("dustjaw-raiders", "reach-rangers"), ("iron-choir", "dustjaw-raiders"),
            ("iron-choir", "reach-rangers"), ("reach-rangers", "dustjaw-raiders"), ("dustjaw-raiders", "iron-choir"))


DEPLOYMENTS = ("alternate", "hidden", "groups", "automatic")


def play_checked(seed, mapfile=OUTPOST, clone_options=1, space_every=4, check_replay=False, rosters=(),
                 effects=None, **options):
    """Play a seeded random game, checking the invariants after every decision; at each decision
    ``clone_options`` offered options (picked at random) and, every ``space_every`` decisions, a
    point sampled from the first space (a move, when there is one) and one from every heading
    space (Jump, a Throw's direction) must be accepted by a clone of the game. ``effects`` (a
    Counter) counts the conditions weapons and enigmas inflict, and the headings played: Jumps and
    Throws sent off the eight compass headings ("jump any", "throw any") or on them."""
    options = {"deployment": DEPLOYMENTS[seed % 4], **options}     # each deployment in turn
    g = new_game(seed, mapfile, rosters, **options)
    agents = {p: make_agent("random", p, seed * 31 + p) for p in (1, 2)}
    pick = random.Random(seed)
    n = 0
    while (d := g.pending()) is not None:
        assert d.options or d.spaces
        for opt in pick.sample(d.options, min(clone_options, len(d.options))):
            g.clone().submit(d.player, opt)           # every offered option is accepted
        if n % space_every == 0:
            for sp in list(d.spaces[:1]) + [sp for sp in d.spaces[1:] if isinstance(sp, HeadingSpace)]:
                c = sp.sample(pick)
                if c is not None:
                    g.clone().submit(d.player, c)
        choice = agents[d.player].choose(d, {})                       # the random agent ignores the view
        ev = g.submit(d.player, choice)
        if effects is not None and isinstance(choice, (C.Jump, C.ThrowDirection)):
            kind = "jump" if isinstance(choice, C.Jump) else "throw"
            effects[f"{kind} {'compass' if float(choice.heading) % 45 == 0 else 'any'}"] += 1
        if effects is not None:
            effects.update(e.data["condition"] for e in ev if e.kind == "effect" and "condition" in e.data)
            effects.update("door opened" for e in ev if e.data.get("opened"))
        check_invariants(g)
        n += 1
        assert n < 5000, "the game does not end"
    assert g.result() is not None
    if check_replay:
        assert replay(g.setup, g.decisions).state_hash() == g.state_hash()
    return g


# the 200 games in blocks that xdist's workers share: 120 on the outpost in blocks of 20 seeds
# (about 20 s each), 80 on the close-quarters table in blocks of 40 (the conditions below are asked
# of each block: since issue 58's automatic placement spreads the crews out in cover, one block
# of 20 went without a Half-Blind and another without a hacked gate)
BLOCKS = ([(OUTPOST, first, 20) for first in range(0, 120, 20)]
          + [(CLOSE, 1000 + first, 40) for first in range(0, 80, 40)])


@pytest.mark.parametrize("table, first, count", BLOCKS,
                         ids=[f"{'outpost' if t is OUTPOST else 'close'}-{f}" for t, f, _ in BLOCKS])
def test_random_games_keep_every_invariant(table, first, count):
    results, effects = [], Counter()
    for seed in range(first, first + count):
        i = seed % 1000                               # the game's index on its table, as before the split
        replay_every = 15 if table is OUTPOST else 10
        results.append(play_checked(seed, table, check_replay=i % replay_every == 0, rosters=PAIRINGS[i % 6],
                                    effects=effects).result().winner)
    assert len(results) == count
    conditions = {k for k in effects if not k.startswith(("jump", "throw"))}
    assert conditions <= {"burning", "pinned", "blind", "half_blind", "door opened"}, effects
    # Jumps toward any heading (a sampled point) and along the compass shortcuts are both played
    # (a successful Throw is rare among random crews: headings::test_a_throw_asks_for_the_direction_*
    # plays the throw's direction)
    assert {"jump any", "jump compass"} <= set(effects), effects
    if table is CLOSE:
        # some games are decided (the outpost's random games all run to a draw), the shipped
        # weapons and enigmas cause the conditions the seed leaves without a source, and crews
        # hack the secure gates open: asked of every close-quarters block, so of all 200 games as
        # before the split (measured: all four in every block of 40). Burning
        # (the short-ranged Flamer's) was already rare here; since a random mover ends half its
        # moves Prone (hidden to a short shot), these games no longer reach it:
        # effects::test_flamer_sets_a_target_it_wounds_burning plays it.
        assert results.count(None) < len(results)
        assert {"pinned", "blind", "half_blind", "door opened"} <= conditions, effects


def test_random_games_other_missions():
    for seed, mission in enumerate(("data-heist", "headhunters")):
        g = play_checked(500 + seed, CLOSE, check_replay=True, mission=mission)
        assert g.rules.mission.id == mission


@pytest.mark.long
def test_two_thousand_random_games():
    for seed in range(2000):
        play_checked(10_000 + seed, CLOSE if seed % 2 else OUTPOST, check_replay=seed % 100 == 0,
                     rosters=PAIRINGS[seed % 6])
