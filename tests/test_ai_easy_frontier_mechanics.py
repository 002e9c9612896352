"""Frontier's mechanics in easy's play (issue 61, item 2): for each, a scripted position where it is
clearly the better play, where easy takes it, and one where it is clearly wrong, where easy does
not. Stacked hands and placed models (the helpers of test_frontier_rules.py); easy answers from
its player's view only."""
from __future__ import annotations

from test_frontier_rules import OPEN, contact, deal, new_game, place, stack, submit, to_main

from engine.ai import make_agent
from engine.rulesets.common import MoveTo
from engine.rulesets.frontier.rules import Commit, Drink, Fight, Hold, Shoot, Steal


def easy_answer(g, seed: int = 3):
    d = g.pending()
    a = make_agent("easy", d.player, seed)
    a.attach(g.table, g.rules)
    return d, a.choose(d, g.view(d.player))


def out_of_action(g, *ids):
    """Models that play no part in the position (their wounds at 0: out of action)."""
    for i in ids:
        g.state.models[i].wounds = 0
    g._pending_ok = False


def only(g, keep):
    """Every model out of action but ``keep``."""
    out_of_action(g, *[i for i in g.state.models if i not in keep])


# --- Slippery Paws: the Bootleggers' leader's pair steals ---------------------------------------

def _kingpin_fights(victim_items):
    g = new_game(rosters=("bootleggers", "sheriffs"))
    stack(g, 1, ["9C", "9H", "2D", "3D", "4S", "5S", "6D", "8D"])
    stack(g, 2, ["3D", "4D", "5S", "6D", "7S", "8D", "10D", "JD"])
    place(g, "p2-posseman_3", *OPEN)
    g.state.models["p2-posseman_3"].items = list(victim_items)
    contact(g, "p1-kingpin", "p2-posseman_3")
    to_main(g, 1)
    submit(g, Fight("p1-kingpin", "p2-posseman_3", "hatchet"))
    return g


def test_the_bootlegger_leader_plays_its_pair_to_steal_a_gun():
    """The posseman's derringer is his only gun: a pair of nines (the test as the lone nine, the
    best single, would play it) takes it. Before issue 61 easy never played the pair (the steal was worth nothing
    to it, and the pair cost a second card), so Slippery Paws was never seen."""
    g = _kingpin_fights(["derringer", "switchblade", "whiskey"])
    d, c = easy_answer(g)
    assert d.kind == "attack card"
    assert isinstance(c, Commit) and len(c.cards) == 2 and {x[0] for x in c.cards} == {"9"}


def test_no_pair_when_there_is_nothing_to_steal():
    """The victim carries nothing worth under $10: the pair would only waste a card."""
    g = _kingpin_fights(["revolver"])
    d, c = easy_answer(g)
    assert d.kind == "attack card" and isinstance(c, Commit) and len(c.cards) == 1


def test_slippery_paws_takes_what_hurts_most_not_the_dearest_item():
    """Asked which item: the derringer ($9) leaves the posseman without a gun; a padded vest ($6)
    is worth more than a hatchet ($8) to a Kingpin who has a hatchet and no vest. Before
    issue 61 easy took the dearest."""
    g = _kingpin_fights(["derringer", "switchblade", "whiskey"])
    submit(g, Commit(("9C", "9H")))
    submit(g, Commit(("3D",)))
    d, c = easy_answer(g)
    assert d.kind == "steal" and c == Steal("derringer")
    g2 = _kingpin_fights(["revolver", "hatchet", "padded_vest"])
    submit(g2, Commit(("9C", "9H")))
    submit(g2, Commit(("3D",)))
    d, c = easy_answer(g2)
    # the vest ($6), not the hatchet ($8, the dearest): the victim loses a point of defence and
    # the thief (no clothing) gains one, where the Kingpin has a hatchet already
    assert d.kind == "steal" and c == Steal("padded_vest")


# --- Drink ------------------------------------------------------------------------------------

def test_a_drink_waits_for_a_wound_it_can_fully_heal():
    """Hooch heals 2: the Kingpin one wound down keeps it in the movement phase (drunk now,
    half of it would be wasted), and drinks it two wounds down."""
    g = new_game(rosters=("bootleggers", "sheriffs"))
    g.state.models["p1-kingpin"].wounds = 4
    g.state.priority = g.state.active = 1
    g._pending_ok = False
    d, c = easy_answer(g)
    assert d.kind == "move" and Drink("p1-kingpin", "hooch") in d.options
    assert not isinstance(c, Drink)
    g.state.models["p1-kingpin"].wounds = 3
    g._pending_ok = False
    d, c = easy_answer(g)
    assert c == Drink("p1-kingpin", "hooch")


