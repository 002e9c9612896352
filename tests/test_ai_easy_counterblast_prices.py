"""The prices easy's Counterblast policy weighs are the engine's own odds (issue 61, item 2: "Use the
engine's odds API (the rules' own odds, not re-derived rules)"). ``engine/ai/cb_odds.py`` feeds the
exact attack chain (``attack_odds.chain``, behind ``Rules.attack_odds``) with the difficulty and
pools the rules' pure functions give from the view; for every Shoot (its label's difficulty and
cover) and Strike option of a seeded easy-v-easy game, the chance to put the target Down is the
one ``Game.attack_odds`` gives (with the Aim-Assist and Dog-pile dice of the activation, which the
agent knows from its own answers), and the shot's difficulty from the view is the label's."""
from engine.ai import make_agent
from engine.ai.cb_odds import Odds, label_numbers
from engine.core import Game, Setup
from engine.data.maps import load_named_map
from engine.rulesets.counterblast.choices import Shoot, Strike


def test_every_shot_and_strike_is_priced_as_the_engine_prices_it():
    g = Game(Setup("counterblast", load_named_map("outpost"), (), {}, 2))
    agents = {p: make_agent("easy", p, 20 + p) for p in (1, 2)}
    for a in agents.values():
        a.attach(g.table, g.rules)
    odds = Odds(g.rules)
    checked = 0
    while (d := g.pending()) is not None:
        v = g.view(d.player)
        for o, label in zip(d.options, d.labels):
            if isinstance(o, Shoot):
                diff, cover = label_numbers(label)
                act = g.state.act      # what the agent knows of its own activation: its Aims and assists
                aimed = act is not None and o.model in act.aimed
                assert diff == odds.shot_difficulty(v, o.model, o.target, aimed=aimed)
                mine = odds.shot(v, o.model, o.weapon, o.target, cover=cover, diff=diff,
                                 bonus=act.assist.get(o.model, 0) if act is not None else 0)
            elif isinstance(o, Strike):
                act = g.state.act
                mine = odds.strike(v, o.model, o.weapon, o.target,
                                   bonus=act.dog_pile.get(o.target, 0) if act is not None else 0)
            else:
                continue
            assert abs(mine[2] - g.attack_odds(o).outcomes[2][1]) < 1e-9, (label, mine)
            checked += 1
        g.submit(d.player, agents[d.player].choose(d, v))
    assert checked > 50


def test_the_float_prices_are_the_exact_chain():
    """``Odds.chance`` reads the floats the labels are worded with (``words._attack_chance``) for
    speed; over a grid of pools, difficulties, damages, explosions, Defense pools, Mettles and
    tokens they are the exact chain's (``attack_odds.chain``) to 1e-9, for all four outcomes."""
    import itertools

    from engine.core import Game, Setup
    from engine.rulesets.counterblast.attack_odds import chain

    odds = Odds(Game(Setup("counterblast", load_named_map("outpost"), (), {}, 1)).rules)
    for dice, diff, dmg, expl, dd, mettle, tokens, down in itertools.product(
            (1, 3, 6), (2, 7, 8), (1, 3), (8, 10), (2, 5), (2, 4), (0, 1, 3, 5), (False, True)):
        if down != (tokens >= mettle) or tokens > 2 * mettle:      # states a game can hold
            continue
        exact = [float(x) for x in chain(dice, diff, dmg, expl, dd, 7, mettle, tokens, down)]
        fast = odds.chance(dice, diff, dmg, expl, dd, {"tokens": tokens, "down": down}, mettle)
        assert all(abs(a - b) < 1e-9 for a, b in zip(exact, fast)), (dice, diff, dmg, expl, dd, mettle, tokens, down)


def test_an_aims_shot_is_read_from_the_label_of_a_shoot_with_two_actions_left():
    from types import SimpleNamespace

    from engine.ai.cb_odds import aim_numbers

    shot, other = Shoot(model="a", weapon="w", target="b"), Shoot(model="a", weapon="w", target="c")
    d = SimpleNamespace(options=[shot, other], labels=["shoot b (difficulty 7, heavy cover)", "shoot c"])
    assert aim_numbers(d, shot, 2) == (7, "heavy")
    assert aim_numbers(d, shot, 1) is None                     # no action left for an Aim first
    assert aim_numbers(d, other, 3) is None                    # a label that states no difficulty
    assert aim_numbers(d, None, 3) is None
    assert aim_numbers(d, Shoot(model="x", weapon="w", target="b"), 3) is None     # not among the options
    assert aim_numbers(SimpleNamespace(options=[shot], labels=[]), shot, 3) is None   # no label for it
