"""Easy's Counterblast policy uses its skills where they gain (issue 61, item 2): Hack to Mark
before a shot. Seed: ../shared/seeds/003_52d4831de0a47706.txt, Marked ("Any zap checks targeting a
model with this condition have their difficulty reduced by 1") and Aim ("reduces the Difficulty
of the next Zap Check it rolls within the same activation by 1"). Prices: the engine's exact odds
(``engine/ai/cb_odds.py``)."""
from engine.ai import make_agent
from engine.rulesets.counterblast import choices as C

from counterblast_fixtures import staged, submit

DRONE_LONG = (31, 6.5)        # 10.9" from the Captain: a long shot, difficulty 8


def _easy(g, player=1):
    agent = make_agent("easy", player, 5)
    agent.attach(g.table, g.rules)
    return agent


def _captain_activated(positions):
    g = staged(positions, moxie=(4, 2))
    submit(g, C.ActivateSingle("1-captain"))
    return g


def test_the_captain_marks_the_drone_two_friends_will_shoot():
    """Captain Vell (scanner, Knack 4) with two actions and a long shot (22%) at a Gun Drone that
    Ranger 2, not yet activated, also has in range and sight: a Mark (87% to land) lowers both
    shots, an Aim only his own. Easy Hacks the drone before shooting it."""
    g = _captain_activated({"1-captain": (19, 6), "1-ranger-1": (17.5, 6.5), "1-ranger-2": (17.5, 5.2),
                            "2-drone-1": DRONE_LONG})
    d = g.pending()
    assert C.Aim("1-captain") in d.options
    assert _easy(g).choose(d, g.view(1)) == C.HackMark("1-captain", "2-drone-1")


def test_the_captain_alone_aims_rather_than_marks():
    """The same shot with no friend left to shoot: a certain Aim beats an 87% Mark."""
    g = _captain_activated({"1-captain": (19, 6), "2-drone-1": DRONE_LONG})
    d = g.pending()
    assert C.HackMark("1-captain", "2-drone-1") in d.options
    assert _easy(g).choose(d, g.view(1)) == C.Aim("1-captain")


def test_a_group_with_a_scanner_marks_then_all_shoot():
    """The Captain and two Rangers, every one with the drone in range and sight: the group Hacks
    first (a Ranger within 1" Boosts the Captain's Knack check), then Shoots."""
    g = staged({"1-captain": (19, 6), "1-ranger-1": (18.2, 7.2), "1-ranger-2": (18.3, 4.9),
                "2-drone-1": DRONE_LONG}, moxie=(4, 2))
    easy = _easy(g)
    c = easy.choose(g.pending(), g.view(1))
    assert isinstance(c, C.ActivateGroup) and len(c.models) == 3
    submit(g, c)
    assert easy.choose(g.pending(), g.view(1)) == C.GroupAction("hack")
    submit(g, C.GroupAction("hack"))
    parts = []
    while g.state.act is not None and g.state.act.step == "hack":
        c = easy.choose(g.pending(), g.view(1))
        parts.append(c)
        submit(g, c)
    hack = C.HackMark("1-captain", "2-drone-1")
    assert hack in parts
    boosts = [i for i, p in enumerate(parts) if isinstance(p, C.Boost) and p.friend == "1-captain"]
    assert boosts and max(boosts) < parts.index(hack)        # the Boosts come before the check
    assert easy.choose(g.pending(), g.view(1)) == C.GroupAction("shoot")
