"""The Counterblast state machine (engine/rulesets/counterblast/rules.py and flow/) played through
Game.submit with forced dice. Seed: 003_52d4831de0a47706.txt (Counterblast)."""
import random

import pytest
from counterblast_fixtures import IN, OUTPOST, new_game, staged, submit, texts

from engine.core import Game, Setup, SetupError, get_rules
from engine.data.maps import MapFile
from engine.rulesets.common import MoveSpace, MoveTo
from engine.rulesets.counterblast import choices as C
from engine.rulesets.counterblast import odds


def test_registered_with_default_rosters_and_mission():
    cls = get_rules("counterblast")
    assert cls.id == "counterblast" and cls.unit == "in"
    g = new_game()
    # the fairest pairing by the balance tables (docs/rules/counterblast.md, "The default pairing")
    assert list(g.setup.rosters) == ["dustjaw-raiders", "reach-rangers"]
    assert g.rules.mission.id == "salvage-rights"          # the outpost has three markers
    ids = sorted(g.state.models)
    assert "1-grekka" in ids and "1-raider-6" in ids and "2-ranger-5" in ids and len(ids) == 19


def test_refuses_map_outside_terrain_coverage():
    """003_52d4831de0a47706.txt: 'a 3X4 flat surface that is covered between 25% and 50% with terrain'."""
    bare = MapFile(schema_version=1, id="bare", name="Bare", unit="in", width=48, height=36,
                   deployment=OUTPOST.deployment)
    with pytest.raises(SetupError, match=r"0% covered by terrain; Counterblast needs a table covered between 25% and 50%"):
        new_game(mapfile=bare)


def test_refuses_a_table_that_is_not_three_by_four_feet():
    """003_52d4831de0a47706.txt: 'Playing Area: 3X4 flat surface'. Either orientation; a metric
    120x90 cm table is within the 1" tolerance (Interpretation 41)."""
    big = OUTPOST.model_copy(update={"id": "big", "width": 60, "height": 44})
    with pytest.raises(SetupError, match=r"map 'big' is 60.0x44.0\"; Counterblast is played on a 3'x4' table "
                                         r"\(48x36\", within 1\"\)"):
        new_game(mapfile=big)
    turned = OUTPOST.model_copy(update={"id": "turned", "width": 36, "height": 48, "pieces": [],
                                         "deployment": []})
    with pytest.raises(SetupError, match="covered by terrain"):      # the size passes, the bare table not
        new_game(mapfile=turned)
    metric = OUTPOST.model_copy(update={"id": "metric", "unit": "cm", "width": 120, "height": 90, "pieces": []})
    with pytest.raises(SetupError, match="covered by terrain"):
        new_game(mapfile=metric)


def test_refuses_unknown_crew_mission_and_options():
    with pytest.raises(SetupError, match="no crew 'nobody'"):
        Game(Setup("counterblast", OUTPOST, ("nobody", "iron-choir"), {"deployment": "automatic"}, 0))
    with pytest.raises(SetupError, match="no Counterblast mission .bake-off."):
        new_game(mission="bake-off")
    with pytest.raises(SetupError, match="options refused"):
        new_game(short_range="far")


def test_deployment_inside_zones_without_overlap():
    g = new_game()
    st, t = g.state, g.rules.table
    for mid, m in st.models.items():
        zone = 30 * IN if m.player == 1 else 0
        assert zone <= m.y <= zone + 6 * IN
        others = [g.rules.base(o) for o in st.models.values() if o.id != mid]
        assert t.position_problem(m.x, m.y, g.rules.radius[mid], others) is None


@pytest.mark.parametrize("map_id", ["outpost", "quarry"])
@pytest.mark.parametrize("crew", ["dustjaw-raiders", "iron-choir", "reach-rangers"])
def test_deployment_on_a_point_symmetric_table_is_the_same_for_both_sides_turned_half_a_turn(map_id, crew):
    """Our reading (docs/rules/counterblast.md, "Deployment"): the automatic placement is ordered
    as each player faces the table, so on a point-symmetric table side 2 stands exactly where
    side 1 would, turned half a turn (reading ties in table coordinates once put one leader at
    the front of its block and the other at the back). Both shipped tables are point-symmetric."""
    from engine.data.maps import load_named_map
    mf = load_named_map(map_id)
    g = Game(Setup("counterblast", mf, (crew, crew), {"deployment": "automatic"}, 1))
    k = mf.mm_per_unit
    w, h = mf.width * k, mf.height * k
    ones = {mid[2:]: m for mid, m in g.state.models.items() if m.player == 1}
    assert len(ones) >= 8
    for name, m in ones.items():
        o = g.state.models[f"2-{name}"]
        assert (round(o.x, 3), round(o.y, 3)) == (round(w - m.x, 3), round(h - m.y, 3)), name


def test_turn_starts_with_moxie_pools_and_leader_election():
    """003_52d4831de0a47706.txt: 'counts all of its models that are currently on the table' /
    'at the beginning of a turn 1 moxie can be used to elect a new leader'."""
    g = new_game(rosters=("reach-rangers", "iron-choir"))
    assert g.state.moxie == {1: 9, 2: 9}
    d = g.pending()
    assert d.player == 1 and d.kind == "elect a leader" and C.KeepLeader() in d.options
    submit(g, C.ElectLeader("1-medic"))
    assert g.state.leader[1] == "1-medic" and g.state.moxie[1] == 8
    g.state.rng.force(*[7] * 8, *[1] * 9)        # Moxie checks: P1 8 successes, P2 none
    ev = submit(g, C.KeepLeader())
    assert g.state.active == 1 and g.state.phase == "activate"
    assert any("player 1 is Active" in t for t in texts(ev))


