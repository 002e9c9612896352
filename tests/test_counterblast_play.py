"""Counterblast in play (through Game.submit, dice forced): Panic and moves, reactions to forced
moves, Half-blind moves, Aim with a split shot, dropping Prone during a move, team actions and the
Engaged sight rule.

Seed: ../shared/seeds/003_52d4831de0a47706.txt.
"""
import math

from counterblast_fixtures import IN, OUTPOST, staged, submit, texts

from engine.rulesets.common import MoveTo
from engine.rulesets.counterblast import choices as C


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


# --- 9: the failed Rally's move draws the reactions any Move draws --------------------------------

def test_a_failed_rally_move_draws_a_snapshot():
    """003_52d4831de0a47706.txt, Rally: 'If the check fails, then the model must use its second action
    to Move towards its Crew's Evac Point'; Snapshot: 'A model that is able to draw Unobscured Los to
    a model that has just completed a Manuever action may trigger a Snapshot'. The flight is a Move."""
    # the drone stands where it sees the Ranger's whole flight path's end, whatever route the
    # path finder takes round the terrain (from (30, 7) terrain hides the end of the shortest route)
    g = staged({"1-ranger-1": (22, 7), "2-drone-1": (14, 12)}, moxie=(3, 1))
    ranger = g.state.models["1-ranger-1"]
    ranger.gain("panic")
    submit(g, C.ActivateSingle("1-ranger-1"))
    x0 = ranger.x
    g.state.rng.force(1, 1)                            # Knack 2 vs 7: no success, the Ranger flees
    ev = submit(g, C.Rally("1-ranger-1"))
    assert "Ranger 1 moves toward the evac point" in texts(ev) and ranger.x < x0
    d = g.pending()
    snap = C.React("2-drone-1", "snapshot", "pulse-carbine")
    assert (d.player, d.kind) == (2, "react") and snap in d.options
    g.state.rng.force(9, 1, 1, 1,   1, 1, 1, 1, 1)     # the drone's Zap 4: 1 hit; the Ranger's Defense (in cover): none
    ev = submit(g, snap)
    assert ranger.tokens == 1 and "Gun Drone 1 reacts: Snapshot (1 Moxie)" in texts(ev)
    assert g.state.act is None or "1-ranger-1" not in g.state.act.members    # its activation is over


# --- 10: a Half-blind model's every Move is a d5 ---------------------------------------------------

def test_half_blind_action_roll_moves_a_d5():
    """003_52d4831de0a47706.txt: 'Half-Blind models only move a d5 inches when they use the move
    action'; Action-roll: 'The triggering model immediately resolves a single move action.'"""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (24, 7)}, moxie=(3, 2))
    g.state.models["2-drone-1"].gain("half_blind")
    submit(g, C.ActivateSingle("1-ranger-1"))
    submit(g, C.Shoot("1-ranger-1", "pulse-carbine", "2-drone-1"))
    g.state.rng.force(3)                               # d10 3 -> d5 2
    ev = submit(g, C.React("2-drone-1", "action_roll"))
    assert 'Gun Drone 1 is Half-blind and moves a d5: 2"' in texts(ev)
    d = g.pending()
    assert d.kind == "move" and d.spaces[0].allowance == 2 * IN     # not its Move of 6"
    assert d.spaces[0].check(MoveTo("2-drone-1", 28 * IN, 7 * IN))   # 4" is too far now


def test_half_blind_pursuit_moves_a_d5():
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (CONTACT_X, 7)}, moxie=(3, 1))
    drone = g.state.models["2-drone-1"]
    drone.gain("half_blind")
    submit(g, C.ActivateSingle("1-ranger-1"))
    submit(g, MoveTo("1-ranger-1", 18 * IN, 3 * IN))                 # 4" south: out of contact
    x0, y0 = drone.x, drone.y
    g.state.rng.force(1)                               # d10 1 -> d5 1
    ev = submit(g, C.React("2-drone-1", "pursuit"))
    assert 'Gun Drone 1 is Half-blind and moves a d5: 1"' in texts(ev)
    assert math.hypot(drone.x - x0, drone.y - y0) <= 1 * IN + 1e-6     # not its Move of 6"
    assert not g.rules.engaged(g.state, "1-ranger-1")


