"""Easy's Counterblast policy splits an attack's dice where that puts more enemies Down (issue 61,
item 2). Seed: ../shared/seeds/003_52d4831de0a47706.txt, Splitting Attacks ("it divides its Zap or
Grit among however many targets it wishes to attack and resolves the actions as normal for each
one using the allocated dice"). A split is priced as its expected Downs: the sum of each share's
chance by the engine's exact chain (``engine/ai/cb_odds.py``)."""
from counterblast_fixtures import staged, submit

from engine.ai import make_agent
from engine.rulesets.counterblast import choices as C


def _overseer_facing(targets: dict, tokens: int = 0):
    """The Overseer (Zap 5, Arc Cannon: Damage 3) activated, 5" from two Reach Rangers models in
    the open, each with ``tokens`` damage tokens."""
    g = staged({"2-overseer": (19, 6), **targets}, active=2, moxie=(2, 4))
    for mid in targets:
        g.state.models[mid].tokens = tokens
    submit(g, C.ActivateSingle("2-overseer"))
    agent = make_agent("easy", 2, 5)
    agent.attach(g.table, g.rules)
    return g, agent


def test_the_arc_cannon_splits_over_two_rangers_a_token_from_going_down():
    """Two Rangers (Mettle 3) with 2 tokens each: all five dice at one puts it Down 89% of the
    time; two and three dice put down 1.32 of them on average (one success of Damage 3 is
    nearly always enough). Easy splits, and every share is a legal part of the split offered."""
    g, agent = _overseer_facing({"1-ranger-1": (25, 6.5), "1-ranger-2": (25, 5.0)}, tokens=2)
    d = g.pending()
    c = agent.choose(d, g.view(2))
    assert isinstance(c, C.SplitShoot) and c.weapon == "arc-cannon" and set(c.targets) == {"1-ranger-1", "1-ranger-2"}
    assert c in d.options
    single = max(g.attack_odds(o).p("Down") for o in d.options if isinstance(o, C.Shoot))
    parts = g.attack_odds(c).parts
    assert sum(p.p("Down") for p in parts) > single + 0.3


def test_the_arc_cannon_does_not_split_over_two_fresh_heroes():
    """Captain Vell and Sergeant Dray unhurt (Mettle 4, Defense 4): all five dice at one puts it
    Down 61% of the time, the best split 0.51 of them on average. Easy shoots one."""
    g, agent = _overseer_facing({"1-captain": (25, 6.5), "1-dray": (25, 5.0)})
    d = g.pending()
    assert any(isinstance(o, C.SplitShoot) for o in d.options)
    c = agent.choose(d, g.view(2))
    assert isinstance(c, C.Shoot) and c.weapon == "arc-cannon"


def test_a_group_member_splits_its_shot_in_the_groups_shoot_step():
    """The Overseer leads a group with two Gun Drones; in the Shoot step his split over the two
    wounded Rangers beats every single shot, and easy answers with it (a split among the step's
    shots was compared by its target, which a split does not have: an easy-v-easy game of the
    head to head ended in AttributeError, seed 110 game 97)."""
    g = staged({"2-overseer": (19, 6), "2-drone-1": (17.6, 6.2), "2-drone-2": (17.5, 4.6),
                "1-ranger-1": (25, 6.5), "1-ranger-2": (25, 5.0)}, active=2, moxie=(2, 4))
    for mid in ("1-ranger-1", "1-ranger-2"):
        g.state.models[mid].tokens = 2
    submit(g, C.ActivateGroup(("2-overseer", "2-drone-1", "2-drone-2")))
    submit(g, C.GroupAction("shoot"))
    agent = make_agent("easy", 2, 5)
    agent.attach(g.table, g.rules)
    answers = []
    while g.state.act is not None and g.state.act.step == "shoot":
        d = g.pending()
        if d.player == 1:
            submit(g, C.NoReaction())
            continue
        c = agent.choose(d, g.view(2))
        answers.append(c)
        submit(g, c)
    assert any(isinstance(c, C.SplitShoot) and c.model == "2-overseer" for c in answers)
