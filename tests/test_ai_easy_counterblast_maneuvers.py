"""Easy's Counterblast policy goes Prone where lying down shields a model that has nothing better to
do, and stands up to shoot (issue 61, item 2). Seed: ../shared/seeds/003_52d4831de0a47706.txt, Prone
("A prone models uses its base, and only its base, for the purposes of LoS ... prone models
automatically benefit from light cover"); Move ("A model may choose to become Prone at any point
during a move action. A Prone model may choose to stand up from Prone in lieu of moving"). The
shots a model lies down from are priced by the engine's exact chain (``engine/ai/cb_odds.py``)."""
from counterblast_fixtures import staged, submit

from engine.ai import make_agent
from engine.rulesets.counterblast import choices as C

AT_WEST_DEPOT = (9, 19)      # 1" behind the depot's barricade (10", 18" is the marker)


def _agent(g, player):
    agent = make_agent("easy", player, 5)
    agent.attach(g.table, g.rules)
    return agent


def _welder_on_the_marker(captain_at):
    """Turn 3; the Welder Drone (no gun) on the West Depot, its goal; Captain Vell's carbine
    somewhere. The Welder is activated (a player may activate it for nothing else)."""
    g = staged({"2-welder": AT_WEST_DEPOT, "1-captain": captain_at}, active=2, moxie=(2, 3))
    g.state.turn = 3
    submit(g, C.ActivateSingle("2-welder"))
    return g, _agent(g, 2)


def test_the_welder_on_its_marker_lies_down_out_of_the_captains_sight():
    """The Captain 11" away sees most of the Welder over the barricade; lying down, only its base
    is a silhouette, and the barricade hides it. Nothing else to do with the action: GoProne."""
    g, agent = _welder_on_the_marker((20, 14))
    assert g.rules.seen(g.state, "1-captain", "2-welder") > 0.7
    c = agent.choose(g.pending(), g.view(2))
    assert c == C.GoProne("2-welder")
    submit(g, c)
    assert g.rules.seen(g.state, "1-captain", "2-welder") < 1 / 3


def test_the_welder_does_not_lie_down_where_no_gun_sees_it():
    """The Captain behind the Water Tank, with no sight of it: lying down shields nothing and would
    cost a Move to stand; the Welder ends its activation standing."""
    g, agent = _welder_on_the_marker((40, 30))
    c = agent.choose(g.pending(), g.view(2))
    assert not isinstance(c, (C.GoProne, C.MoveProne)) and not g.state.models["2-welder"].has("prone")


def test_a_prone_ranger_stands_up_to_shoot_over_the_barricade():
    """Ranger 1 lies behind the barricade and sees nothing; standing, it sees a Gun Drone 11"
    off. It stands up (its Move action), then shoots."""
    g = staged({"1-ranger-1": (9, 18.9), "2-drone-1": (20, 14)}, moxie=(3, 2))
    g.state.turn = 3
    g.state.models["1-ranger-1"].gain("prone")
    submit(g, C.ActivateSingle("1-ranger-1"))
    agent = _agent(g, 1)
    d = g.pending()
    assert not any(isinstance(o, C.Shoot) for o in d.options)
    c = agent.choose(d, g.view(1))
    assert c == C.StandUp("1-ranger-1")
    submit(g, c)
    while g.pending().player == 2:
        submit(g, C.NoReaction())
    assert isinstance(agent.choose(g.pending(), g.view(1)), C.Shoot)


# ---------------------------------------------------------------- Jump
# 003, Jump: "the model chooses a direction and rolls a d5. The model moves the number rolled in
# inches in a straight line in the direction chosen, jumping over models of its own size or
# smaller"; Rush: "A model that has used the Move action and has not used the Jump action".
WEST_EDGE = (1.5, 27.8)      # the 1"-wide lane between the table's west edge and Hab Block Alpha


def _raider_in_the_lane(blocked):
    pos = {"1-raider-1": WEST_EDGE, "2-ranger-1": (40, 30)}
    if blocked:
        pos["1-raider-2"] = (1.5, 26.4)          # a friend of its size in the lane, toward its marker
    g = staged(pos, moxie=(3, 2), rosters=("dustjaw-raiders", "reach-rangers"))
    g.state.turn = 2
    submit(g, C.ActivateSingle("1-raider-1"))
    return g, _agent(g, 1)


def test_a_raider_jumps_over_the_friend_blocking_its_lane():
    """Raider 2 stands in the lane between Raider 1 and its marker (the West Depot, south): no
    Move gets Raider 1 nearer, so no Rush would either; a Jump south flies over Raider 2 (its own
    size). Easy Jumps, and with a 4 (a d10's 8, halved up) it lands beyond its friend."""
    g, agent = _raider_in_the_lane(True)
    c = agent.choose(g.pending(), g.view(1))
    assert isinstance(c, C.Jump) and 225 < c.heading < 315
    g.state.rng.force(8)
    y0 = g.state.models["1-raider-1"].y
    submit(g, c)
    assert g.state.models["1-raider-1"].y < g.state.models["1-raider-2"].y < y0


def test_a_raider_in_a_clear_lane_moves_and_rushes():
    """The lane clear: a Move and a Rush (5" and a d10) go further than a d5; no Jump."""
    g, agent = _raider_in_the_lane(False)
    answers = []
    for _ in range(3):
        d = g.pending()
        if d is None or d.player != 1 or d.kind not in ("act", "move"):
            break
        c = agent.choose(d, g.view(1))
        answers.append(c)
        submit(g, c)
    assert not any(isinstance(c, C.Jump) for c in answers)
    assert any(isinstance(c, C.Rush) for c in answers)