def test_scripted_shot_puts_target_down():
    """A Ranger (Zap 4, carbine: damage 1) shoots a Gun Drone (Defense 3, Mettle 2) 4.8" away in
    the open: 2 successes -> 2 raw damage, Defense 0 -> 2 tokens -> Down, Stable and Prone."""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (24, 7)})
    submit(g, C.ActivateSingle("1-ranger-1"))
    assert g.state.moxie[1] == 2
    shot = C.Shoot("1-ranger-1", "pulse-carbine", "2-drone-1")
    d = g.pending()
    assert shot in d.options
    label = d.labels[d.options.index(shot)]
    assert label.startswith("Ranger 1 shoots Gun Drone 1 with the Pulse Carbine (difficulty 7, ")
    assert label.endswith("% to put it Down)")
    assert g.rules.cover(g.state, "1-ranger-1", "2-drone-1") == "none"
    g.state.rng.force(7, 9, 2, 1,   1, 2, 3)
    ev = submit(g, shot)
    m = g.state.models["2-drone-1"]
    assert (m.tokens, m.down, m.stable, m.has("prone")) == (2, True, True, True)
    assert g.state.models["1-ranger-1"].has("spent")
    assert g.state.rng.forced_left == 0
    assert any("→ 2 raw damage" in t for t in texts(ev))
    # the shooter still has its second (free) action; Shoot is not offered twice (Multitasking)
    assert not any(isinstance(o, C.Shoot) for o in g.pending().options)


def test_return_fire_resolves_simultaneously():
    """003_52d4831de0a47706.txt: 'resolve the Shoot action but pause before the final step ...
    Resolve the final step of both Shots at the same time'. The drone fires back although the
    Ranger's shot puts it Down; it pays 1 Moxie and is Stunned afterwards."""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (24, 7)}, moxie=(3, 2))
    submit(g, C.ActivateSingle("1-ranger-1"))
    submit(g, C.Shoot("1-ranger-1", "pulse-carbine", "2-drone-1"))
    d = g.pending()
    assert d.player == 2 and d.kind == "react"
    rf = C.React("2-drone-1", "return_fire", "pulse-carbine")
    assert set(d.options) == {rf, C.React("2-drone-1", "action_roll"), C.NoReaction()}
    g.state.rng.force(8, 8, 1, 1,     # Ranger Zap: 2
                      7, 1, 1, 1,     # drone Zap: 1
                      1, 1, 1,        # drone Defense: 0 -> 2 tokens, Down
                      1, 1, 1)        # Ranger Defense: 0 -> 1 token
    submit(g, rf)
    st = g.state
    assert st.models["2-drone-1"].down and st.models["1-ranger-1"].tokens == 1
    assert st.models["2-drone-1"].has("stunned") and st.moxie[2] == 1
    assert st.rng.forced_left == 0


def test_action_roll_moves_before_the_shot():
    """003_52d4831de0a47706.txt: 'The triggering model immediately resolves a single move action.
    Afterwards, resolve the Shot using the model's new position.'"""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (24, 7)}, moxie=(3, 2))
    submit(g, C.ActivateSingle("1-ranger-1"))
    submit(g, C.Shoot("1-ranger-1", "pulse-carbine", "2-drone-1"))
    submit(g, C.React("2-drone-1", "action_roll"))
    d = g.pending()
    assert d.player == 2 and d.kind == "move" and d.spaces
    dest = MoveTo("2-drone-1", 28 * IN, 7 * IN)
    assert d.spaces[0].check(dest) is None
    assert d.spaces[0].check(MoveTo("2-drone-1", 40 * IN, 7 * IN))     # beyond its Move of 6"
    g.state.rng.force(1, 1, 1, 1)                                      # the shot misses
    submit(g, dest)
    st = g.state
    assert (st.models["2-drone-1"].x, st.models["2-drone-1"].tokens) == (28 * IN, 0)
    assert st.models["2-drone-1"].has("stunned") and st.rng.forced_left == 0


def test_counterstrike_and_parry():
    """003_52d4831de0a47706.txt: Counterstrike 'Resolve the final step of both Strikes at the same
    time'; Parry 'adds its Grit to its Defense'."""
    contact = 18 * IN + 15 + 12.5 + 0.3
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (contact / IN, 7)}, moxie=(3, 2))
    submit(g, C.ActivateSingle("1-ranger-1"))
    strike = C.Strike("1-ranger-1", "combat-knife", "2-drone-1")
    assert strike in g.pending().options
    submit(g, strike)
    d = g.pending()
    cs = C.React("2-drone-1", "counterstrike", "fists")
    assert cs in d.options and C.React("2-drone-1", "parry") in d.options
    g.state.rng.force(7, 8, 1,    # Ranger Grit 3 vs 7: 2 -> 2 raw
                      8,          # drone Grit 1 vs 8 (the Ranger's Grit is higher): 1 -> 1 raw
                      1, 1, 1,    # drone Defense 3
                      1, 1, 1)    # Ranger Defense 3
    submit(g, cs)
    st = g.state
    assert st.models["2-drone-1"].down and st.models["1-ranger-1"].tokens == 1 and st.rng.forced_left == 0
    # Parry: Defense 3 + Grit 1 = 4 dice
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (contact / IN, 7)}, moxie=(3, 2))
    submit(g, C.ActivateSingle("1-ranger-1"))
    submit(g, strike)
    g.state.rng.force(7, 8, 1,  7, 7, 1, 1)
    submit(g, C.React("2-drone-1", "parry"))
    assert g.state.models["2-drone-1"].tokens == 0 and g.state.rng.forced_left == 0


def test_group_activation_with_aim_assist():
    """003_52d4831de0a47706.txt: 'spends 2 Moxie and chooses one of its un-Spent Hero models and up to 2
    of its un-Spent Lackey models' / Aim-Assist 'granting it +1D to tis Zap for that action'."""
    g = staged({"1-captain": (18, 7), "1-ranger-1": (18, 8.3), "1-ranger-2": (18, 5.7), "2-drone-1": (24, 7)},
               moxie=(5, 0))
    grp = C.ActivateGroup(("1-captain", "1-ranger-1", "1-ranger-2"))
    assert grp in g.pending().options
    submit(g, grp)
    assert g.state.moxie[1] == 3
    d = g.pending()
    assert C.GroupAction("shoot") in d.options and C.GroupAction("move") in d.options
    submit(g, C.GroupAction("shoot"))
    d = g.pending()
    assist = C.AimAssist("1-ranger-1", "1-captain")
    assert assist in d.options and C.DoNothing("1-ranger-2") in d.options
    submit(g, assist)
    submit(g, C.DoNothing("1-ranger-2"))
    shot = C.Shoot("1-captain", "pulse-carbine", "2-drone-1")
    d = g.pending()
    assert d.options == (shot, C.DoNothing("1-captain")) or shot in d.options
    g.state.rng.force(*[1] * 6)                       # Zap 5 + 1 die from the Aim-Assist
    ev = submit(g, shot)
    assert any("6d10 vs 7" in t for t in texts(ev)) and g.state.rng.forced_left == 0
    # the group step is over: the next decision is the group's second action
    assert any(isinstance(o, C.GroupAction) for o in g.pending().options)
    assert not g.state.models["1-ranger-1"].has("spent")   # Aim-Assist does not Spend