def test_a_wounded_defender_drinks_before_the_hit_lands():
    """Defending one wound down, the Kingpin drinks now: a hit could take him out before a later
    drink (here he has 1 wound left of 5: a revolver hit kills)."""
    g = new_game(rosters=("sheriffs", "bootleggers"))
    stack(g, 1, ["9S", "10S", "JS", "QS", "KS", "2H", "3H", "4H"])
    stack(g, 2, ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"])
    place(g, "p2-kingpin", *OPEN)
    place(g, "p1-marshal", OPEN[0] - 6, OPEN[1])
    g.state.models["p2-kingpin"].wounds = 4
    to_main(g, 1)
    submit(g, Shoot("p1-marshal", "p2-kingpin", "revolver", ""))
    submit(g, Commit(("9S",)))
    d, c = easy_answer(g)
    assert d.kind == "defend card" and c == Drink("p2-kingpin", "hooch")


# --- Fight ------------------------------------------------------------------------------------

def _brawl_table():
    """A game with only the Gang Boss, a ganger, a posseman and the Marshal on the table, both
    hands stacked with middling cards."""
    g = new_game()
    only(g, ("p2-boss", "p2-outlaw_1", "p1-posseman_1", "p1-marshal"))
    deal(g, ["4S", "5H", "6C", "7D", "8S", "9H", "10C", "JH"], ["4D", "5C", "6S", "7H", "8C", "9S", "10H", "JC"])
    return g


def test_a_strong_brawler_fights_rather_than_take_a_poor_shot():
    """The Gang Boss (strength 3, hatchet +2) in contact with a 2-wound posseman; the other shot
    on offer is a ganger's at the Marshal (defence 3, vest) a long way off: fight."""
    g = _brawl_table()
    place(g, "p1-posseman_1", *OPEN)
    contact(g, "p2-boss", "p1-posseman_1")
    place(g, "p1-marshal", OPEN[0] - 10, OPEN[1] + 4)
    place(g, "p2-outlaw_1", OPEN[0] + 1, OPEN[1] + 4)
    to_main(g, 2)
    d, c = easy_answer(g)
    fights = [o for o in d.options if isinstance(o, Fight)]
    assert fights and any(isinstance(o, Shoot) for o in d.options)
    assert isinstance(c, Fight) and c.model == "p2-boss"


def test_a_weak_ganger_does_not_brawl_with_the_marshal_when_a_sure_shot_is_there():
    """A posseman (strength 1, switchblade) in contact with the Gang Boss (defence 3, 6 wounds);
    the Marshal (shooting 4) has a shot at a one-wound outlaw 8\" away (a little of him hidden,
    no cover): shoot."""
    g = _brawl_table()
    place(g, "p2-boss", *OPEN)
    contact(g, "p1-posseman_1", "p2-boss")
    place(g, "p2-outlaw_1", OPEN[0] - 4, OPEN[1] + 5)
    g.state.models["p2-outlaw_1"].wounds = 1
    place(g, "p1-marshal", OPEN[0] + 4, OPEN[1] + 5)
    to_main(g, 1)
    d, c = easy_answer(g)
    assert any(isinstance(o, Fight) for o in d.options)
    assert isinstance(c, Shoot) and c.model == "p1-marshal" and c.target == "p2-outlaw_1"


# --- card play and next turn's priority ---------------------------------------------------------

def _attack_with(played, hand, target_wounds=None):
    g = new_game()
    only(g, ("p1-marshal", "p2-outlaw_1"))
    stack(g, 1, hand)
    g.state.cards[1].played = [__import__("engine.rulesets.frontier.cards", fromlist=["card"]).card(x) for x in played]
    stack(g, 2, ["4D", "5C", "6S", "7H", "8C", "9S", "10H", "JC"])
    place(g, "p2-outlaw_1", *OPEN)
    place(g, "p1-marshal", OPEN[0] - 6, OPEN[1])
    if target_wounds is not None:
        g.state.models["p2-outlaw_1"].wounds = target_wounds
    to_main(g, 1)
    submit(g, Shoot("p1-marshal", "p2-outlaw_1", "revolver", ""))
    return g


def test_a_card_that_pairs_a_face_up_card_is_spent_for_next_turns_priority():
    """The Marshal shoots a ganger with the eight of hearts, his best card here, a tenth of a
    wound better than the seven; with a seven lying face up the seven makes a pair for next
    turn's priority, worth more than that tenth: the seven. (Before issue 61: the eight,
    whatever lay face up.)"""
    hand = ["7H", "8H", "2D", "3D", "4D", "5D", "6C", "2C"]
    g = _attack_with(["KC"], hand)
    d, c = easy_answer(g)
    assert d.kind == "attack card" and c == Commit(("8H",))
    g = _attack_with(["7C", "KC"], hand)                       # the seven pairs now
    d, c = easy_answer(g)
    assert c == Commit(("7H",))


def test_priority_does_not_buy_a_lost_test():
    """A two pairs the two face up, but an ace makes the shot: the Marshal's ace of spades
    (+2, favoured) against a ganger on his last wound, where a two leaves him standing."""
    hand = ["2H", "AS", "KD", "QD", "JD", "10D", "9D", "5C"]
    g = _attack_with(["2C"], hand, target_wounds=3)
    d, c = easy_answer(g)
    assert d.kind == "attack card" and c != Commit(("2H",))


# --- the movement phase's order ---------------------------------------------------------------

def test_the_model_with_a_charge_moves_first_not_the_first_of_the_roster():
    """Deputy 2 (hatchet) can charge a wounded posseman in the open; the Gang Boss, the first of
    the posse still to move and its leader, stands far off. A charge comes first, whoever makes
    it. Before issue 61 the boss moved first (roster order) and the posseman could walk away
    before the deputy's turn came."""
    g = new_game()
    only(g, ("p2-boss", "p2-deputy_2", "p1-posseman_1", "p1-marshal"))
    place(g, "p1-posseman_1", *OPEN)
    g.state.models["p1-posseman_1"].wounds = 1
    place(g, "p2-deputy_2", OPEN[0], OPEN[1] + 3)
    place(g, "p2-boss", 45, 33)
    place(g, "p1-marshal", 4, 30)
    g.state.priority = g.state.active = 2
    g._pending_ok = False
    d, c = easy_answer(g)
    assert d.kind == "move"
    assert d.spaces[0].base.id == "p2-boss"    # the roster's first
    assert isinstance(c, MoveTo) and c.model == "p2-deputy_2" and easy_is_contact(g, c)


def test_the_leader_moves_before_the_gangers_whatever_order_the_question_lists():
    """No charge on offer (the posses in their zones): the Marshal, the posse's leader, moves (or
    holds) first, then the deputies, then the gangers, whatever order the decision lists the
    models in (a built posse may list its gangers first). Before issue 61: the first listed."""
    import dataclasses

    g = new_game()
    g.state.priority = g.state.active = 1
    g._pending_ok = False
    d = g.pending()
    backwards = dataclasses.replace(d, spaces=tuple(reversed(d.spaces)))
    assert backwards.spaces[0].base.id != "p1-marshal"
    a = make_agent("easy", 1, 3)
    a.attach(g.table, g.rules)
    c = a.choose(backwards, g.view(1))
    assert isinstance(c, (MoveTo, Hold)) and c.model == "p1-marshal"


def test_a_weak_ganger_does_not_charge_the_marshal():
    """The only model within a charge of an enemy is a posseman (strength 1) next to the Gang
    Boss: no charge; the first move made is not a contact move into the boss."""
    g = new_game()
    only(g, ("p2-boss", "p1-posseman_1", "p1-deputy_1"))
    place(g, "p2-boss", *OPEN)
    place(g, "p1-posseman_1", OPEN[0] - 4, OPEN[1])
    g.state.priority = g.state.active = 1
    g._pending_ok = False
    d, c = easy_answer(g)
    assert d.kind == "move"
    if isinstance(c, MoveTo):
        b = g.state.models["p2-boss"]
        gap = ((c.x - b.x) ** 2 + (c.y - b.y) ** 2) ** 0.5 - 2 * b.radius
        assert not (c.model == "p1-posseman_1" and gap <= 1.0)
    else:
        assert isinstance(c, (Hold, Drink))


def easy_is_contact(g, c: MoveTo) -> bool:
    m = g.state.models[c.model]
    return any(e.player != m.player and e.wounds > 0
               and ((c.x - e.x) ** 2 + (c.y - e.y) ** 2) ** 0.5 - e.radius - m.radius <= 1.0
               for e in g.state.models.values())
