"""Doubles' missions (ours: the seed covers shooting only; docs/rules/doubles.md, "Missions"):
the fight unchanged, Standing Stones and Relic Hunt, staged with forced dice through
Game.submit (scores worked out by hand in each test), the refusals, the scoreboard, and seeded
random and easy games of each mission (more with ``-m long``).

Bases are 25 mm round (12.5 mm radius); distances to a marker run from its point to a base's edge.
"""
from __future__ import annotations

import json

import pytest
from mission_checks import check_missions_listed
from test_doubles_rules import arena_map, new_game, open_map, play_checked, stage, submit, texts

from engine.ai import make_agent
from engine.core import Game, Setup, replay
from engine.core.errors import SetupError
from engine.data.maps import MapFile, load_named_map
from engine.rulesets.common import MoveTo
from engine.rulesets.doubles.rules import (
    Announce,
    ChooseEffect,
    DoublesRules,
    EndActivation,
    KeepDice,
    MeleeAttack,
    TakeRelic,
)

PREHISTORIC = load_named_map("prehistoric")
NO_MARKERS = PREHISTORIC.model_copy(update={"objectives": []})
# an open 60 x 40 cm table (zones: side 1 y 32-40, side 2 y 0-8) with three markers across the middle
STONES = [{"id": "a", "name": "West Stone", "at": [15, 20]}, {"id": "b", "name": "Middle Stone", "at": [30, 20]},
          {"id": "c", "name": "East Stone", "at": [45, 20]}]
RELICS = [{"id": "r1", "name": "Skull", "at": [15, 20]}, {"id": "r2", "name": "Tusk", "at": [45, 20]}]


def mission_game(mission, objectives, seed=0, **options):
    return new_game(open_map(objectives=objectives), seed=seed, options={"mission": mission, **options})


def end_all(g, act=None):
    """End every activation of the turn (``act(fighter key)`` may answer instead: a choice or None)."""
    turn, evs = g.state.turn, []
    while g.pending() is not None and g.state.turn == turn:
        c = (act(g.state.acting) if act else None) or EndActivation(g.state.acting)
        evs += submit(g, c)
    return evs


# --- the missions on offer, and the refusals ------------------------------------------------------

def test_missions_are_listed_as_ours_with_the_fight_the_default():
    check_missions_listed(DoublesRules, ["fight", "standing-stones", "relic-hunt"], "docs/rules/doubles.md, Missions", min_markers=[0, 1, 1])
    assert DoublesRules.default_mission(PREHISTORIC) == "fight"


def test_an_unknown_mission_or_a_map_without_markers_is_refused_in_mission_problem_words():
    for mid in ("standing-stones", "relic-hunt"):
        why = DoublesRules.mission_problem(NO_MARKERS, mid)
        assert why.endswith("needs 1 objective markers; 'The Ford of Bones' has 0")
        with pytest.raises(SetupError) as err:
            Game(Setup("doubles", NO_MARKERS, (), {"mission": mid}, 1))
        assert str(err.value) == why
    unknown = DoublesRules.mission_problem(PREHISTORIC, "bake-off")
    with pytest.raises(SetupError) as err:
        Game(Setup("doubles", PREHISTORIC, (), {"mission": "bake-off"}, 1))
    assert str(err.value) == unknown and "standing-stones" in unknown
    with pytest.raises(SetupError, match="a mission id"):
        Game(Setup("doubles", PREHISTORIC, (), {"mission": 3}, 1))
    with pytest.raises(SetupError, match="stones_distance_cm"):
        Game(Setup("doubles", PREHISTORIC, (), {"mission": "standing-stones", "stones_distance_cm": -1}, 1))
    Game(Setup("doubles", NO_MARKERS, (), {"mission": "fight"}, 1))


def test_the_fight_is_the_game_as_before_and_keeps_its_hash():
    a = new_game(open_map(objectives=STONES), seed=4)
    b = new_game(open_map(objectives=STONES), seed=4, options={"mission": "fight"})
    ag = {p: make_agent("random", p, p) for p in (1, 2)}
    for _ in range(80):
        d = a.pending()
        if d is None:
            break
        c = ag[d.player].choose(d, a.view(d.player))
        a.submit(d.player, c)
        b.submit(d.player, c)
    assert a.state.mission is None and "mission" not in a.view(1) and a.state_hash() == b.state_hash()
    assert a.rules.scoreboard(a.state).mission == "The fight"


# --- Standing Stones -------------------------------------------------------------------------------