def test_extra_actions_cost_moxie_and_multitasking():
    """003_52d4831de0a47706.txt: 'may spend 1 Moxie to take an extra action' / 'a model may not use
    the same action twice during a single activation'."""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (40, 30)}, moxie=(2, 0))
    submit(g, C.ActivateSingle("1-ranger-1"))
    submit(g, C.Aim("1-ranger-1"))
    assert C.Aim("1-ranger-1") not in g.pending().options
    submit(g, C.GoProne("1-ranger-1"))
    d = g.pending()
    assert C.StandUp("1-ranger-1") not in d.options and not d.spaces         # Move used
    assert g.state.moxie[1] == 1 and g.state.act.actions_left == 0
    assert C.Recover("1-ranger-1") not in d.options                           # nothing to recover from
    # Prone models may not Jump: nothing but ending the activation is left
    assert d.options == (C.EndActivation(),)
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (40, 30)}, moxie=(2, 0))
    submit(g, C.ActivateSingle("1-ranger-1"))
    submit(g, C.Aim("1-ranger-1"))
    submit(g, MoveTo("1-ranger-1", 19 * IN, 7 * IN))
    assert g.state.moxie[1] == 1 and C.Rush("1-ranger-1") in g.pending().options
    g.state.rng.force(1)
    ev = submit(g, C.Rush("1-ranger-1"))              # the third action: 1 Moxie
    assert "Player 1 spends 1 Moxie for an extra action" in texts(ev) and g.state.moxie[1] == 0
    ev = submit(g, C.Stay("1-ranger-1"))
    # no Moxie left: the activation ends, neither crew can act, and the turn runs to its end
    assert "Player 1 ends the activation" not in texts(ev) and any("Upkeep, turn 1" in t for t in texts(ev))
    assert g.state.turn == 2


def test_jump_off_a_container_falls():
    """003_52d4831de0a47706.txt: 'the model can end up over empty space. In this case, the model falls'
    / 'becomes Prone and Stunned and takes 1 raw damage for each full inch fallen'."""
    g = staged({"1-ranger-1": (27, 1.8), "2-drone-1": (40, 30)})
    m = g.state.models["1-ranger-1"]
    assert m.z == pytest.approx(65.0)                 # on top of the 65 mm container
    submit(g, C.ActivateSingle("1-ranger-1"))
    g.state.rng.force(10,  1, 1, 1)                   # d5 = 5"; Defense 3 vs 2 raw damage
    ev = submit(g, C.Jump("1-ranger-1", 90))
    assert m.z == 0 and m.y == pytest.approx(6.8 * IN, abs=0.5)
    assert m.has("prone") and m.has("stunned") and m.tokens == 2
    assert any("falls 2.6\"" in t and "2 raw damage" in t for t in texts(ev))
    assert g.state.models["1-ranger-1"].has("spent")   # Jump Spends


def test_snapshot_after_a_move():
    """003_52d4831de0a47706.txt: 'A model that is able to draw Unobscured Los to a model that has just
    completed a Manuever action may trigger a Snapshot targeting that model.'"""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (26, 7)}, moxie=(3, 1))
    submit(g, C.ActivateSingle("1-ranger-1"))
    submit(g, MoveTo("1-ranger-1", 20 * IN, 7 * IN))
    d = g.pending()
    snap = C.React("2-drone-1", "snapshot", "pulse-carbine")
    assert d.player == 2 and snap in d.options
    g.state.rng.force(7, 1, 1, 1,   1, 1, 1)
    submit(g, snap)
    st = g.state
    assert st.models["1-ranger-1"].tokens == 1 and st.moxie[2] == 0 and st.models["2-drone-1"].has("stunned")
    assert st.phase == "act"                          # the Ranger's activation goes on


def test_upkeep_dread_and_panic_cascade():
    """003_52d4831de0a47706.txt: 'All down models that are not also stable are removed as casualties' /
    'For each of its downed models, add 1' / 'If a crew's dread level is greater than the number of
    its models remaining on the table, each model in that crew must roll Knack/7'."""
    pos = {f"1-{k}": (17 + 2 * i, 7) for i, k in enumerate(
        ["captain", "medic", "dray", "ollo", "ranger-1", "ranger-2", "ranger-3", "ranger-4"])}
    pos["2-drone-1"] = (40, 2)
    g = staged(pos, moxie=(2, 2))
    st = g.state
    st.dread[1] = 5
    r1, r2 = st.models["1-ranger-1"], st.models["1-ranger-2"]
    r1.tokens, r1.down, r1.stable = 3, True, False     # not Stable: a casualty at Upkeep
    r2.tokens, r2.down, r2.stable = 3, True, True      # Stable: stays Down, becomes un-Stable
    submit(g, C.PassTurn())                            # P1 passes; P2 is then the only crew
    submit(g, C.PassTurn())
    d = g.pending()
    assert d.kind == "reduce dread" and d.player == 1 and len(d.options) == 3
    # Dread 5 + 1 + 1 Down + 1 casualty = 8 > 7 models: Panic tests (Knack 4,5,3,6,2,2,2 = 24 dice)
    st.rng.force(7, 1, 1, 1, *[1] * 20)
    ev = submit(g, C.ReduceDread(0))
    assert st.dread[1] == 8 and r1.casualty and r2.down and not r2.stable
    panicked = sorted(i for i in st.order if st.models[i].has("panic"))
    assert "1-captain" not in panicked and len(panicked) == 6
    assert any("Dread +3 = 8" in t for t in texts(ev))
    assert st.turn == 2 and st.rng.forced_left == 0
    # a Panicked model must Rally first; a failed Rally flees toward the evac point and Spends it
    while g.pending().kind == "elect a leader":
        submit(g, C.KeepLeader())
    st.active, st.phase = 1, "activate"
    g._pending_ok = False
    submit(g, C.ActivateSingle("1-medic"))
    assert set(g.pending().options) == {C.Rally("1-medic"), C.EndActivation()}
    x0 = st.models["1-medic"].x
    st.rng.force(1, 1, 1, 1, 1)
    submit(g, C.Rally("1-medic"))
    med = st.models["1-medic"]
    assert med.has("spent") and med.has("panic") and med.x < x0     # evac-1 is on the west edge
    assert st.act is None


