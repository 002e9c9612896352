"""Easy's Counterblast policy uses its skills where they gain (issue 61, item 2): Hack to Mark
before a shot. Seed: ../shared/seeds/003_52d4831de0a47706.txt, Marked ("Any zap checks targeting a
model with this condition have their difficulty reduced by 1") and Aim ("reduces the Difficulty
of the next Zap Check it rolls within the same activation by 1"). Prices: the engine's exact odds
(``engine/ai/cb_odds.py``)."""
from counterblast_fixtures import staged, submit

from engine.ai import make_agent
from engine.rulesets.counterblast import choices as C

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


# ---------------------------------------------------------------- Psi Craft
# 003, Psi Craft: "Psifers use Psi craft to activate enigmas that create passive effects or aid
# their allies." The shipped enigmas (docs/rules/counterblast.md): Veil, light cover until Upkeep;
# Deep Toast, one damage token off a friend within 1" (never the last).
DUSTJAW = ("dustjaw-raiders", "reach-rangers")
FACING_GUNS = {"1-hexa": (17.5, 6), "2-ranger-1": (31.5, 6.5), "2-ranger-2": (31.5, 7.8), "2-captain": (32.5, 7.0)}


def _hexa(raider_at):
    g = staged(dict(FACING_GUNS, **{"1-raider-1": raider_at}), moxie=(3, 2), rosters=DUSTJAW)
    g.state.models["1-raider-1"].tokens = 2          # a token from going Down (Mettle 3)
    submit(g, C.ActivateSingle("1-hexa"))
    return g


def test_hexa_veils_a_wounded_raider_in_the_open():
    """No enemy within Hexa's 12" for a Psi Strike; Raider 1, a token from going Down, stands in
    the open before two Rangers' carbines. Veil (light cover: a Defense die more against each
    shot) is worth about 0.1 of a model by the engine's odds: Hexa Veils the Raider."""
    g = _hexa((20.5, 6.3))
    d = g.pending()
    assert not any(isinstance(o, C.PsiStrike) for o in d.options)
    assert _easy(g).choose(d, g.view(1)) == C.PsiCraft("1-hexa", "veil", "1-raider-1")


def test_hexa_does_not_veil_herself_when_no_gun_sees_her():
    """The Raider far away behind the Motor Pool: the only Veil offered is on Hexa, whom no enemy
    gun in range sees well enough to shoot. Hexa moves instead."""
    g = _hexa((15, 29.5))
    d = g.pending()
    assert [o for o in d.options if isinstance(o, C.PsiCraft)] == [C.PsiCraft("1-hexa", "veil", "1-hexa")]
    assert not isinstance(_easy(g).choose(d, g.view(1)), C.PsiCraft)


def _cantor(friend, at, tokens, down):
    g = staged({"2-cantor": (19, 6), friend: at, "1-ranger-1": (28, 6.5)}, active=2, moxie=(2, 3))
    m = g.state.models[friend]
    m.tokens, m.down, m.stable = tokens, down, down
    g.state.models["1-ranger-1"].tokens = 2
    submit(g, C.ActivateSingle("2-cantor"))
    agent = make_agent("easy", 2, 5)
    agent.attach(g.table, g.rules)
    return g, agent


def test_the_cantor_toasts_a_down_drone_back_to_its_feet():
    """A Gun Drone Down with 2 tokens (Mettle 2) in contact: one token off brings it back up.
    That beats Lightning at a wounded Ranger (53% to put it Down): the Cantor uses Deep Toast."""
    g, agent = _cantor("2-drone-1", (20.4, 6), 2, True)
    d = g.pending()
    assert C.PsiStrike("2-cantor", "lightning", "1-ranger-1") in d.options
    assert agent.choose(d, g.view(2)) == C.PsiCraft("2-cantor", "deep-toast", "2-drone-1")


def test_the_cantor_strikes_rather_than_toast_a_sound_overseer():
    """The Overseer with 2 tokens of Mettle 5 beside him: a token off is worth little; Lightning's
    53% at the wounded Ranger is the better use of the action."""
    g, agent = _cantor("2-overseer", (19, 7.45), 2, False)
    d = g.pending()
    assert C.PsiCraft("2-cantor", "deep-toast", "2-overseer") in d.options
    assert agent.choose(d, g.view(2)) == C.PsiStrike("2-cantor", "lightning", "1-ranger-1")


# ---------------------------------------------------------------- Engineer / Treat a friend that stands
# 003, Healing Models: "When a model attempts to heal another, it rolls Knack/7. Remove one damage
# token from the target for each success, down to a minimum of 1 token remaining."
def _welder(overseer_tokens):
    g = staged({"2-welder": (19, 6), "2-overseer": (19, 7.3), "1-ranger-1": (40, 30)}, active=2, moxie=(2, 3))
    g.state.models["2-overseer"].tokens = overseer_tokens
    agent = make_agent("easy", 2, 5)
    agent.attach(g.table, g.rules)
    return g, agent


def test_the_welder_is_activated_to_repair_an_overseer_a_token_from_going_down():
    """The Overseer (Mettle 5) has 4 tokens; the Welder Drone (Knack 4, Toolkit) stands in
    contact: about 1.6 tokens off by the Knack check's odds. Easy activates the Welder for it and
    Engineers the Overseer."""
    g, agent = _welder(4)
    assert agent.choose(g.pending(), g.view(2)) == C.ActivateSingle("2-welder")
    submit(g, C.ActivateSingle("2-welder"))
    assert agent.choose(g.pending(), g.view(2)) == C.Engineer("2-welder", "2-overseer")


def test_the_welder_does_not_spend_its_action_on_a_scratch():
    """With 2 tokens the Overseer can lose only one, and is far from going Down: not worth the
    action. The Welder is offered the Engineer and does something else."""
    g, agent = _welder(2)
    submit(g, C.ActivateSingle("2-welder"))
    d = g.pending()
    assert C.Engineer("2-welder", "2-overseer") in d.options
    assert agent.choose(d, g.view(2)) != C.Engineer("2-welder", "2-overseer")