def test_half_blind_failed_rally_flees_a_d5():
    g = staged({"1-ranger-1": (22, 7), "2-drone-1": (30, 7)}, moxie=(3, 0))
    ranger = g.state.models["1-ranger-1"]
    ranger.gain("panic")
    ranger.gain("half_blind")
    submit(g, C.ActivateSingle("1-ranger-1"))
    x0, y0 = ranger.x, ranger.y
    g.state.rng.force(1, 1, 1)                         # Knack 2 vs 7 fails; d10 1 -> d5 1
    ev = submit(g, C.Rally("1-ranger-1"))
    assert 'Ranger 1 is Half-blind and moves a d5: 1"' in texts(ev)
    assert 0 < math.hypot(ranger.x - x0, ranger.y - y0) <= 1 * IN + 1e-6


# --- 11: Aim helps every share of a split shot ------------------------------------------------------

def test_aim_helps_every_share_of_a_split_shot_then_is_spent():
    """003_52d4831de0a47706.txt: Aim 'reduces the Difficulty of the next Zap Check it rolls within the
    same activation by 1'; 'All attacks made by splitting dice are considered to be a single instance
    of the respective action and resolve simultaneously.' Both shares roll at 6 (7 - 1)."""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (24, 7), "2-drone-2": (22, 4.5)}, moxie=(3, 0))
    submit(g, C.ActivateSingle("1-ranger-1"))
    submit(g, C.Aim("1-ranger-1"))
    split = C.SplitShoot("1-ranger-1", "pulse-carbine", ("2-drone-2", "2-drone-1"), (2, 2))
    assert "(2 dice, difficulty 6" in g.attack_odds(split).parts[1].summary
    g.state.rng.force(6, 1,  6, 1,       # one 6 on each share: a hit only at difficulty 6
                      1, 1, 1,  1, 1, 1)  # each drone's Defense 3: nothing saved
    ev = submit(g, split)
    assert sum("2d10 vs 6" in t for t in texts(ev)) == 2
    assert [g.state.models[t].tokens for t in ("2-drone-2", "2-drone-1")] == [1, 1]
    assert "1-ranger-1" not in g.state.act.aimed      # the Aim is spent by the Shoot action


# --- 12: dropping Prone during a move --------------------------------------------------------------

def test_a_move_may_end_prone():
    """003_52d4831de0a47706.txt: 'A model may choose to become Prone at any point during a move
    action.' The choice comes with the point (rules version 3): the Move offers a space that ends
    standing (MoveTo) and one that ends Prone (MoveProne), and nothing is asked afterwards; a
    Prone model may not Rush."""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (40, 30)}, moxie=(3, 0))
    submit(g, C.ActivateSingle("1-ranger-1"))
    d = d0 = g.pending()
    ends = sorted(type(s.at_point(20 * IN, 6 * IN)[0]).__name__ for s in d.spaces if s.actor == "1-ranger-1"
                  and hasattr(s, "ends_prone"))
    assert ends == ["MoveProne", "MoveTo"]
    ev = submit(g, C.MoveProne("1-ranger-1", 20 * IN, 6 * IN))
    r = g.state.models["1-ranger-1"]
    assert "Ranger 1 drops Prone" in texts(ev) and r.has("prone") and (r.x, r.y) == (20 * IN, 6 * IN)
    assert g.state.act.used["1-ranger-1"] == ["move"]          # one Move action, not two
    d = g.pending()
    assert d.kind == "act" and C.Rush("1-ranger-1") not in d.options   # 'Prone models may not Rush'
    # the plain move ends standing, with no question after it
    g2 = staged({"1-ranger-1": (18, 7), "2-drone-1": (40, 30)}, moxie=(3, 0))
    submit(g2, C.ActivateSingle("1-ranger-1"))
    submit(g2, MoveTo("1-ranger-1", 20 * IN, 6 * IN))
    assert g2.pending().kind == "act" and not g2.state.models["1-ranger-1"].has("prone")
    # a MoveProne is not accepted by the space that ends standing, nor the other way round
    plain = next(s for s in d0.spaces if getattr(s, "ends_prone", None) is False)
    prone = next(s for s in d0.spaces if getattr(s, "ends_prone", None) is True)
    assert plain.check(C.MoveProne("1-ranger-1", 21 * IN, 6 * IN)) == "this move ends standing"
    assert prone.check(MoveTo("1-ranger-1", 21 * IN, 6 * IN)) == "this move ends Prone"