def test_end_of_game_scoring_after_six_turns():
    """003_52d4831de0a47706.txt: 'Each battle lasts for six turns' / battle score thresholds /
    'Score Difference 6+ = Heroic Victory 4-5 = Major Victory 3 or less points = Minor Victory'."""
    g = new_game(rosters=("dustjaw-raiders", "iron-choir"))
    st = g.state
    st.turn = 6
    st.models["2-overseer"].casualty = True            # 100 + 110 points lost: 290 / 500 = 58%
    st.models["2-unit-zero"].casualty = True
    st.queue, st.passed, st.phase, st.active = [], [], "activate", 1
    g._pending_ok = False
    submit(g, C.PassTurn())
    submit(g, C.PassTurn())
    while g.pending() is not None:
        submit(g, g.pending().options[0])
    r = g.result()
    sc = st.final["scores"]
    assert (sc[1]["battle"], sc[2]["battle"]) == (6, 3)
    assert r.winner == 1 and r.scores == {1: 6 + sc[1]["objective"], 2: 3 + sc[2]["objective"]}
    assert st.turn == 6 and g.over


def test_odds_in_labels_match_exact_attack_odds():
    """The labels' chances (floats, cached) equal ``odds.attack_odds`` (exact fractions)."""
    from engine.rulesets.counterblast.rules import _attack_chance
    for args in [(4, 7, 1, 10, 3, 2, 0, False), (6, 8, 2, 9, 5, 4, 1, False), (5, 7, 3, 10, 4, 3, 3, True),
                 (1, 7, 1, 10, 0, 2, 0, False), (0, 7, 1, 10, 3, 2, 0, False)]:
        dice, diff, dmg, ex, dd, met, tok, down = args
        o = odds.attack_odds(dice, diff, dmg, dd, explode_on=ex, mettle=met, current_tokens=tok)
        exact = o.outcome.casualty if down else o.outcome.down_or_worse
        assert _attack_chance(*args) == pytest.approx(float(exact), abs=1e-9)


def test_game_ends_when_one_crew_is_left():
    """003_52d4831de0a47706.txt: 'or until only one crew has models remaining on the table'.
    Player 1 keeps 408 of 500 points (81.6%: battle score 6; the staged crews' points are points.py's
    since issue 49), player 2 none (1)."""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (24, 7)},
               keep=("1-captain", "1-medic", "1-dray", "1-ollo", "1-ranger-2", "1-ranger-3"))
    submit(g, C.ActivateSingle("1-ranger-1"))
    g.state.rng.force(10, 10, 10, 10, 7, 7, 7, 7,  1, 1, 1)     # 8 successes: 8 raw -> 8 tokens > 2 x 2
    ev = submit(g, C.Shoot("1-ranger-1", "pulse-carbine", "2-drone-1"))
    assert g.state.models["2-drone-1"].casualty and g.over
    assert g.result().winner == 1 and "Only one crew is left on the table" in texts(ev)
    assert g.rules.scores(g.state)[1]["remaining"] == 408
    assert g.result().scores == {1: 6, 2: 1} and g.state.final["degree"] == "major"


CONTACT_X = (18 * IN + 15 + 12.5 + 0.3) / IN     # a drone in base contact east of a Ranger at x = 18"


def test_pursuit_follows_a_disengaging_model():
    """003_52d4831de0a47706.txt: 'Whenever a model disengages, any model Engaging it may trigger a
    pursuit ... moves towards the Disengaging model as per the move action, re-engaging it if at all possible.'"""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (CONTACT_X, 7)}, moxie=(3, 1))
    assert g.rules.engaged(g.state, "1-ranger-1")
    submit(g, C.ActivateSingle("1-ranger-1"))
    assert not any(isinstance(o, C.Shoot) for o in g.pending().options)     # Engaged: no shooting
    submit(g, MoveTo("1-ranger-1", 18 * IN, 4 * IN))
    d = g.pending()
    pursue = C.React("2-drone-1", "pursuit")
    assert pursue in d.options and C.React("2-drone-1", "snapshot", "pulse-carbine") in d.options
    submit(g, pursue)
    st = g.state
    assert g.rules.dist(st, "1-ranger-1", "2-drone-1") * IN <= 1.0
    assert g.rules.engaged(st, "1-ranger-1") and st.models["2-drone-1"].has("stunned") and st.moxie[2] == 0


def test_disperse_cancels_a_psi_strike():
    """003_52d4831de0a47706.txt: 'A psifer within 12″ of another psifer that is rolling Psi Check may
    trigger a Disperse ... If the result is greater than the other model's roll, then the target's roll
    is treated as having a result of 0.'"""
    g = staged({"1-ollo": (18, 7), "2-drone-1": (24, 7), "2-cantor": (26, 8.5)}, moxie=(3, 1))
    submit(g, C.ActivateSingle("1-ollo"))
    spike = C.PsiStrike("1-ollo", "mind-spike", "2-drone-1")
    assert spike in g.pending().options
    submit(g, spike)
    d = g.pending()
    assert d.options == (C.React("2-cantor", "disperse"), C.NoReaction())
    g.state.rng.force(7, 1, 1, 1, 1, 1,      # Ollo: Knack 6 vs 7 -> 1
                      7, 7, 1, 1, 1, 1)      # the Cantor: 2 > 1 -> Ollo's roll counts as 0
    ev = submit(g, d.options[0])
    assert g.state.models["2-drone-1"].tokens == 0 and g.state.rng.forced_left == 0
    assert any("the enigma fizzles" in t for t in texts(ev))


