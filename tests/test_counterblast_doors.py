"""Counterblast: Hack opens a secure door (003_52d4831de0a47706.txt: 'Hack actions can be used to
Mark enemies with a scanner or open a secure door'). Doors are map pieces of kind ``door``; the
outpost's two Security Gates close the uplink ring's north and south gaps. Dice are forced."""
from counterblast_fixtures import IN, OUTPOST, staged, submit, texts

from engine.core.tables import table_without
from engine.rulesets.common import MoveTo
from engine.rulesets.counterblast import choices as C

# The north gate runs from (24, 21) to (27.2, 20.4); a Ranger just north of it, a drone south.
NORTH, SOUTH = (25.5, 22.0), (25.5, 19.5)


def test_outpost_has_two_secure_gates_and_the_table_without_them_is_shared():
    g = staged({"1-ranger-1": NORTH})
    assert g.rules.doors == ["door-01", "door-02"]
    t = table_without(OUTPOST, ["door-01"])
    assert t is table_without(OUTPOST, ["door-01"])
    assert [p.id for p in t.pieces if p.kind == "door"] == ["door-02"]
    assert len(t.pieces) == len(g.rules.table.pieces) - 1


def test_a_closed_gate_blocks_sight_and_is_hacked_open():
    g = staged({"1-ranger-1": NORTH, "2-drone-1": SOUTH})
    st, rules = g.state, g.rules
    assert rules.table.distance_to_piece(rules.base(st.models["1-ranger-1"]), "door-01") < 1 * IN
    assert rules.seen(st, "1-ranger-1", "2-drone-1") == 0.0            # 60 mm of steel in between
    submit(g, C.ActivateSingle("1-ranger-1"))
    hack = C.HackDoor("1-ranger-1", "door-01")
    d = g.pending()
    assert hack in d.options and C.HackDoor("1-ranger-1", "door-02") not in d.options
    assert d.labels[d.options.index(hack)] == "Ranger 1 hacks the Security Gate open (Knack/7)"
    assert not any(isinstance(o, C.Shoot) for o in d.options)
    st.rng.force(7, 1)                                                  # Knack 2 vs 7: one success
    ev = submit(g, hack)
    assert st.opened == ["door-01"] and st.rng.forced_left == 0
    assert any("Hacks the Security Gate" in t and "it slides open" in t for t in texts(ev))
    assert rules.valid_target(st, "1-ranger-1", "2-drone-1")
    assert C.Shoot("1-ranger-1", "pulse-carbine", "2-drone-1") in g.pending().options
    assert C.HackDoor("1-ranger-1", "door-01") not in g.pending().options
    assert g.rules.view(st, 1)["opened_doors"] == ["door-01"]


def test_an_open_gate_lets_a_model_walk_through():
    g = staged({"1-ranger-1": NORTH, "2-drone-1": (40, 30)})
    submit(g, C.ActivateSingle("1-ranger-1"))
    through = MoveTo("1-ranger-1", 25.5 * IN, 19.4 * IN)
    space = next(sp for sp in g.pending().spaces if sp.choice_type is MoveTo)
    assert space.check(through) is not None                             # closed: no way in 5"
    g.state.rng.force(10, 1, 8)                                         # a 10 explodes (an 8): 2 successes
    submit(g, C.HackDoor("1-ranger-1", "door-01"))
    space = next(sp for sp in g.pending().spaces if sp.choice_type is MoveTo)
    assert space.check(through) is None
    submit(g, through)
    r = g.state.models["1-ranger-1"]
    assert (round(r.x / IN, 2), round(r.y / IN, 2)) == (25.5, 19.4)


def test_a_failed_hack_leaves_the_gate_locked():
    g = staged({"1-ranger-1": NORTH, "2-drone-1": SOUTH})
    submit(g, C.ActivateSingle("1-ranger-1"))
    g.state.rng.force(6, 1)
    ev = submit(g, C.HackDoor("1-ranger-1", "door-01"))
    assert g.state.opened == [] and any("still locked" in t for t in texts(ev))
    assert g.rules.seen(g.state, "1-ranger-1", "2-drone-1") == 0.0


def test_no_hack_out_of_reach_or_while_engaged():
    far = staged({"1-ranger-1": (25.5, 22.9), "2-drone-1": (40, 30)})   # base edge 1.3" from the gate
    submit(far, C.ActivateSingle("1-ranger-1"))
    assert not any(isinstance(o, C.HackDoor) for o in far.pending().options)
    contact = (25.5 * IN + 15 + 12.5 + 0.3) / IN
    engaged = staged({"1-ranger-1": NORTH, "2-drone-1": (contact, 22.0)})
    assert engaged.rules.engaged(engaged.state, "1-ranger-1")
    submit(engaged, C.ActivateSingle("1-ranger-1"))
    assert not any(isinstance(o, C.HackDoor) for o in engaged.pending().options)


def test_opened_gates_are_part_of_the_state_hash():
    """Opening a gate changes the state hash (saves and replays carry it); the seeded random games
    (``rules::test_random_games_keep_every_invariant``) must see gates opened and replay them."""
    g = staged({"1-ranger-1": NORTH, "2-drone-1": SOUTH})
    before = g.state_hash()
    submit(g, C.ActivateSingle("1-ranger-1"))
    g.state.rng.force(7, 1)
    submit(g, C.HackDoor("1-ranger-1", "door-01"))
    clone = g.clone()
    clone.state.opened = []
    assert g.state_hash() != clone.state_hash() != before