def test_an_action_roll_may_dive_prone_before_the_shot():
    """Action-roll: 'The triggering model immediately resolves a single move action. Afterwards,
    resolve the Shot using the model's new position.' Diving Prone in it gives the light cover of
    a Prone model ('prone models automatically benefit from light cover')."""
    for prone, defense in ((False, "Defense 3d10"), (True, "Defense 4d10")):
        g = staged({"1-ranger-1": (18, 7), "2-drone-1": (24, 7)}, moxie=(3, 2))
        submit(g, C.ActivateSingle("1-ranger-1"))
        submit(g, C.Shoot("1-ranger-1", "pulse-carbine", "2-drone-1"))
        submit(g, C.React("2-drone-1", "action_roll"))
        assert g.pending().kind == "move" and g.pending().player == 2
        g.state.rng.force(9, 1, 1, 1,  1, 1, 1, 1)      # 1 hit; Defense all 1s
        move = C.MoveProne if prone else MoveTo
        ev = submit(g, move("2-drone-1", 28 * IN, 7 * IN))
        t = texts(ev)
        drone = g.state.models["2-drone-1"]
        assert any(defense in x for x in t) and drone.has("prone") == prone and drone.has("stunned")
        assert any("light cover" in x for x in t) == prone


# --- 13: Boost, Dog-pile and the Engaged sight rule in play ------------------------------------------

def test_boost_adds_a_knack_die_per_booster_in_a_group_treat():
    """003_52d4831de0a47706.txt, Boost: 'The Boosting model chooses a friendly model within 1″ and Line
    of Sight, granting it +1D to its Knack for that action. It is possible for multiple models to use
    the Boost action to improve the roll of the same model, adding 1 die to each.' Doc Harrow
    (Knack 5, medkit) Treats a wounded Ranger; two Rangers Boost her: 7 dice."""
    g = staged({"1-medic": (18, 7), "1-ranger-1": (18, 8.3), "1-ranger-2": (18, 5.7), "1-ranger-3": (19.3, 7),
                "2-drone-1": (40, 30)}, moxie=(5, 0))
    g.state.models["1-ranger-3"].tokens = 2
    submit(g, C.ActivateGroup(("1-medic", "1-ranger-1", "1-ranger-2")))
    submit(g, C.GroupAction("treat"))
    d = g.pending()
    assert C.Boost("1-ranger-1", "1-medic") in d.options and C.Treat("1-medic", "1-ranger-3") in d.options
    submit(g, C.Boost("1-ranger-1", "1-medic"))
    submit(g, C.Boost("1-ranger-2", "1-medic"))
    g.state.rng.force(7, 1, 1, 1, 1, 1, 1)
    ev = submit(g, C.Treat("1-medic", "1-ranger-3"))
    assert any("7d10 vs 7" in t and "heals Ranger 3" in t for t in texts(ev))
    assert g.state.rng.forced_left == 0 and g.state.models["1-ranger-3"].tokens == 1
    assert not g.state.models["1-ranger-1"].has("spent")         # Boost does not Spend
    assert "1-medic" not in g.state.act.boost                     # used up by the check


def test_dog_piles_stack_on_the_next_strike():
    """Dog-Pile: 'The next model to resolve a Strike action against the model within the same
    activation gains +1D on their first Grit Check during that action. Multiple Dog piles on the
    same target stack'. Captain Vell (Grit 4) strikes a Gun Drone two Rangers dog-piled: 6 dice."""
    dx = (18 * IN + 15 + 12.5 + 0.3) / IN
    dy = (12.5 + 15 + 0.3) / IN
    g = staged({"1-captain": (18, 7), "1-ranger-1": (dx, 7 + dy), "1-ranger-2": (dx, 7 - dy), "2-drone-1": (dx, 7)},
               moxie=(5, 0))
    submit(g, C.ActivateGroup(("1-captain", "1-ranger-1", "1-ranger-2")))
    submit(g, C.GroupAction("strike"))
    submit(g, C.DogPile("1-ranger-1", "2-drone-1"))
    submit(g, C.DogPile("1-ranger-2", "2-drone-1"))
    assert g.state.act.dog_pile == {"2-drone-1": 2}
    g.state.rng.force(*[1] * 6)
    ev = submit(g, C.Strike("1-captain", "vibro-blade", "2-drone-1"))
    assert any("Captain Vell strikes Gun Drone 1" in t and "6d10 vs" in t for t in texts(ev))
    assert g.state.rng.forced_left == 0 and not g.state.act.dog_pile