def test_throw_moves_a_smaller_model_and_lands_it_prone():
    """003_52d4831de0a47706.txt: Throw 'may only target models smaller than the attacker' / 'move the
    target by the Check result in inches as though it Jumped ... It lands Prone.'"""
    g = staged({"1-ranger-1": (24, 7), "2-unit-zero": (24 - (15 + 20 + 0.3) / IN, 7), "2-drone-1": (40, 30)},
               active=2, moxie=(0, 3))
    submit(g, C.ActivateSingle("2-unit-zero"))
    opts = g.pending().options
    throw = C.Throw("2-unit-zero", "1-ranger-1")
    assert throw in opts
    x0 = g.state.models["1-ranger-1"].x
    g.state.rng.force(7, 7, 7, 1, 1, 1)      # Grit 6 vs 7 (the Ranger's Grit 3 is lower): 3"
    ev = submit(g, throw)
    # 'On a success, choose a direction': asked after the roll, the distance known
    assert "Ranger 1 will fly 3\": Unit Zero chooses the direction" in texts(ev)
    d = g.pending()
    assert d.kind == "throw direction" and d.player == 2 and g.state.rng.forced_left == 0
    assert C.ThrowDirection("2-unit-zero", "1-ranger-1", 0.0) in d.options
    ev = submit(g, C.ThrowDirection("2-unit-zero", "1-ranger-1", 0.0))
    r = g.state.models["1-ranger-1"]
    assert r.x - x0 == pytest.approx(3 * IN, abs=0.01) and r.has("prone")
    assert g.state.models["2-unit-zero"].has("spent")
    # a drone (size 1) may not throw the Ranger (size 2)
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (CONTACT_X, 7)}, active=2, moxie=(0, 3))
    submit(g, C.ActivateSingle("2-drone-1"))
    assert not any(isinstance(o, C.Throw) for o in g.pending().options)


def test_treat_heals_with_a_medkit_never_below_one_token():
    """003_52d4831de0a47706.txt: 'Remove one damage token from the target for each success, down to a
    minimum of 1 token remaining' / 'If a model has less damage tokens than its mettle, it stops being down'."""
    g = staged({"1-medic": (18, 7), "1-ranger-1": (19.5, 7), "2-drone-1": (40, 30)})
    r = g.state.models["1-ranger-1"]
    r.tokens, r.down, r.stable = 3, True, False
    r.gain("prone")
    submit(g, C.ActivateSingle("1-medic"))
    treat = C.Treat("1-medic", "1-ranger-1")
    assert treat in g.pending().options
    g.state.rng.force(7, 7, 7, 1, 1)         # Knack 5: 3 successes, but one token stays
    submit(g, treat)
    assert (r.tokens, r.down, r.stable) == (1, False, False) and r.has("prone")
    assert g.state.rng.forced_left == 0


def test_engineer_stabilises_a_robot_without_tools():
    """003_52d4831de0a47706.txt: 'Engineer is used to stabilize robots' / 'The target becomes Stable on a success'."""
    g = staged({"2-drone-1": (18, 7), "2-drone-2": (19.5, 7), "1-ranger-1": (40, 30)}, active=2, moxie=(0, 3))
    d2 = g.state.models["2-drone-2"]
    d2.tokens, d2.down, d2.stable = 2, True, False
    d2.gain("prone")
    submit(g, C.ActivateSingle("2-drone-1"))
    opts = g.pending().options
    assert C.Engineer("2-drone-1", "2-drone-2") in opts and C.Treat("2-drone-1", "2-drone-2") not in opts
    g.state.rng.force(7)                     # Knack 1
    submit(g, C.Engineer("2-drone-1", "2-drone-2"))
    assert (d2.tokens, d2.down, d2.stable) == (2, True, True)


def test_hack_marks_and_marked_lowers_the_shot_difficulty():
    """003_52d4831de0a47706.txt: 'Hack actions can be used to Mark enemies with a scanner' / 'Any zap
    checks targeting a model with this condition have their difficulty reduced by 1'."""
    g = staged({"1-captain": (18, 7), "2-drone-1": (24, 7)})
    submit(g, C.ActivateSingle("1-captain"))
    hack = C.HackMark("1-captain", "2-drone-1")
    assert hack in g.pending().options
    g.state.rng.force(7, 1, 1, 1)
    submit(g, hack)
    assert g.state.models["2-drone-1"].has("marked")
    d = g.pending()
    shot = C.Shoot("1-captain", "pulse-carbine", "2-drone-1")
    assert "(difficulty 6, " in d.labels[d.options.index(shot)]
    g.state.rng.force(6, 1, 1, 1, 1,  1, 1, 1)
    ev = submit(g, shot)
    assert any("5d10 vs 6" in t for t in texts(ev))


def test_stunned_reactor_cannot_react_again():
    """Project definition of Stunned (Interpretation 4): a Stunned model may not trigger reactions."""
    g = staged({"1-ranger-1": (18, 7), "1-ranger-2": (18, 5.5), "2-drone-1": (24, 7)}, moxie=(3, 3))
    g.state.models["2-drone-1"].gain("stunned")
    submit(g, C.ActivateSingle("1-ranger-1"))
    g.state.rng.force(1, 1, 1, 1)
    submit(g, C.Shoot("1-ranger-1", "pulse-carbine", "2-drone-1"))
    assert g.pending().kind == "act" and g.state.moxie[2] == 3      # no reaction was offered