def _stones(g):
    """Lokee on the West Stone; Ember and Tusk 4 cm either side of the Middle Stone (both near:
    contested); Bones on the East Stone; Marrow on the ground 5 cm from the West Stone (its edge
    3.75 cm away: near, but a fighter on the ground counts for nobody); Soot 8 cm from the East
    Stone (6.75 cm: not near); Grit far off."""
    placed = {"1.lokee": (150, 200, 90), "1.ember": (340, 200, 90), "1.grit": (100, 360, 270),
              "1.soot": (450, 280, 270), "2.bones": (450, 200, 90), "2.tusk": (260, 200, 90),
              "2.marrow": (200, 200, 90)}
    order = ["1.lokee", "2.bones", "1.ember", "2.tusk", "1.grit", "2.marrow", "1.soot"]
    stage(g, placed, "1.lokee", order)
    g.state.fighters["2.marrow"].on_ground = True
    return g


def test_stones_held_at_the_end_of_each_turn_score_contested_and_fallen_fighters_do_not():
    g = _stones(mission_game("standing-stones", STONES, turn_limit=2))
    assert g.rules.stones(g.state) == {"a": 1, "b": None, "c": 2}
    sb = g.rules.scoreboard(g.state)
    lines = {ln.label: ln.values for ln in sb.lines}
    assert sb.mission == "Standing Stones" and sb.turn_limit == 2
    assert lines["Stone points"] == {1: "0", 2: "0"} and lines["Stones held now"] == {1: "West Stone", 2: "East Stone"}
    assert lines["Victory points"] == {1: "0", 2: "0"} and lines["Fighters left"] == {1: "4 of 4", 2: "3 of 3"}
    assert "Contested: Middle Stone" in sb.notes
    ev = end_all(g)
    assert g.state.mission["points"] == {1: 1, 2: 1}
    assert "stone points: West Stone: side 1; Middle Stone: nobody; East Stone: side 2. Score 1-1" in texts(ev)
    # turn 2: Ember walks away from the Middle Stone (11 cm, one AP): Tusk holds it alone
    end_all(g, lambda k: MoveTo("1.ember", 340.0, 310.0) if k == "1.ember" and g.state.fighters[k].ap == 3 else None)
    assert g.state.mission["points"] == {1: 2, 2: 3}
    r = g.result()
    assert r.winner == 2 and r.reason == "turn limit 2: side 2 has more stone points (3 to 2)" and r.ending == "turn_limit"
    assert r.scores == {1: {"stone_points": 2, "victory_points": 0}, 2: {"stone_points": 3, "victory_points": 0}}


def test_level_stone_points_go_to_victory_points_then_a_draw():
    g = _stones(mission_game("standing-stones", STONES, turn_limit=1))
    end_all(g)
    r = g.result()
    assert r.winner is None and r.reason == "turn limit 1: level on stone points (1 each) and on victory points"
    g = _stones(mission_game("standing-stones", STONES, turn_limit=1))
    marrow = g.state.fighters["2.marrow"]
    marrow.out, marrow.health, marrow.on_ground = True, 0, False    # out of action: side 1 scores his value
    end_all(g)
    r = g.result()
    vp = g.rules.victory_values[(2, "marrow")]
    assert r.winner == 1 and r.reason == (f"turn limit 1: level on stone points (1 each); side 1 has more victory "
                                          f"points ({vp} to 0)")


# --- Relic Hunt --------------------------------------------------------------------------------------

def _relics(g):
    """Lokee 1 cm from the Skull (edge to point); Bones and Ember both 1.75 cm from the Tusk
    (3.5 cm apart, not engaged); Tusk far off."""
    placed = {"1.lokee": (172.5, 200, 90), "1.ember": (450, 230, 270), "2.bones": (450, 170, 90),
              "2.tusk": (100, 60, 90)}
    return stage(g, placed, "1.lokee", ["1.lokee", "1.ember", "2.bones", "2.tusk"])