def test_engaged_needs_sight_in_play():
    """Engaged: 'A model is Engaged any time an enemy model has LoS to it and it is within the Reach
    of any of the enemy's striking weapons.' Unit Zero's Shock Maul (Reach 1") is 0.92" from a
    Ranger, with the outpost's closed Security Gate between them: no sight, not Engaged, so the
    Ranger may shoot. With the gate hacked open it is Engaged and may not."""
    for opened in (False, True):
        g = staged({"1-ranger-1": (22.4, 16.4), "2-unit-zero": (22.4, 14.1), "2-drone-1": (30, 18)}, moxie=(3, 0))
        if opened:
            g.state.opened = ["door-02"]
        st = g.state
        assert g.rules.dist(st, "1-ranger-1", "2-unit-zero") < 1.0
        assert (g.rules.seen(st, "2-unit-zero", "1-ranger-1") > 0) == opened
        assert g.rules.engaged(st, "1-ranger-1") == opened
        submit(g, C.ActivateSingle("1-ranger-1"))
        shots = [o for o in g.pending().options if isinstance(o, C.Shoot)]
        assert bool(shots) != opened


def test_engaged_models_may_not_aim_assist_or_boost():
    """003_52d4831de0a47706.txt, Engaged: an Engaged model may not 'Aim-Assist, Boost, use skill
    actions' (actions.engaged_allows; the flow asks it). Unit Zero's Shock Maul (Reach 1") is 0.12"
    from Ranger 1 and 1.4" from the others: Ranger 1 is Engaged, Ranger 2 is not. In a group Shoot
    only Ranger 2 is offered the Aim-Assist; in a group Treat only Ranger 2 the Boost."""
    places = {"1-captain": (18, 7), "1-ranger-1": (18, 8.3), "1-ranger-2": (18, 5.7), "2-unit-zero": (18, 9.6),
              "2-drone-1": (24, 7)}
    g = staged(places, moxie=(5, 0))
    assert g.rules.engaged(g.state, "1-ranger-1") and not g.rules.engaged(g.state, "1-ranger-2")
    submit(g, C.ActivateGroup(("1-captain", "1-ranger-1", "1-ranger-2")))
    submit(g, C.GroupAction("shoot"))
    opts = g.pending().options
    assert C.AimAssist("1-ranger-2", "1-captain") in opts
    assert not any(isinstance(o, C.AimAssist) and o.model == "1-ranger-1" for o in opts)

    places = {"1-medic": (18, 7), "1-ranger-1": (18, 8.3), "1-ranger-2": (18, 5.7), "1-ranger-3": (19.3, 7),
              "2-unit-zero": (18, 9.6), "2-drone-1": (40, 30)}
    g = staged(places, moxie=(5, 0))
    g.state.models["1-ranger-3"].tokens = 2
    assert g.rules.engaged(g.state, "1-ranger-1")
    submit(g, C.ActivateGroup(("1-medic", "1-ranger-1", "1-ranger-2")))
    submit(g, C.GroupAction("treat"))
    opts = g.pending().options
    assert C.Boost("1-ranger-2", "1-medic") in opts
    assert not any(isinstance(o, C.Boost) and o.model == "1-ranger-1" for o in opts)


def test_a_failed_rally_with_no_evac_point_flees_to_its_zone_edge():
    """003_52d4831de0a47706.txt, Rally: a failed check must 'Move towards its Crew's Evac Point by the
    shortest route'. A map without evac points (the town, the field) leaves the seed silent; our rule
    (docs/rules/counterblast.md, "A failed Rally with no evac point"): toward the nearest point of the
    table edge nearest the middle of the crew's own deployment zone. The outpost without its evac points:
    zone 1 is the southern strip, so a Ranger at (22, 20) flees toward (22, 36)."""
    bare = OUTPOST.model_copy(update={"evac_points": []})
    g = staged({"1-ranger-1": (22, 20), "2-drone-1": (40, 8)}, moxie=(3, 0), mapfile=bare)
    assert g.rules.evac == {}
    ranger = g.state.models["1-ranger-1"]
    ranger.gain("panic")
    submit(g, C.ActivateSingle("1-ranger-1"))
    h = g.rules.table.height
    assert g.rules._flee_target(g.state, "1-ranger-1") == ((ranger.x, h), "its south table edge")
    x0, y0 = ranger.x, ranger.y
    g.state.rng.force(1, 1)                            # Knack 2 vs 7: no success, the Ranger flees
    ev = submit(g, C.Rally("1-ranger-1"))
    t = texts(ev)
    assert any("fails to Rally" in x and "flees toward its south table edge" in x for x in t)
    assert "Ranger 1 moves toward its south table edge" in t
    # by the shortest route around the scenery: at least 3" nearer the edge point below it
    assert math.hypot(ranger.x - x0, ranger.y - h) < (h - y0) - 3 * IN