def test_no_shooting_into_a_friend_s_melee_and_down_models_do_not_activate():
    """003_52d4831de0a47706.txt: 'Models may not target enemies that are engaging or are engaged by
    friendly models with shoot actions' / 'Downed models may not use actions'."""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (CONTACT_X, 7), "1-captain": (24, 7), "2-drone-2": (30, 7)})
    assert C.ActivateSingle("1-captain") in g.pending().options
    submit(g, C.ActivateSingle("1-captain"))
    shots = {o.target for o in g.pending().options if isinstance(o, C.Shoot)}
    assert "2-drone-1" not in shots and "2-drone-2" in shots
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (24, 7)}, active=2, moxie=(0, 2))
    d = g.state.models["2-drone-1"]
    d.tokens, d.down, d.stable = 2, True, True
    assert g.pending().options == (C.PassTurn(),) or C.ActivateSingle("2-drone-1") not in g.pending().options


def test_rush_rolls_a_d10_then_moves():
    """003_52d4831de0a47706.txt: 'A model that has used the Move action ... may Rush ... rolls a d10 and
    uses the result instead of its move attribute. This action spends the model.'"""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (40, 30)})
    submit(g, C.ActivateSingle("1-ranger-1"))
    assert C.Rush("1-ranger-1") not in g.pending().options            # Move first
    submit(g, MoveTo("1-ranger-1", 19 * IN, 7 * IN))
    assert C.Rush("1-ranger-1") in g.pending().options
    g.state.rng.force(3)
    submit(g, C.Rush("1-ranger-1"))
    d = g.pending()
    assert d.kind == "move" and d.spaces[0].allowance == 3 * IN and C.Stay("1-ranger-1") in d.options
    assert d.spaces[0].check(MoveTo("1-ranger-1", 23 * IN, 7 * IN))     # 4" > 3"
    submit(g, MoveTo("1-ranger-1", 21.5 * IN, 7 * IN))
    assert g.state.models["1-ranger-1"].has("spent") and g.state.act.actions_left == 0


def test_headhunters_and_data_heist_objectives():
    """The seed scores objectives but defines none (Interpretation 17): Headhunters scores a fallen
    enemy leader; Data Heist scores hacked terminals."""
    g = new_game(rosters=("dustjaw-raiders", "iron-choir"), mission="headhunters")
    st = g.state
    st.models["2-overseer"].casualty = True
    st.leader_lost[2] = True
    units = g.rules._objective_units(st, 1)
    assert units["take-the-head"] == 1 and g.rules._objective_units(st, 2)["take-the-head"] == 0
    g = staged({"1-captain": (25.06, 18.0), "2-drone-1": (40, 30)}, mission="data-heist")
    submit(g, C.ActivateSingle("1-captain"))
    hack = C.HackTerminal("1-captain", "obj-2")
    assert hack in g.pending().options
    g.state.rng.force(7, 1, 1, 1)
    submit(g, hack)
    assert g.state.hacked[1] == ["obj-2"] and g.rules.scores(g.state)[1]["units"]["crack-terminals"] == 1


def test_half_blind_moves_a_d5_and_may_not_rush():
    """003_52d4831de0a47706.txt: 'Half-Blind models only move a d5 inches when they use the move action,
    and may not Rush or Jump.'"""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (40, 30)})
    g.state.models["1-ranger-1"].gain("half_blind")
    submit(g, C.ActivateSingle("1-ranger-1"))
    d = g.pending()
    assert C.MoveD5("1-ranger-1") in d.options and not d.spaces
    assert not any(isinstance(o, C.Jump) for o in d.options)
    g.state.rng.force(5)                     # d10 5 -> d5 3
    submit(g, C.MoveD5("1-ranger-1"))
    d = g.pending()
    assert d.kind == "move" and d.spaces[0].allowance == 3 * IN
    submit(g, C.Stay("1-ranger-1"))
    assert C.Rush("1-ranger-1") not in g.pending().options


def test_burning_at_upkeep():
    """003_52d4831de0a47706.txt: 'Burning models take 3 raw damage during the upkeep phase. Prone models
    gain +3d Defense ... If this causes the model to gain damage tokens, they must immediately roll
    Knack/7 and become panicked on a failure. If the model takes no damage tokens form burning, they
    stop burning.'"""
    g = staged({"1-ranger-1": (18, 7), "1-ranger-2": (20, 7), "2-drone-1": (40, 30)}, moxie=(0, 0))
    r1, r2 = g.state.models["1-ranger-1"], g.state.models["1-ranger-2"]
    r1.gain("burning")
    r2.gain("burning")
    r2.gain("prone")
    g.state.passed = [1, 2]
    g.state.rng.force(7, 1, 1,        # Ranger 1: Defense 3, 1 success -> 2 tokens
                      1, 1,           # Knack 2 vs 7: failed -> Panicked
                      7, 7, 7, 1, 1, 1)   # Ranger 2 (Prone): Defense 3 + 3 = 6 dice, 3 successes -> none
    events = []
    g.rules._upkeep(g.state, events)
    assert r1.tokens == 2 and r1.has("burning") and r1.has("panic")
    assert r2.tokens == 0 and not r2.has("burning") and not r2.has("panic")
    assert any("the flames go out" in e.text for e in events)


def test_split_strike_divides_the_grit_dice():
    """003_52d4831de0a47706.txt: 'When shooting or striking, any model may choose to attack multiple targets
    by splitting their dice ... considered to be a single instance of the respective action and resolve
    simultaneously.'"""
    r = 15 + 12.5 + 0.3
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (CONTACT_X, 7), "2-drone-2": (18, 7 + r / IN)})
    submit(g, C.ActivateSingle("1-ranger-1"))
    split = C.SplitStrike("1-ranger-1", "combat-knife", ("2-drone-1", "2-drone-2"), (1, 2))
    assert split in g.pending().options
    g.state.rng.force(7,  7, 8,   1, 1, 1,  1, 1, 1)     # 1 die vs drone 1, 2 dice vs drone 2
    ev = submit(g, split)
    st = g.state
    assert st.models["2-drone-1"].tokens == 1 and st.models["2-drone-2"].down and st.rng.forced_left == 0
    assert any("1d10 vs 7" in t for t in texts(ev)) and any("2d10 vs 7" in t for t in texts(ev))


