"""Easy's Counterblast policy answers a group activation's member steps, which it never starts
itself but meets when `hard`'s look-ahead (whose root answer is easy's) chooses a group, or in a
search's roll-outs. Seed: ../shared/seeds/003_52d4831de0a47706.txt, Group Activations: 'Each
model's action must be resolved in sequence before the group can use another action'.

A `hard:budget=0.61` game against easy (issue 28's strength check, game 4) ended with
StopIteration: with no free action left, easy ended the activation, and a group's step offers no
end until every member has answered."""
import random

from counterblast_fixtures import staged, submit

from engine.ai import make_agent
from engine.core import Game, Setup
from engine.data.maps import load_map
from engine.paths import resolve_map
from engine.rulesets.counterblast import choices as C

GROUP = ("1-captain", "1-ranger-1", "1-ranger-2")


def _easy(g, player=1):
    agent = make_agent("easy", player, 5)
    agent.attach(g.table, g.rules)
    return agent


def _easy_shoot_step(g, easy):
    """Play the group's Shoot step to its end, player 1's answers by ``easy``, player 2 reacting
    with nothing: player 1's answers."""
    answers = []
    while g.state.act is not None and g.state.act.step == "shoot":
        if g.pending().player == 2:
            submit(g, C.NoReaction())
            continue
        c = easy.choose(g.pending(), g.view(1))
        answers.append(c)
        submit(g, c)
    return answers


def test_a_member_step_with_no_free_action_left_is_answered():
    """The group's second action (Aim) uses its last free action: each member is asked for its
    part with 0 actions left, and easy answers each with its Aim until the step is over."""
    g = staged({"1-captain": (18, 7), "1-ranger-1": (18, 8.3), "1-ranger-2": (18, 5.7),
                "2-drone-1": (40, 30), "2-drone-2": (42, 30)}, moxie=(5, 0))
    submit(g, C.ActivateGroup(GROUP))
    submit(g, C.GroupAction("move"))
    for mid in GROUP:
        submit(g, C.DoNothing(mid))
    submit(g, C.GroupAction("aim"))
    easy = _easy(g)
    answered = []
    while (d := g.pending()).player == 1 and g.state.act is not None and g.state.act.step == "aim":
        assert g.state.act.actions_left == 0 and not any(isinstance(o, C.EndActivation) for o in d.options)
        c = easy.choose(d, g.view(1))
        assert isinstance(c, C.Aim)
        answered.append(c.model)
        submit(g, c)
    assert sorted(answered) == sorted(GROUP)


def test_easy_answers_every_member_step_of_random_group_activations():
    """Random play for both crews, except every member step of a group activation, which easy
    answers: 12 seeded games on the outpost, every answer legal, no exception."""
    mapfile = load_map(resolve_map("outpost"))
    steps = 0
    for seed in range(12):
        g = Game(Setup("counterblast", mapfile, ("reach-rangers", "iron-choir"), {}, seed))
        rnd = {p: make_agent("random", p, seed * 7 + p) for p in (1, 2)}
        easy = {p: _easy(g, p) for p in (1, 2)}
        pick = random.Random(seed)
        while (d := g.pending()) is not None:
            a = g.state.act
            if a is not None and a.group and a.step and d.kind == "act":
                c = easy[d.player].choose(d, g.view(d.player))
                steps += 1
            elif d.kind == "activate" and pick.random() < 0.5:
                groups = [o for o in d.options if isinstance(o, C.ActivateGroup)]
                c = pick.choice(groups) if groups else rnd[d.player].choose(d, g.view(d.player))
            else:
                c = rnd[d.player].choose(d, g.view(d.player))
            g.submit(d.player, c)        # refuses an illegal answer
        assert g.result() is not None
    assert steps >= 50, steps


# ---------------------------------------------------------------- easy starts groups (issue 61, item 2)
# 003: "The crew spends 2 Moxie and chooses one of its un-Spent Hero models and up to 2 of its
# un-Spent Lackey models. These models activate and may use two actions this Phase."
SHOOTERS = {"1-captain": (19, 6), "1-ranger-1": (17.5, 6.5), "1-ranger-2": (17.5, 5.2),
            "2-drone-1": (28, 6.5), "2-drone-2": (30, 5.5)}


