"""Counterblast: conditions caused by weapons and enigmas, Recover, and the characters' abilities.

Seed: 003_52d4831de0a47706.txt. The seed defines Burning, Blind, Half-blind and Pinned but names
no cause ("Some weapons may apply additional effects as well according to their own rules"), and
gives characters "special abilities unique to them" without defining any: both are armoury data
(Interpretations 36, 38 and 39 in docs/rules/counterblast.md). Dice are forced.
"""
import pytest
from counterblast_fixtures import IN, staged, submit, texts

from engine.rulesets.counterblast import choices as C
from engine.rulesets.counterblast.rules import _attack_chance

DUSTJAW = ("dustjaw-raiders", "iron-choir")
CHOIR = ("iron-choir", "reach-rangers")


def label(g, choice):
    d = g.pending()
    assert choice in d.options, choice
    return d.labels[d.options.index(choice)]


def activated(model, positions, **staging):
    """A staged game (``positions`` and ``staging`` as ``staged`` takes them) with ``model`` activated alone."""
    g = staged(positions, **staging)
    submit(g, C.ActivateSingle(model))
    return g


# --- weapons and enigmas that inflict conditions -----------------------------------------------

@pytest.mark.parametrize("dice, burning", [((7, 1, 1,   1, 1, 1), True),
                                            ((7, 1, 1,   9, 1, 1), False)],   # 1 Defense success: no token
                         ids=["a token", "no token"])
def test_flamer_sets_a_target_it_wounds_burning(dice, burning):
    """Flamer: 'inflicts burning when tokens'. Warboss Grekka (Zap 3) flames a Gun Drone
    (Defense 3, Mettle 2) 4.7" away: 1 success -> 1 raw damage, Defense 0 -> 1 token -> Burning;
    a Defense success saves the token, and no token sets no Burning."""
    g = activated("1-grekka", {"1-grekka": (18, 7), "2-drone-1": (24, 7)}, rosters=DUSTJAW)
    flame = C.Shoot("1-grekka", "flamer", "2-drone-1")
    assert "to leave" not in label(g, flame)          # a 'tokens' rule has no hit chance to show
    g.state.rng.force(*dice)
    ev = submit(g, flame)
    drone = g.state.models["2-drone-1"]
    assert drone.tokens == int(burning) and drone.has("burning") == burning and g.state.rng.forced_left == 0
    assert ("The Flamer leaves Gun Drone 1 Burning" in texts(ev)) == burning


@pytest.mark.parametrize("dice, pinned", [((7, 1, 1, 1, 1,   7, 1, 1), True),
                                          ((6, 1, 1, 1, 1), False)],          # no success: a miss
                         ids=["a hit", "a miss"])
def test_tangle_net_pins_on_a_hit_even_without_a_token_and_the_odds_say_so(dice, pinned):
    """Tangle-net: 'inflicts pinned when hit'. The Overseer (Zap 5) scores 1 success; the Ranger
    saves the damage but is Pinned, and may then only Recover (the seed's Pinned). A missed net
    pins nobody."""
    g = staged({"1-overseer": (18, 7), "2-ranger-1": (26, 7)}, rosters=CHOIR)
    assert g.rules.cover(g.state, "1-overseer", "2-ranger-1") == "none"
    submit(g, C.ActivateSingle("1-overseer"))
    net = C.Shoot("1-overseer", "tangle-net", "2-ranger-1")
    # difficulty 7 (short range), 5 dice: P(at least one success) = 1 - 0.6^5 = 92.2%
    assert label(g, net).endswith("92% to leave them Pinned)")
    g.state.rng.force(*dice)
    ev = submit(g, net)
    ranger = g.state.models["2-ranger-1"]
    assert ranger.tokens == 0 and ranger.has("pinned") == pinned and g.state.rng.forced_left == 0
    assert ("The Tangle-net Launcher leaves Ranger 1 Pinned" in texts(ev)) == pinned


def test_blot_blinds_with_no_damage_roll():
    """Blot (psi_strike, difficulty 8, no damage, 'inflicts blind when hit'): Ollo's Knack 6 scores 1;
    the drone is Blind — it sees nothing but itself (the seed's Blind) — and no Defense is rolled."""
    g = activated("1-ollo", {"1-ollo": (18, 7), "2-drone-1": (24, 7)})
    blot = C.PsiStrike("1-ollo", "blot", "2-drone-1")
    assert blot in g.pending().options
    g.state.rng.force(8, 1, 1, 1, 1, 1)
    ev = submit(g, blot)
    st = g.state
    assert st.models["2-drone-1"].has("blind") and st.rng.forced_left == 0
    assert "The Blot leaves Gun Drone 1 Blind" in texts(ev)
    assert g.rules.seen(st, "2-drone-1", "1-ollo") == 0 and g.rules.move_in(st, "2-drone-1") == 2


