"""Counterblast Down and Prone in play (through the state machine). Seed:
../shared/seeds/003_52d4831de0a47706.txt.

- Down: 'Downed models are not counted for scenario objectives ... Downed models never have line
  of sight to anything and are never engaged.'
- Prone: 'A prone models uses its base, and only its base, for the purposes of LoS, both for
  determining its own LoS as well as other model's LoS to it.'
"""
from counterblast_fixtures import IN, staged, submit

from engine.rulesets.counterblast import choices as C

CONTACT_X = (18 * IN + 15 + 12.5 + 0.3) / IN     # a Gun Drone in base contact east of a Ranger at x = 18"


def _down(g, mid):
    m = g.state.models[mid]
    m.tokens, m.down, m.stable = g.rules.profile[mid].mettle, True, True
    m.gain("prone")


def _melee(down=False):
    """Ranger 1 in base contact with Gun Drone 1; Ranger 2 4" east of the drone, seeing it."""
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (CONTACT_X, 7), "1-ranger-2": (23, 7)})
    if down:
        _down(g, "1-ranger-1")
    return g


def test_a_down_model_sees_nothing():
    g = _melee()
    st, rules = g.state, g.rules
    assert rules.seen(st, "1-ranger-1", "2-drone-1") == 1.0 and rules.seen(st, "1-ranger-1", "1-ranger-2") > 0
    _down(g, "1-ranger-1")
    assert rules.seen(st, "1-ranger-1", "2-drone-1") == 0.0 and rules.seen(st, "1-ranger-1", "1-ranger-2") == 0.0
    assert not rules.valid_target(st, "1-ranger-1", "2-drone-1")
    # others still see it (lying on its base)
    assert rules.seen(st, "2-drone-1", "1-ranger-1") > 0


def test_a_down_model_is_never_engaged_and_engages_nobody():
    """Standing, Ranger 1 and the drone engage each other, so Ranger 2 may not shoot the drone
    ('Models may not target enemies that are engaging or are engaged by friendly models'). Down,
    Ranger 1 is engaged by no one and engages no one: the drone is free, and so is the shot."""
    g = _melee()
    st, rules = g.state, g.rules
    assert rules.engaged(st, "1-ranger-1") and rules.engaged(st, "2-drone-1")
    submit(g, C.ActivateSingle("1-ranger-2"))
    assert not any(isinstance(o, C.Shoot) for o in g.pending().options)
    g = _melee(down=True)
    st, rules = g.state, g.rules
    assert not rules.engaged(st, "1-ranger-1") and not rules.engaged(st, "2-drone-1")
    assert rules.engagers(st, "1-ranger-1") == [] and rules.engagers(st, "2-drone-1") == []
    submit(g, C.ActivateSingle("1-ranger-2"))
    assert C.Shoot("1-ranger-2", "pulse-carbine", "2-drone-1") in g.pending().options


def test_down_models_do_not_count_for_objectives():
    """Salvage Rights: a marker is held by the crew with more models that are not Down within 3" of
    it. A Ranger and a Gun Drone 2" either side of the middle marker (obj-2): nobody holds it; the
    drone Down, the Ranger does; the Ranger Down instead, the drone does; both Down, nobody."""
    def held(down=()):
        g = staged({"1-ranger-1": (22, 18), "2-drone-1": (26, 18)})
        for mid in down:
            _down(g, mid)
        sc = g.rules.scores(g.state)
        return sc[1]["units"]["hold-salvage"], sc[2]["units"]["hold-salvage"]
    assert held() == (0, 0)
    assert held(["2-drone-1"]) == (1, 0)
    assert held(["1-ranger-1"]) == (0, 1)
    assert held(["1-ranger-1", "2-drone-1"]) == (0, 0)


def test_a_prone_model_sees_and_is_seen_from_its_base_only():
    """A Ranger (40 mm tall) 0.6" behind a 22 mm barricade (barricade-12) and a Gun Drone 3.5" north
    of it: standing, each sees the other over the barricade; Prone (its base, 6 mm), neither sees
    the other. In the open a Prone model still sees and is seen: only its height changed."""
    g = staged({"1-ranger-1": (23, 2.5), "2-drone-1": (23, 6)})
    st, rules = g.state, g.rules
    assert rules.seen(st, "1-ranger-1", "2-drone-1") == 1.0 and rules.seen(st, "2-drone-1", "1-ranger-1") >= 1 / 3
    st.models["1-ranger-1"].gain("prone")
    assert rules.base(st.models["1-ranger-1"]).height == 6.0
    assert rules.seen(st, "1-ranger-1", "2-drone-1") == 0.0 and rules.seen(st, "2-drone-1", "1-ranger-1") == 0.0
    # the drone (player 2) has no shot at it, and it none at the drone
    assert not rules.valid_target(st, "2-drone-1", "1-ranger-1")
    submit(g, C.ActivateSingle("1-ranger-1"))
    assert not any(isinstance(o, C.Shoot) for o in g.pending().options)
    g = staged({"1-ranger-1": (18, 7), "2-drone-1": (24, 7)})
    st, rules = g.state, g.rules
    st.models["1-ranger-1"].gain("prone")
    assert rules.seen(st, "1-ranger-1", "2-drone-1") == 1.0 and rules.seen(st, "2-drone-1", "1-ranger-1") == 1.0