def test_fall_lands_at_the_closest_valid_position():
    """003_52d4831de0a47706.txt: 'the model can end up over empty space. In this case, the model falls.'
    / 'The model lands in the closest valid position with 3" of the point directly below where it fell
    from, becomes Prone and Stunned and takes 1 raw damage for each full inch fallen.'
    A 2" Jump off the 65 mm container ends with the Ranger's centre over the ground but its base
    overlapping the container's edge: it falls (no backing off onto the roof) and lands on the
    nearest spot clear of the container. By hand: the container's north face is at y = 3.05", the
    base radius 15 mm, so the centre lands at y = 3.05" + 15 mm = 92.47 mm, straight on from the
    point below (88.9 mm): 3.57 mm (0.14") on."""
    g = staged({"1-ranger-1": (27, 1.5), "2-drone-1": (40, 30)})
    st, t = g.state, g.rules.table
    m = st.models["1-ranger-1"]
    assert m.z == pytest.approx(65.0)
    submit(g, C.ActivateSingle("1-ranger-1"))
    st.rng.force(4,  1, 1, 1)                         # d5 = 2"; Defense 3 vs 2 raw damage
    ev = submit(g, C.Jump("1-ranger-1", 90))
    below = (27 * IN, 3.5 * IN)
    assert t.position_problem(*below, g.rules.radius["1-ranger-1"], []) is not None   # the point below: not valid
    assert m.z == 0 and t.position_problem(m.x, m.y, g.rules.radius["1-ranger-1"], []) is None
    assert m.x == pytest.approx(below[0], abs=1e-6) and m.y == pytest.approx(3.05 * IN + 15, abs=0.01)
    assert m.has("prone") and m.has("stunned") and m.tokens == 2
    assert any("over empty space" in x for x in texts(ev))
    assert any("falls 2.6\", landing 0.1\" from the point below" in x and "2 raw damage" in x for x in texts(ev))


def test_fall_with_no_valid_position_is_a_casualty():
    """003_52d4831de0a47706.txt: 'If there are no valid positions in that area, the model is removed as a
    casualty.' A fuel tank (no footing: impassable, not climbable, lower than the container so the Jump
    clears it) fills the ground within 3" of where the Ranger comes down."""
    piece = OUTPOST.pieces[[p.id for p in OUTPOST.pieces].index("tank-01")]
    tank = piece.model_copy(update={"id": "tank-test", "shape": piece.shape.model_copy(
        update={"center": (27.0, 6.5), "radius": 4.0})})
    tanked = OUTPOST.model_copy(update={"id": "outpost-tank", "pieces": list(OUTPOST.pieces) + [tank]})
    g = Game(Setup("counterblast", tanked, ("reach-rangers", "iron-choir"), {"deployment": "automatic"}, 0))
    st = g.state
    where = {"1-ranger-1": (27, 1.8), "1-ranger-2": (18, 7), "2-drone-1": (40, 30)}
    for mid, m in st.models.items():
        if mid in where:
            m.x, m.y = where[mid][0] * IN, where[mid][1] * IN
            m.z = g.rules.table.surface_height(m.x, m.y)
        else:
            m.casualty = True
    st.queue, st.passed, st.phase, st.active = [], [], "activate", 1
    st.moxie = {1: 3, 2: 0}
    g._pending_ok = False
    r1 = st.models["1-ranger-1"]
    assert r1.z == pytest.approx(65.0)
    assert g.rules.landing_spot(st, "1-ranger-1", 27 * IN, 3.8 * IN, r1.z) is None
    submit(g, C.ActivateSingle("1-ranger-1"))
    st.rng.force(4)                                   # d5 = 2": over the tank
    ev = submit(g, C.Jump("1-ranger-1", 90))
    assert r1.casualty and st.casualties[1] == [["1-ranger-1", False]]
    assert any("no valid position within 3\"" in x and "a casualty" in x for x in texts(ev))
    assert st.rng.forced_left == 0 and not g.over    # no Defense roll; Ranger 2 plays on


def test_pinned_model_may_only_recover_set_by_hand():
    """003_52d4831de0a47706.txt: 'A pinned model may not use actions other than recover. When it does, it
    rolls Knack/7 and is un-pinned if it succeeeds.' The seed names no source of Pinned, so the
    condition is set by hand here."""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (CONTACT_X, 7)})
    r = g.state.models["1-ranger-1"]
    r.gain("pinned")
    submit(g, C.ActivateSingle("1-ranger-1"))
    d = g.pending()
    assert d.options == (C.Recover("1-ranger-1"), C.EndActivation()) and not d.spaces
    g.state.rng.force(7, 1)                           # Knack 2 vs 7: one success -> un-pinned
    ev = submit(g, C.Recover("1-ranger-1"))
    assert not r.has("pinned") and any("Recovers: Knack 2d10 vs 7" in x and "no longer Pinned" in x for x in texts(ev))
    assert C.Strike("1-ranger-1", "combat-knife", "2-drone-1") in g.pending().options


def test_blind_model_cannot_see_to_attack_and_moves_two_set_by_hand():
    """003_52d4831de0a47706.txt: 'Blind models automatically roll a result of 0 on Zap checks, reduce their
    Grit to 1d, and reduce their move attribute to 2. Blind models may not draw line of sight to anything
    except themselves.' The seed names no source of Blind, so the condition is set by hand here."""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (CONTACT_X, 7)})
    g.state.models["1-ranger-1"].gain("blind")
    submit(g, C.ActivateSingle("1-ranger-1"))
    d = g.pending()
    assert not any(isinstance(o, (C.Shoot, C.Strike, C.Throw, C.SplitShoot, C.SplitStrike)) for o in d.options)
    moves = [s.allowance for s in d.spaces if isinstance(s, MoveSpace)]   # ending standing, and Prone
    assert moves and all(a == pytest.approx(2 * IN) for a in moves)