def test_glare_half_blinds():
    """Glare (psi_strike, difficulty 7, 'inflicts half_blind when hit'), channelled by the Cantor."""
    g = activated("2-cantor", {"2-cantor": (24, 7), "1-ranger-1": (18, 7)}, active=2, moxie=(0, 3))
    g.state.rng.force(7, 1, 1, 1, 1, 1)
    submit(g, C.PsiStrike("2-cantor", "glare", "1-ranger-1"))
    r = g.state.models["1-ranger-1"]
    assert r.has("half_blind") and not r.has("blind") and g.state.rng.forced_left == 0
    assert g.rules.zap(g.state, "1-ranger-1") == 1 and g.rules.grit(g.state, "1-ranger-1") == 1


@pytest.mark.parametrize("dice, cleared", [((7,), True), ((6,), False)])
def test_recover_rolls_knack_once_for_pinned_blind_and_half_blind(dice, cleared):
    """003_52d4831de0a47706.txt: 'The recover action allows a model to recover from certain
    conditions' / Pinned: 'rolls Knack/7 and is un-pinned if it succeeds'. Blind and Half-blind get
    no end in the seed: Recover's one Knack/7 check ends them as it ends Pinned; Stunned goes anyway."""
    g = staged({"2-drone-1": (24, 7), "1-ranger-1": (12, 7)}, active=2, moxie=(0, 3))
    d = g.state.models["2-drone-1"]
    for c in ("blind", "half_blind", "pinned", "stunned"):
        d.gain(c)
    submit(g, C.ActivateSingle("2-drone-1"))
    assert g.pending().options == (C.Recover("2-drone-1"), C.EndActivation())   # Pinned: only Recover
    g.state.rng.force(*dice)                           # Knack 1 vs 7
    ev = submit(g, C.Recover("2-drone-1"))
    assert g.state.rng.forced_left == 0
    left = {"blind", "half_blind", "pinned"} & set(d.conditions)
    assert not d.has("stunned")
    assert left == (set() if cleared else {"blind", "half_blind", "pinned"})
    if cleared:
        assert any("no longer Blind, Half-blind, Pinned, Stunned" in t for t in texts(ev))


def test_a_pinned_and_panicked_model_recovers_first_then_must_rally():
    """003_52d4831de0a47706.txt, Panic: 'Models that are prevented from taking the Rally action by
    another condition may use actions permitted by that condition, but must use their action to rally
    as soon as they are able.' Pinned permits only Recover; once free, the next action is the Rally."""
    g = staged({"2-drone-1": (24, 7), "1-ranger-1": (12, 7)}, active=2, moxie=(0, 3))
    d = g.state.models["2-drone-1"]
    d.gain("pinned")
    d.gain("panic")
    submit(g, C.ActivateSingle("2-drone-1"))
    assert g.pending().options == (C.Recover("2-drone-1"), C.EndActivation())
    g.state.rng.force(7)                               # Knack 1 vs 7: un-pinned
    submit(g, C.Recover("2-drone-1"))
    assert not d.has("pinned") and d.has("panic")
    assert g.pending().options == (C.Rally("2-drone-1"), C.EndActivation())


def test_a_pinned_group_member_can_only_do_nothing_or_recover():
    """Pinned: 'may not use actions other than recover' — in a group that Shoots, a Pinned Ranger
    may neither shoot nor Aim-Assist (a team action is an action); it Does Nothing. A Panicked
    and Pinned member is not forced to Rally while Pinned."""
    g = staged({"1-captain": (18, 7), "1-ranger-1": (18, 8.3), "1-ranger-2": (18, 5.7), "2-drone-1": (24, 7)},
               moxie=(5, 0))
    st = g.state
    st.models["1-ranger-1"].gain("pinned")
    st.models["1-ranger-2"].gain("pinned")
    st.models["1-ranger-2"].gain("panic")
    submit(g, C.ActivateGroup(("1-captain", "1-ranger-1", "1-ranger-2")))
    submit(g, C.GroupAction("shoot"))
    opts = g.pending().options
    for r in ("1-ranger-1", "1-ranger-2"):
        assert [o for o in opts if getattr(o, "model", None) == r] == [C.DoNothing(r)]
    assert C.Shoot("1-captain", "pulse-carbine", "2-drone-1") in opts


