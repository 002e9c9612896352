"""Easy's Counterblast policy answers a group activation's member steps, which it never starts
itself but meets when `hard`'s look-ahead (whose root answer is easy's) chooses a group, or in a
search's roll-outs. Seed: ../shared/seeds/003_52d4831de0a47706.txt, Group Activations: 'Each
model's action must be resolved in sequence before the group can use another action'.

A `hard:budget=0.61` game against easy (issue 28's strength check, game 4) ended with
StopIteration: with no free action left, easy ended the activation, and a group's step offers no
end until every member has answered."""
import random

from engine.ai import make_agent
from engine.core import Game, Setup
from engine.data.maps import load_map
from engine.paths import resolve_map
from engine.rulesets.counterblast import choices as C

from counterblast_fixtures import staged, submit

GROUP = ("1-captain", "1-ranger-1", "1-ranger-2")


def _easy(g, player=1):
    agent = make_agent("easy", player, 5)
    agent.attach(g.table, g.rules)
    return agent


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