def test_a_relic_in_reach_is_picked_up_for_an_ap_carried_and_scores_each_turn():
    g = _relics(mission_game("relic-hunt", RELICS, turn_limit=1))
    d = g.pending()
    assert TakeRelic("1.lokee", "r1") in d.options and TakeRelic("1.lokee", "r2") not in d.options
    assert g.describe(TakeRelic("1.lokee", "r1")) == "Lokee picks up the Skull (1 AP)"
    ev = submit(g, TakeRelic("1.lokee", "r1"))
    st = g.state
    assert "Lokee picks up the Skull" in texts(ev) and st.fighters["1.lokee"].ap == 2
    assert st.mission["relics"]["r1"]["carrier"] == "1.lokee"
    assert not any(isinstance(o, TakeRelic) for o in g.pending().options)     # one relic a fighter
    submit(g, MoveTo("1.lokee", 172.5, 300.0))
    assert g.view(2)["mission"]["relics"]["r1"] == {"x": 172.5, "y": 300.0, "carrier": "1.lokee"}
    assert "carries the Skull" in next(p for p in g.view(2)["pieces"] if p["id"] == "1.lokee")["markers"]
    submit(g, EndActivation("1.lokee"))
    # Ember is in reach of the Tusk, but so is Bones, on his feet: no pick-up ...
    assert g.state.acting == "1.ember" and not any(isinstance(o, TakeRelic) for o in g.pending().options)
    # ... unless Bones is on the ground
    g.state.fighters["2.bones"].on_ground = True
    g._pending_ok = False
    assert TakeRelic("1.ember", "r2") in g.pending().options
    g.state.fighters["2.bones"].on_ground = False
    g._pending_ok = False
    lines = {ln.label: ln.values for ln in g.rules.scoreboard(g.state).lines}
    assert lines["Relics carried"] == {1: "Skull (Lokee)", 2: "none"}
    ev = end_all(g)
    assert "relic points: Skull: Lokee (side 1); Tusk: on the ground. Score 1-0" in texts(ev)
    r = g.result()
    assert r.winner == 1 and r.reason == "turn limit 1: side 1 has more relic points (1 to 0)"
    # stage() left Grit, Soot and Marrow out of action: each side has their victory points, the
    # mission points decide first
    vv = g.rules.victory_values
    assert r.scores == {1: {"relic_points": 1, "victory_points": vv[(2, "marrow")]},
                        2: {"relic_points": 0, "victory_points": vv[(1, "grit")] + vv[(1, "soot")]}}
    assert vv[(1, "grit")] + vv[(1, "soot")] > vv[(2, "marrow")]


def _grit_charges_marrow_out(g):
    """Grit (staged 8 cm from Marrow) charges him, keeps a double 6 and takes the force attack,
    which puts Marrow out of action: the events of that last choice."""
    submit(g, next(o for o in g.pending().options if isinstance(o, MoveTo)))
    submit(g, MeleeAttack("1.grit", "2.marrow"))
    submit(g, Announce("1.grit", 0))
    g.state.rng.force(1, 2, 6, 6, 2, 3, 6)
    submit(g, Announce("2.marrow", 0))
    submit(g, KeepDice("1.grit", (6, 6)))
    g.state.rng.force(1)
    return submit(g, ChooseEffect("1.grit", "force_attack"))


def test_a_carrier_put_out_of_action_drops_its_relic_where_it_fell():
    """The staged charge of test_doubles_rules (Grit's force attack puts Marrow out), with Marrow
    carrying the Skull and Bones far off so the game goes on."""
    g = stage(mission_game("relic-hunt", RELICS), {"1.grit": (200, 300, 270), "2.marrow": (200, 220, 90),
                                                   "2.bones": (550, 50, 90)},
              "1.grit", ["1.grit", "2.marrow", "2.bones"])
    g.state.mission["relics"]["r1"]["carrier"] = "2.marrow"
    ev = _grit_charges_marrow_out(g)
    assert g.state.fighters["2.marrow"].out and "Marrow drops the Skull" in texts(ev)
    assert g.state.mission["relics"]["r1"] == {"x": 200.0, "y": 220.0, "carrier": ""}
    assert g.result() is None


def test_a_carrier_knocked_to_the_ground_drops_its_relic():
    g = _relics(mission_game("relic-hunt", RELICS))
    st = g.state
    st.mission["relics"]["r2"]["carrier"] = "2.bones"
    bones = st.fighters["2.bones"]
    ev = []
    g.rules._mission_after_hit(st, bones, ev)          # still on his feet: he keeps it
    assert st.mission["relics"]["r2"]["carrier"] == "2.bones" and not ev
    bones.on_ground = True
    g.rules._mission_after_hit(st, bones, ev)
    assert st.mission["relics"]["r2"] == {"x": 450.0, "y": 170.0, "carrier": ""} and "Bones drops the Tusk" in texts(ev)


def test_a_wiped_out_side_loses_at_once_whatever_its_points():
    g = stage(mission_game("standing-stones", STONES), {"1.grit": (200, 300, 270), "2.marrow": (200, 220, 90)},
              "1.grit", ["1.grit", "2.marrow"])
    g.state.mission["points"][2] = 9
    _grit_charges_marrow_out(g)
    r = g.result()
    assert r.winner == 1 and r.ending == "wiped_out" and r.reason == "side 2 has no fighter left"
    assert r.scores[2]["stone_points"] == 9


