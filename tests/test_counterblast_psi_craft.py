"""Counterblast Psi Craft, every power the armoury ships (Veil and Deep Toast), through
Game.submit with forced dice. Seed: ../shared/seeds/003_52d4831de0a47706.txt: 'Psifers use Psi
craft to activate enigmas that create passive effects or aid their allies. This action spends
the model.' The powers themselves are the project's data (Interpretation 13)."""
from counterblast_fixtures import IN, staged, submit, texts

from engine.rulesets.counterblast import choices as C
from engine.rulesets.counterblast import damage

VEIL = C.PsiCraft("1-ollo", "veil", "1-ranger-1")


def _ollo_and_ranger(**kw):
    """Ollo (Deep Focus, Knack 6) beside Ranger 1 in the open; a Gun Drone 6" east of the Ranger."""
    return staged({"1-ollo": (18, 7), "1-ranger-1": (20, 7), "2-drone-1": (26, 7)}, **kw)


def _to_next_turn(g):
    """Pass and answer every decision with its first option until turn 2 begins."""
    while g.state.turn == 1:
        d = g.pending()
        g.submit(d.player, next((o for o in d.options if isinstance(o, C.PassTurn)), d.options[0]))


def test_veil_gives_a_friend_light_cover_until_upkeep():
    """Veil: 'A friendly model counts as in light cover until the Upkeep phase' (Knack/7, 6")."""
    g = _ollo_and_ranger()
    st = g.state
    assert g.rules.cover(st, "2-drone-1", "1-ranger-1") == "none"      # open ground
    submit(g, C.ActivateSingle("1-ollo"))
    assert VEIL in g.pending().options
    g.state.rng.force(7, 1, 1, 1, 1, 1)                                # Knack 6 vs 7: 1 success
    ev = submit(g, VEIL)
    assert "Ranger 1 is veiled (light cover until Upkeep)" in texts(ev) and g.state.rng.forced_left == 0
    assert st.veiled == ["1-ranger-1"] and st.models["1-ollo"].has("spent")
    # light cover: one more Defense die against a shot (cover_light_dice), none against a Strike
    assert g.rules.cover(st, "2-drone-1", "1-ranger-1") == "light"
    assert damage.defense_pool(3, cover="light", attack="shoot", options=g.rules.opt) == 4
    assert damage.defense_pool(3, cover="light", attack="strike", options=g.rules.opt) == 3
    _to_next_turn(g)
    assert st.veiled == [] and g.rules.cover(st, "2-drone-1", "1-ranger-1") == "none"


def test_a_failed_veil_and_a_veil_that_is_not_offered():
    g = _ollo_and_ranger()
    submit(g, C.ActivateSingle("1-ollo"))
    g.state.rng.force(1, 1, 1, 1, 1, 1)
    submit(g, VEIL)
    assert g.state.veiled == [] and g.state.models["1-ollo"].has("spent")
    # a friend already veiled is not offered again; one beyond 6" is not offered at all
    g = _ollo_and_ranger()
    g.state.veiled.append("1-ranger-1")
    submit(g, C.ActivateSingle("1-ollo"))
    crafts = [o for o in g.pending().options if isinstance(o, C.PsiCraft)]
    assert VEIL not in crafts and C.PsiCraft("1-ollo", "veil", "1-ollo") in crafts
    g = staged({"1-ollo": (18, 7), "1-ranger-1": (18 + 2 * 15 / IN + 6.2, 7), "2-drone-1": (40, 30)})   # 6.2" apart
    submit(g, C.ActivateSingle("1-ollo"))
    assert VEIL not in g.pending().options


def test_a_psi_craft_check_may_be_dispersed():
    """'A psifer within 12″ of another psifer that is rolling Psi Check may trigger a Disperse': a
    craft's check too. The Cantor's 2 successes beat Ollo's 1: the Veil fizzles."""
    g = staged({"1-ollo": (18, 7), "1-ranger-1": (20, 7), "2-cantor": (26, 8.5)}, moxie=(3, 1))
    submit(g, C.ActivateSingle("1-ollo"))
    submit(g, VEIL)
    d = g.pending()
    assert d.player == 2 and d.options == (C.React("2-cantor", "disperse"), C.NoReaction())
    g.state.rng.force(7, 1, 1, 1, 1, 1,  7, 7, 1, 1, 1, 1)
    ev = submit(g, d.options[0])
    assert any("the enigma fizzles" in t for t in texts(ev)) and g.state.veiled == []
    assert g.state.models["2-cantor"].has("stunned") and g.state.rng.forced_left == 0


def _cantor_beside(friend, tokens, down=False):
    """The Cantor (Psi Lens, Knack 6) 0.5" from ``friend``, which has ``tokens`` damage tokens."""
    gap = (15 + 20 + 12.7) / IN if friend == "2-overseer" else (15 + 12.5 + 12.7) / IN
    g = staged({"2-cantor": (24 - gap, 7), friend: (24, 7), "1-ranger-1": (40, 30)}, active=2, moxie=(0, 3))
    m = g.state.models[friend]
    m.tokens, m.down, m.stable = tokens, down, down
    if down:
        m.gain("prone")
    return g


def test_deep_toast_removes_one_token_never_the_last():
    """Deep Toast: 'Remove one damage token from a friendly model (never below one)', range 1"."""
    g = _cantor_beside("2-overseer", 3)
    submit(g, C.ActivateSingle("2-cantor"))
    toast = C.PsiCraft("2-cantor", "deep-toast", "2-overseer")
    assert toast in g.pending().options
    g.state.rng.force(7, 7, 7, 1, 1, 1)             # three successes still remove one token
    ev = submit(g, toast)
    assert "Overseer Unit loses a damage token (2 left)" in texts(ev)
    assert g.state.models["2-overseer"].tokens == 2 and g.state.models["2-cantor"].has("spent")
    g = _cantor_beside("2-overseer", 1)
    submit(g, C.ActivateSingle("2-cantor"))
    assert not any(isinstance(o, C.PsiCraft) for o in g.pending().options)


def test_deep_toast_brings_a_down_friend_back_below_its_mettle():
    """A Gun Drone (Mettle 2) Down with 2 tokens: one token off leaves 1, fewer than its Mettle, so
    it 'stops being down' (it stays Prone until it stands)."""
    g = _cantor_beside("2-drone-1", 2, down=True)
    submit(g, C.ActivateSingle("2-cantor"))
    g.state.rng.force(7, 1, 1, 1, 1, 1)
    submit(g, C.PsiCraft("2-cantor", "deep-toast", "2-drone-1"))
    drone = g.state.models["2-drone-1"]
    assert drone.tokens == 1 and not drone.down and not drone.stable and drone.has("prone")
