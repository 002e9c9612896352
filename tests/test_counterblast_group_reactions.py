"""Counterblast group activations and reactions, through Game.submit with forced dice. Seed:
../shared/seeds/003_52d4831de0a47706.txt, Group Activations: 'Each model's action must be
resolved in sequence before the group can use another action ... Reactions may be triggered
against each model's actions individually.' and 'no more than one reaction may be triggered by
each crew in response to any single action'."""
from counterblast_fixtures import IN, staged, submit, texts

from engine.rulesets.common import MoveTo
from engine.rulesets.counterblast import choices as C

GROUP = ("1-captain", "1-ranger-1", "1-ranger-2")


def _group(moxie_2=3):
    """The Captain and two Rangers in a column; two Gun Drones 7" east that see them once moved."""
    g = staged({"1-captain": (18, 7), "1-ranger-1": (18, 8.3), "1-ranger-2": (18, 5.7),
                "2-drone-1": (26, 7), "2-drone-2": (26, 4.5)}, moxie=(5, moxie_2))
    submit(g, C.ActivateGroup(GROUP))
    return g


def _snapshot_misses(g, drone, mover):
    """The reactive player answers ``mover``'s move with ``drone``'s Snapshot; Zap 4, all misses."""
    d = g.pending()
    assert d.player == 2 and d.kind == "react" and f"react to {g.rules.names[mover]}'s move?" in d.prompt
    snap = C.React(drone, "snapshot", "pulse-carbine")
    assert snap in d.options
    g.state.rng.force(1, 1, 1, 1)
    ev = submit(g, snap)
    assert g.state.rng.forced_left == 0 and g.state.models[drone].has("stunned")
    return ev


def test_each_member_s_move_draws_its_own_reaction():
    """The group Moves: the reactive crew is asked after each member's move, may answer each (one
    reaction per crew per action: one decision), and a drone that reacted is Stunned and cannot
    react again, so after two Snapshots the third mover draws none."""
    g = _group()
    submit(g, C.GroupAction("move"))
    moves = {"1-captain": MoveTo("1-captain", 19 * IN, 7 * IN), "1-ranger-1": MoveTo("1-ranger-1", 18 * IN, 8.0 * IN),
             "1-ranger-2": MoveTo("1-ranger-2", 19 * IN, 5.7 * IN)}
    submit(g, moves["1-captain"])
    _snapshot_misses(g, "2-drone-1", "1-captain")
    assert g.state.moxie[2] == 2
    # one reaction for that action: the next decision is the group's, for its other members
    d = g.pending()
    assert d.player == 1 and d.kind == "act" and "1-captain" not in g.state.act.to_resolve
    submit(g, moves["1-ranger-1"])
    d = g.pending()
    assert C.React("2-drone-1", "snapshot", "pulse-carbine") not in d.options      # Stunned
    _snapshot_misses(g, "2-drone-2", "1-ranger-1")
    ev = submit(g, moves["1-ranger-2"])
    assert not any("react" in t for t in texts(ev)) and g.state.moxie[2] == 1
    d = g.pending()
    assert d.player == 1 and any(isinstance(o, C.GroupAction) for o in d.options)      # the step is over


def test_each_member_s_shot_draws_its_own_reaction():
    """The group Shoots: each member's Shoot opens its own reaction window for the model shot at
    (Return fire, Action-roll). Drone 1 returns the Captain's fire; Ranger 2's shot at Drone 2 is
    then offered to Drone 2 alone."""
    g = staged({"1-captain": (19, 7), "1-ranger-1": (18, 8.0), "1-ranger-2": (19, 5.7),
                "2-drone-1": (26, 7), "2-drone-2": (26, 4.5)}, moxie=(5, 3))
    submit(g, C.ActivateGroup(GROUP))
    submit(g, C.GroupAction("shoot"))
    submit(g, C.Shoot("1-captain", "pulse-carbine", "2-drone-1"))
    d = g.pending()
    assert d.player == 2 and "Captain Vell shoots at Gun Drone 1" in d.prompt
    assert {o.model for o in d.options if isinstance(o, C.React)} == {"2-drone-1"}
    g.state.rng.force(*[1] * 5, *[1] * 4)            # the Captain's Zap 5, Drone 1's Zap 4: all miss
    submit(g, C.React("2-drone-1", "return_fire", "pulse-carbine"))
    assert g.state.rng.forced_left == 0 and g.state.models["2-drone-1"].has("stunned")
    submit(g, C.DoNothing("1-ranger-1"))
    submit(g, C.Shoot("1-ranger-2", "pulse-carbine", "2-drone-2"))
    d = g.pending()
    assert d.player == 2 and "Ranger 2 shoots at Gun Drone 2" in d.prompt
    assert {o.model for o in d.options if isinstance(o, C.React)} == {"2-drone-2"}
    assert C.React("2-drone-2", "return_fire", "pulse-carbine") in d.options