def test_the_scoreboard_shows_only_what_both_sides_see():
    g = Game(Setup("doubles", PREHISTORIC, (), {"mission": "relic-hunt", "deployment": "automatic"}, 3))
    sb = g.rules.scoreboard(g.state)
    assert sb.mission == "Relic Hunt" and sb.turn == 1 and sb.turn_limit == 6
    assert "On the ground: Sacred Flint, Mammoth Tusks" in sb.notes     # the prehistoric map's two markers
    for p in (1, 2):
        json.dumps(g.view(p))
        assert g.view(p)["mission"] == g.view(3 - p)["mission"]
    d = Game(Setup("doubles", PREHISTORIC, (), {"mission": "standing-stones", "deployment": "hidden"}, 3))
    sb = d.rules.scoreboard(d.state)      # while the warbands deploy: no score
    assert d.state.deploy is not None and sb.mission == "Standing Stones" and sb.lines == ()


# --- seeded games -------------------------------------------------------------------------------------

def arena_with_markers():
    data = arena_map().model_dump()
    data["objectives"] = [{"id": "o1", "name": "Cairn", "at": [14, 15]}, {"id": "o2", "name": "Altar", "at": [28, 15]}]
    return MapFile.model_validate(data)


def play_easy(mapfile, seed, mission, agents=("easy", "easy")):
    g = Game(Setup("doubles", mapfile, (), {"mission": mission}, seed))
    ag = {p: make_agent(agents[p - 1], p, seed * 7 + p) for p in (1, 2)}
    for a in ag.values():
        a.attach(g.table, g.rules)
    last = {1: 0, 2: 0}
    while (d := g.pending()) is not None:
        g.submit(d.player, ag[d.player].choose(d, g.view(d.player)))
        st = g.state
        assert all(st.mission["points"][p] >= last[p] for p in (1, 2))
        last = dict(st.mission["points"])
        for r in st.mission.get("relics", {}).values():
            f = st.fighters.get(r["carrier"]) if r["carrier"] else None
            assert f is None or (not f.out and not f.on_ground)
    r = g.result()
    assert r is not None and set(r.scores[1]) == {"stone_points" if mission == "standing-stones" else "relic_points",
                                                  "victory_points"}
    return g


@pytest.mark.parametrize("mission", ["standing-stones", "relic-hunt"])
def test_seeded_random_and_easy_games_of_each_mission(mission):
    arena = arena_with_markers()
    points = 0
    # random agents rarely carry a relic home: 16 relic games (8 stone games) so some do
    for seed in range(8 if mission == "standing-stones" else 16):
        g = play_checked(arena, 40 + seed, clone_every=3, options={"mission": mission})
        assert g.result().reason   # every invariant of the random games, a replay, clones of every 3rd
        points += sum(g.state.mission["points"].values())
    assert points > 0          # measured: 29 stone points; 11 relic points (seeds 49, 52, 53; 2026-12-07,
                               # with the Ash Skulls of that day: 0 in the first 8 games)
    play_checked(PREHISTORIC, 60, clone_every=6, options={"mission": mission})
    scored = 0
    for seed in range(3):
        g = play_easy(PREHISTORIC, 80 + seed, mission)
        scored += sum(g.state.mission["points"].values())
    assert scored > 0            # easy goes for the markers: points are scored
    assert replay(g.setup, g.decisions).state_hash() == g.state_hash()


def test_same_seed_and_decisions_give_the_same_hash_and_saves_load(tmp_path):
    from engine.core.saves import load_game, save_game

    a = play_easy(PREHISTORIC, 9, "relic-hunt", ("easy", "random"))
    b = play_easy(PREHISTORIC, 9, "relic-hunt", ("easy", "random"))
    assert a.decisions == b.decisions and a.state_hash() == b.state_hash()
    save_game(a, tmp_path / "relics.json")
    assert load_game(tmp_path / "relics.json").state_hash() == a.state_hash()


@pytest.mark.long
@pytest.mark.parametrize("mission", ["standing-stones", "relic-hunt"])
def test_three_hundred_games_of_each_mission(mission):
    arena = arena_with_markers()
    for seed in range(200):
        play_checked(arena if seed % 4 else PREHISTORIC, 20_000 + seed, clone_every=4, options={"mission": mission})
    for seed in range(100):
        play_easy(PREHISTORIC, 30_000 + seed, mission)
