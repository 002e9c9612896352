"""Easy's Counterblast policy charges into melee where a Strike beats its shot (issue 61, item 2).
Seed: ../shared/seeds/003_52d4831de0a47706.txt, Strike ("The range of the attack is the chosen
weapon's Reach stat ... rolled with the Grit ability ... Multiply the result ... by the chosen
weapon's damage") and Move. The prices are the engine's exact odds (``engine/ai/cb_odds.py``)."""
import math

from counterblast_fixtures import staged, submit

from engine.ai import make_agent
from engine.rulesets.common import MoveTo
from engine.rulesets.counterblast import choices as C

ROSTERS = ("dustjaw-raiders", "reach-rangers")


def _easy(g, player=1):
    agent = make_agent("easy", player, 5)
    agent.attach(g.table, g.rules)
    return agent


def _activated(model, at, target_at=(24.8, 6.2)):
    g = staged({model: at, "2-ranger-1": target_at, "2-captain": (40, 30)}, moxie=(3, 2), rosters=ROSTERS)
    return g


def test_grekka_charges_a_ranger_and_strikes_with_the_maul():
    """Warboss Grekka (Grit 6, Shock Maul: Damage 3) 3.4" from a Ranger (Grit 3, Defense 3) in
    the open: his Scattergun (Zap 3, Damage 2) puts it Down 30% of the time Aimed, the Maul from
    base contact 81%. Easy is activated for it, moves into contact and Strikes."""
    g = _activated("1-grekka", (20, 6))
    easy = _easy(g)
    assert easy.choose(g.pending(), g.view(1)) == C.ActivateSingle("1-grekka")
    submit(g, C.ActivateSingle("1-grekka"))
    d = g.pending()
    shot = max((g.attack_odds(o).p("Down") for o in d.options if isinstance(o, C.Shoot)), default=0.0)
    c = easy.choose(d, g.view(1))
    assert type(c) is MoveTo and c in d.options          # the rules' own contact move
    submit(g, c)
    while g.pending().player == 2:
        submit(g, C.NoReaction())
    c = easy.choose(g.pending(), g.view(1))
    assert isinstance(c, C.Strike) and c.target == "2-ranger-1"
    assert g.attack_odds(c).p("Down") > shot + 0.3


def test_slink_with_a_knife_shoots_instead_of_charging():
    """Slink (Grit 2, Combat Knife: Damage 1) at the same distance: the knife from contact puts the
    Ranger Down about 4% of the time and the Ranger's knife answers as hard; the Long Rifle
    (Damage 2) 43% unaimed. Easy does not take the contact move it is offered: it Aims to shoot."""
    g = _activated("1-slink", (20, 6))
    submit(g, C.ActivateSingle("1-slink"))
    d = g.pending()
    assert any(type(o) is MoveTo and in_contact(g, o, "2-ranger-1") for o in d.options)
    assert _easy(g).choose(d, g.view(1)) == C.Aim("1-slink")


def in_contact(g, mv, target):
    t = g.state.models[target]
    gap = math.hypot(t.x - mv.x, t.y - mv.y) - g.rules.radius[mv.model] - g.rules.radius[target]
    return gap <= 1.0


# ---------------------------------------------------------------- Throw: off a marker in the last turn
# 003, Throw: "On a success, choose a direction and move the target by the Check result in inches
# as though it Jumped ... It lands Prone." Salvage Rights scores each marker at the game's end.
AT_MARKER = {"1-grekka": (8.4, 17.2), "2-captain": (6.9, 16.9), "2-ranger-1": (40, 30)}


def _grekka_at_the_west_depot(turn):
    """Grekka and Captain Vell in base contact, both within 3" of the West Depot (10", 18"):
    neither crew controls it."""
    g = staged(AT_MARKER, moxie=(3, 2), rosters=ROSTERS)
    g.state.turn = turn
    submit(g, C.ActivateSingle("1-grekka"))
    assert g.view(1)["objectives"][0]["held_by"] is None
    return g