def test_easy_activates_the_three_who_all_have_work_as_a_group():
    """The Captain and two Rangers in the open, each with a Gun Drone in range and sight: three
    activations for 2 Moxie instead of 3. Easy takes the group, and the group Shoots first (every
    member has a shot from where it stands), each member at its own best target."""
    g = staged(SHOOTERS, moxie=(3, 2))
    easy = _easy(g)
    c = easy.choose(g.pending(), g.view(1))
    assert isinstance(c, C.ActivateGroup) and set(c.models) == set(GROUP)
    submit(g, c)
    c = easy.choose(g.pending(), g.view(1))
    assert c == C.GroupAction("shoot")
    submit(g, c)
    shots = _easy_shoot_step(g, easy)
    assert sorted(s.model for s in shots) == sorted(GROUP)
    assert all(isinstance(s, (C.Shoot, C.SplitShoot)) for s in shots)


def test_a_member_with_no_shot_aim_assists_the_captain_before_he_shoots():
    """Ranger 1 stands right behind the Captain and sees no drone: its part of the Shoot step is an
    Aim-Assist (+1D to the Captain's Zap: his 35% becomes 44% by the engine's odds), given before
    the Captain shoots; Ranger 2, with a shot of its own, shoots."""
    pos = dict(SHOOTERS, **{"1-ranger-1": (17.6, 6.2), "1-ranger-2": (17.5, 4.6)})
    g = staged(pos, moxie=(3, 2))
    submit(g, C.ActivateGroup(GROUP))
    submit(g, C.GroupAction("shoot"))
    easy = _easy(g)
    c = easy.choose(g.pending(), g.view(1))
    assert c == C.AimAssist("1-ranger-1", "1-captain")
    submit(g, c)
    shot = C.Shoot("1-captain", "pulse-carbine", "2-drone-1")
    assert g.attack_odds(shot).p("Down") > 0.4


def test_a_member_with_a_shot_of_its_own_shoots_rather_than_assists():
    """Ranger 1 (1/3 of a drone in sight, light cover: 11%) could Aim-Assist the Captain instead:
    the extra die adds less to his chance (35% to about 44%, under its own 11%), so Ranger 1 shoots."""
    g = staged(SHOOTERS, moxie=(3, 2))
    submit(g, C.ActivateGroup(GROUP))
    submit(g, C.GroupAction("shoot"))
    easy = _easy(g)
    answers = _easy_shoot_step(g, easy)
    assert C.AimAssist("1-ranger-1", "1-captain") not in answers
    assert any(getattr(c, "model", None) == "1-ranger-1" and isinstance(c, (C.Shoot, C.SplitShoot)) for c in answers)


def test_easy_does_not_pay_two_moxie_for_lackeys_with_nothing_to_do():
    """The Captain has a Gun Drone in sight; each Ranger stands on its marker with no enemy in
    sight or range and no move that gains: a group would cost 2 Moxie for one model's work, so
    easy activates the Captain alone."""
    g = staged({"1-captain": (36, 17), "1-ranger-1": (10, 17), "1-ranger-2": (20, 17.5),
                "2-drone-1": (44, 17.5), "2-drone-2": (45, 19)}, moxie=(3, 2))
    assert any(isinstance(o, C.ActivateGroup) and set(o.models) == set(GROUP) for o in g.pending().options)
    assert _easy(g).choose(g.pending(), g.view(1)) == C.ActivateSingle("1-captain")


def test_a_member_that_cannot_help_does_nothing_and_stays_unspent():
    """In a Shoot step, a member with no shot and no friend within 1" to assist Does Nothing
    (which does not Spend it), never an illegal or wasted answer."""
    pos = dict(SHOOTERS, **{"1-ranger-2": (15, 29.5)})        # far away, behind the Motor Pool
    g = staged(pos, moxie=(3, 2))
    submit(g, C.ActivateGroup(GROUP))
    submit(g, C.GroupAction("shoot"))
    easy = _easy(g)
    answers = []
    while g.state.act is not None and g.state.act.step == "shoot" and g.pending().player == 1:
        c = easy.choose(g.pending(), g.view(1))
        answers.append(c)
        submit(g, c)
        while g.pending() is not None and g.pending().player == 2:
            submit(g, C.NoReaction())
    assert C.DoNothing("1-ranger-2") in answers
    assert not g.state.models["1-ranger-2"].has("spent")