def test_split_shot_uneven_over_three_targets():
    """003_52d4831de0a47706.txt: 'When shooting or striking, any model may choose to attack multiple targets
    by splitting their dice. To do this, it divides its Zap or Grit among however many targets it wishes to
    attack and resolves the actions as normal for each one using the allocated dice.' A Ranger (Zap 4)
    splits 1 / 1 / 2 over three Gun Drones: a split the options do not list (they list every two-way
    split and the most even three-way one), accepted through the split space."""
    from engine.core import IllegalChoice
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (24, 7), "2-drone-2": (22, 4.5), "2-drone-4": (26, 5)})
    submit(g, C.ActivateSingle("1-ranger-1"))
    d = g.pending()
    splits = [o for o in d.options if isinstance(o, C.SplitShoot)]
    assert C.SplitShoot("1-ranger-1", "pulse-carbine", ("2-drone-2", "2-drone-1"), (3, 1)) in splits   # uneven
    assert C.SplitShoot("1-ranger-1", "pulse-carbine", ("2-drone-2", "2-drone-1", "2-drone-4"), (2, 1, 1)) in splits
    assert len(splits) == 3 * 3 + 1
    split = C.SplitShoot("1-ranger-1", "pulse-carbine", ("2-drone-2", "2-drone-1", "2-drone-4"), (1, 1, 2))
    assert split not in d.options
    for bad, why in [((("2-drone-2", "2-drone-1"), (1, 2)), "the pool is 4"),
                     ((("2-drone-2", "2-drone-2"), (2, 2)), "only once"),
                     ((("2-drone-2", "2-drone-1", "2-drone-4"), (3, 1, 0)), "at least one die"),
                     ((("2-drone-2",), (4,)), "at least two targets")]:
        with pytest.raises(IllegalChoice, match=why):
            g.check(1, C.SplitShoot("1-ranger-1", "pulse-carbine", *bad))
    g.state.rng.force(7,  1,  8, 9,      # drone 2: 1 die, 1 hit; drone 1: 1 die, miss; drone 4: 2 dice, 2 hits
                      1, 1, 1,           # drone 2 Defense: 1 token
                      7, 1, 1)           # drone 4 Defense: 1 success, 1 token
    ev = submit(g, split)
    st = g.state
    assert [st.models[t].tokens for t in ("2-drone-2", "2-drone-1", "2-drone-4")] == [1, 0, 1]
    assert st.rng.forced_left == 0 and st.models["1-ranger-1"].has("spent")
    assert [x.split(":")[0] for x in texts(ev) if "shoots" in x] == [
        "Ranger 1 shoots Gun Drone 2 with the Pulse Carbine", "Ranger 1 shoots Gun Drone 1 with the Pulse Carbine",
        "Ranger 1 shoots Gun Drone 4 with the Pulse Carbine"]
    assert sum("1d10 vs 7" in x for x in texts(ev)) == 2 and any("2d10 vs 7" in x for x in texts(ev))


def test_split_offers_are_capped_and_the_space_samples_legal_splits():
    """003_52d4831de0a47706.txt: 'divides its Zap or Grit among however many targets it wishes to attack'.
    Options: every two-way split among the nearest ``split_offer_targets`` (3) targets and the most even
    split over 3..3 of them; the space accepts (and samples) any legal split over all targets."""
    from engine.rulesets.counterblast.rules import SplitSpace, split_offers
    offers = split_offers(["a", "b", "c", "d"], 5, 3)
    assert len(offers) == 3 * 4 + 1 and (("a", "b", "c"), (2, 2, 1)) in offers
    assert all(len(t) >= 2 and sum(dd) == 5 and min(dd) >= 1 for t, dd in offers)
    assert split_offers(["a", "b"], 1, 3) == []
    space = SplitSpace(C.SplitShoot, "1-ranger-1", "pulse-carbine", ("a", "b", "c", "d"), 5)
    assert space.check(C.SplitShoot("1-ranger-1", "pulse-carbine", ("d", "c", "b", "a"), (1, 1, 1, 2))) is None
    rng = random.Random(3)
    seen = set()
    for _ in range(300):
        c = space.sample(rng)
        assert space.check(c) is None
        seen.add(len(c.targets))
    assert seen == {2, 3, 4}


def test_reaction_cost_and_count_are_the_options_in_play():
    """003_52d4831de0a47706.txt, Reactions: a reaction costs 'one Moxie' and a crew may make 'one
    reaction' to an action. Both are options a table may change (``reaction_cost``,
    ``reactions_per_crew_per_action``: 0 is a table without reactions), and the flow asks
    ``moxie.may_react`` before every reaction window: the same Snapshot as above is offered at
    cost 2 to a crew with 2 Moxie (and the log says it cost 2), not to one with 1, and never when
    the table plays without reactions."""
    def after_move(moxie_p2, **options):
        g = staged({"1-ranger-1": (18, 7), "2-drone-1": (26, 7)}, moxie=(3, moxie_p2), **options)
        submit(g, C.ActivateSingle("1-ranger-1"))
        submit(g, MoveTo("1-ranger-1", 20 * IN, 7 * IN))
        return g

    snap = C.React("2-drone-1", "snapshot", "pulse-carbine")
    g = after_move(2, reaction_cost=2)
    d = g.pending()
    assert d.player == 2 and snap in d.options
    assert g.rules.describe_choice(g.state, snap).endswith("(2 Moxie)")
    g.state.rng.force(7, 1, 1, 1,   1, 1, 1)
    ev = submit(g, snap)
    assert g.state.moxie[2] == 0 and "Gun Drone 1 reacts: Snapshot (2 Moxie)" in texts(ev)

    g = after_move(1, reaction_cost=2)               # cannot pay: no window, the Ranger acts on
    assert g.pending().player == 1 and g.state.phase == "act"

    g = after_move(3, reactions_per_crew_per_action=0)
    assert g.pending().player == 1 and g.state.phase == "act"


def test_activation_and_leader_costs_read_the_options():
    """The prompts and the log name the Moxie the options charge, not the seed's figures."""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (26, 7)}, moxie=(5, 0), single_activation_cost=2,
               group_activation_cost=3)
    d = g.pending()
    assert "one model (2 Moxie), a group (3 Moxie)" in d.prompt
    ev = submit(g, C.ActivateSingle("1-ranger-1"))
    assert any("activates Ranger 1 (2 Moxie)" in t for t in texts(ev)) and g.state.moxie[1] == 3