def test_in_the_last_turn_grekka_throws_the_captain_off_the_marker():
    """Turn 6 of 6: the Maul puts the Captain Down 72% of the time; a Grit result of 2 or more
    (95%) throws him out of the marker's 3", leaving it to Grekka. Easy Throws, sends him the way
    that needs the fewest inches, and the marker is Grekka's."""
    g = _grekka_at_the_west_depot(6)
    easy = _easy(g)
    d = g.pending()
    strike = next(g.attack_odds(o).p("Down") for o in d.options if isinstance(o, C.Strike))
    c = easy.choose(d, g.view(1))
    assert c == C.Throw("1-grekka", "2-captain") and strike < 0.8
    g.state.rng.force(8, 8, 1, 1, 1, 1)       # Grit 6d10 vs 7: a result of 2, so 2"
    submit(g, c)
    d = g.pending()
    assert d.kind == "throw direction"
    submit(g, easy.choose(d, g.view(1)))
    assert g.view(1)["objectives"][0]["held_by"] == 1


def test_before_the_last_turn_grekka_strikes_the_captain():
    """The same position on turn 5: the Captain would walk back; the Maul's 72% is the better
    attack, and easy Strikes."""
    g = _grekka_at_the_west_depot(5)
    assert isinstance(_easy(g).choose(g.pending(), g.view(1)), C.Strike)


# ---------------------------------------------------------------- Dog-pile in a group's Strike
# 003, Dog-Pile: "The next model to resolve a Strike action against the model within the same
# activation gains +1D on their first Grit Check during that action. Multiple Dog piles on the same
# target stack."
def _strike_step(rosters, positions, group, active, dice=()):
    g = staged(positions, active=active, moxie=(4, 4), rosters=rosters)
    submit(g, C.ActivateGroup(group))
    submit(g, C.GroupAction("strike"))
    g.state.rng.force(*dice)
    agent = _easy(g, active)
    answers = []
    while g.state.act is not None and g.state.act.step == "strike":
        d = g.pending()
        if d.player != active:
            submit(g, C.NoReaction())
            continue
        c = agent.choose(d, g.view(active))
        answers.append(c)
        submit(g, c)
    return answers


def test_two_weak_drones_dog_pile_the_captain_before_unit_zero_strikes():
    """Unit Zero (Grit 6, Shock Maul), the Welder Drone and a Gun Drone (Grit 1, Fists) all in
    base contact with Captain Vell: a drone's own Strike almost never puts him Down; each Dog-pile
    adds a die to Unit Zero's Strike. Both drones Dog-pile, then Unit Zero strikes."""
    answers = _strike_step((), {"1-captain": (24, 6), "2-unit-zero": (25.40, 6), "2-welder": (22.90, 6),
                                "2-drone-1": (24, 7.10)}, ("2-unit-zero", "2-welder", "2-drone-1"), 2)
    assert answers == [C.DogPile("2-welder", "1-captain"), C.DogPile("2-drone-1", "1-captain"),
                       C.Strike("2-unit-zero", "shock-maul", "1-captain")]


def test_raiders_strike_for_themselves_beside_grekka():
    """Grekka and two Raiders (Grit 3, Vibro-blade: Damage 2) around a Ranger: each Raider's own
    Strike (29%) is worth more than the die it would add to Grekka's (81%), so nobody Dog-piles:
    Grekka strikes (his dice forced to miss) and the Raiders strike after him."""
    answers = _strike_step(ROSTERS, {"2-ranger-1": (24, 6), "1-grekka": (25.39, 6), "1-raider-1": (22.80, 6),
                                     "1-raider-2": (24, 7.20)}, ("1-grekka", "1-raider-1", "1-raider-2"), 1,
                           dice=(1, 1, 1, 1, 1, 1))
    assert not any(isinstance(c, C.DogPile) for c in answers)
    assert any(isinstance(c, (C.Strike, C.SplitStrike)) and c.model != "1-grekka" for c in answers)