def test_recover_is_offered_for_blindness_alone():
    g = staged({"2-drone-1": (24, 7), "1-ranger-1": (12, 7)}, active=2, moxie=(0, 3))
    g.state.models["2-drone-1"].gain("half_blind")
    submit(g, C.ActivateSingle("2-drone-1"))
    assert C.Recover("2-drone-1") in g.pending().options


# --- characters' abilities ---------------------------------------------------------------------

def test_steady_aim_shoots_long_at_the_short_range_difficulty():
    """Steady Aim (long_shot_difficulty 7): Sergeant Dray shoots beyond 8" at difficulty 7 where a
    Ranger beside her needs 8; a forced 7 scores for her."""
    g = staged({"1-dray": (14, 7), "1-ranger-1": (14, 9), "2-drone-1": (24, 7)})
    st = g.state
    assert g.rules.dist(st, "1-dray", "2-drone-1") > 8
    submit(g, C.ActivateSingle("1-dray"))
    assert "(difficulty 7, " in label(g, C.Shoot("1-dray", "long-rifle", "2-drone-1"))
    assert g.rules._shot_params(st, "1-ranger-1", "pulse-carbine", "2-drone-1")[0] == 8
    st.rng.force(7, 1, 1, 1, 1, 1,   1, 1, 1)          # Zap 6: one success -> 2 raw; Defense 0
    submit(g, C.Shoot("1-dray", "long-rifle", "2-drone-1"))
    assert st.models["2-drone-1"].down and st.rng.forced_left == 0


def test_frenzy_explodes_strikes_on_eights():
    """Frenzy (strike_explode_on 8): Mad Tibbs' 8 adds a die; the label's odds use the same number."""
    contact = (18 * IN + 15 + 12.5 + 0.3) / IN
    g = activated("1-tibbs", {"1-tibbs": (18, 7), "2-drone-1": (contact, 7)}, rosters=DUSTJAW)
    strike = C.Strike("1-tibbs", "claws", "2-drone-1")
    want = _attack_chance(5, 7, 2, 8, 3, 2, 0, False)
    assert label(g, strike).endswith(f"{want:.0%} to put it Down)")
    assert want != pytest.approx(_attack_chance(5, 7, 2, 10, 3, 2, 0, False))
    g.state.rng.force(8, 1, 1, 1, 1,   1,   1, 1, 1)   # Grit 5 vs 7: the 8 explodes (a 1); Defense 0
    ev = submit(g, strike)
    assert g.state.models["2-drone-1"].down and g.state.rng.forced_left == 0
    assert any("→ 2 raw damage" in t for t in texts(ev))


def test_relentless_is_never_stunned_by_reacting():
    """Relentless (immune: stunned): Unit Zero Counterstrikes, pays its Moxie, and is not Stunned."""
    contact = (18 * IN + 15 + 20 + 0.3) / IN
    g = activated("1-ranger-1", {"1-ranger-1": (18, 7), "2-unit-zero": (contact, 7)}, moxie=(3, 1))
    submit(g, C.Strike("1-ranger-1", "combat-knife", "2-unit-zero"))
    g.state.rng.force(1, 1, 1,   1, 1, 1, 1, 1, 1)     # both Grit checks score nothing
    ev = submit(g, C.React("2-unit-zero", "counterstrike", "shock-maul"))
    st = g.state
    assert not st.models["2-unit-zero"].has("stunned") and st.moxie[2] == 0 and st.rng.forced_left == 0
    assert "Unit Zero is Relentless: not Stunned" in texts(ev)


def test_a_model_without_the_ability_is_stunned_by_reacting():
    contact = (18 * IN + 15 + 12.5 + 0.3) / IN
    g = activated("1-ranger-1", {"1-ranger-1": (18, 7), "2-drone-1": (contact, 7)}, moxie=(3, 1))
    submit(g, C.Strike("1-ranger-1", "combat-knife", "2-drone-1"))
    g.state.rng.force(1, 1, 1,   1)
    submit(g, C.React("2-drone-1", "counterstrike", "fists"))
    assert g.state.models["2-drone-1"].has("stunned")
