"""Counterblast's scoreboard (issue 49): the scores as they stand, from ``scoring`` and the state
machine's counts, checked against scores worked out by hand on staged games (models placed by
hand on the outpost, whose objective markers are at (10, 18), (24, 18) and (38, 18) inches)."""
from __future__ import annotations

from counterblast_fixtures import new_game, staged, submit

from engine.core import Scoreboard
from engine.rulesets.counterblast import choices as C


def _values(board: Scoreboard) -> dict[str, tuple[str, str]]:
    return {line.label: (line.values[1], line.values[2]) for line in board.lines}


# Reach Rangers v Iron Choir, the test crews, priced by the points formula (points.py): captain 70,
# medic 53, Dray 100, Ollo 56, a Ranger 43; Overseer 129, Unit Zero 56, Cantor 48, Welder 23, a
# Gun Drone 36. Side 1 keeps the captain, the medic, Dray (Down), Ollo and Ranger 1: standing
# (Dray is Down) 70 + 53 + 56 + 43 = 222, 44% of 500, battle score 1. Side 2 loses Gun Drone 5
# only, Gun Drone 4 is Down: standing 129 + 56 + 48 + 23 + 3 x 36 = 364, 73%, battle score 3.
# Markers: obj-1, the captain and the medic (2) against Gun Drone 1 (1): side 1 holds it.
# obj-2, Ollo (1) against Gun Drones 2 and 3 (2): side 2. obj-3, Dray (Down, does not count)
# against the Welder Drone and Gun Drone 4 (Down): side 2. Salvage Rights: 2 per marker held.
# Side 1: 2 + 1 = 3; side 2: 4 + 3 = 7.
POSITIONS = {
    "1-captain": (12, 18), "1-medic": (11, 19.5), "1-ollo": (24, 16), "1-dray": (38, 16.5), "1-ranger-1": (4, 32),
    "2-drone-1": (9, 20), "2-drone-2": (24, 20), "2-drone-3": (23, 19.8), "2-welder": (38, 20), "2-drone-4": (37, 19.5),
    "2-overseer": (40, 4), "2-unit-zero": (44, 4), "2-cantor": (30, 4),
}


def _salvage():
    g = staged(POSITIONS)
    g.state.models["1-dray"].down = True
    g.state.models["2-drone-4"].down = True
    return g


def test_the_scoreboard_of_a_staged_game_gives_the_scores_worked_by_hand():
    g = _salvage()
    board = g.rules.scoreboard(g.state)
    assert board.mission == "Salvage Rights"
    assert board.turn == 1 and board.turn_limit == 6
    assert board.wins == ("Most mission points at the end (turn 6, or one crew left): Hold the salvage 2 per marker "
                          "held (max 6); battle 6/3/1 by points standing")
    assert _values(board) == {
        "Hold the salvage": ("2 (1 held)", "4 (2 held)"),
        "Objective score": ("2", "4"),
        "Battle score": ("1 (222/500 pts)", "3 (364/500 pts)"),
        "Mission score": ("3", "7"),
    }
    assert board.notes == ("Standing if the game ended now",)
    # the same numbers as the scoring the end of the game uses
    sc = g.rules.scores(g.state)
    assert (sc[1]["mission"], sc[2]["mission"]) == (3, 7)


def test_the_scoreboard_follows_the_table():
    """Gun Drone 3 leaves obj-2: one against one, nobody holds it; side 2 holds obj-3 only."""
    g = _salvage()
    g.state.models["2-drone-3"].x = 30 * 25.4
    v = _values(g.rules.scoreboard(g.state))
    assert v["Hold the salvage"] == ("2 (1 held)", "2 (1 held)") and v["Mission score"] == ("3", "5")


def test_headhunters_names_the_head_taken_and_the_denial():
    """Take the head: 3 for the enemy leader (a casualty or Down), +1 for each opponent that did
    not take one's own; Hold the line: 1 per turn the leader stood (``held``)."""
    g = staged({"1-captain": (10, 16), "1-medic": (11, 19), "2-overseer": (40, 4), "2-drone-1": (30, 4)},
               mission="headhunters")
    st = g.state
    st.models["2-overseer"].down = True        # side 2's leader is Down: side 1 took the head
    st.held = {1: 2, 2: 1}
    board = g.rules.scoreboard(st)
    assert board.mission == "Headhunters"
    assert "Take the head 3 for the enemy leader taken (+1 if the enemy fails it); Hold the line 1 per turn your " \
           "leader stands (max 4)" in board.wins
    v = _values(board)
    assert v["Take the head"] == ("4 (taken)", "0 (not taken)")
    assert v["Hold the line"] == ("2 (2 turns)", "1 (1 turn)")
    assert v["Objective score"] == ("6", "1")
    # side 1: captain 70 + medic 53 = 123 of 500 (25%): 1; side 2: the drone's 36 (the overseer is Down): 1
    assert v["Battle score"] == ("1 (123/500 pts)", "1 (36/500 pts)")
    assert v["Mission score"] == ("7", "2")


def test_at_the_end_the_scoreboard_gives_the_final_scores_and_the_degree_of_victory():
    """The last turn passed: at Upkeep the two Down models (not Stable) become casualties, which
    changes no score (neither counted); Dread stays under the models on the table (no Panic
    test). 3 against 7: side 2 wins by 4, a Major victory (4-5)."""
    g = _salvage()
    st = g.state
    st.turn = 6
    while g.pending() is not None:
        d = g.pending()
        submit(g, C.PassTurn() if C.PassTurn() in d.options else d.options[0])
    assert g.over
    board = g.rules.scoreboard(st)
    v = _values(board)
    assert v["Mission score"] == ("3", "7") and v["Battle score"] == ("1 (222/500 pts)", "3 (364/500 pts)")
    f = st.final
    assert v["Mission score"] == (str(f["scores"][1]["mission"]), str(f["scores"][2]["mission"]))
    assert board.notes == ("Major victory by 4",)
    assert g.result().winner == 2 and "major victory by 4" in g.result().reason      # the result's own words
    assert board.turn == 6


def test_no_score_shows_while_the_crews_deploy_and_a_hidden_placement_changes_nothing():
    """The scoreboard is public: during a hidden deployment, the first side's unseen placements
    must not show through it (a marker held, points on the table)."""
    g = new_game(deployment="hidden")
    before = g.rules.scoreboard(g.state)
    assert all(set(line.values.values()) == {"-"} for line in before.lines)
    assert [line.label for line in before.lines] == ["Hold the salvage", "Objective score", "Battle score",
                                                      "Mission score"]
    d = g.pending()
    g.submit(d.player, next(o for o in d.options if "rest" in type(o).__name__.lower()))   # DeployRest
    assert g.state.deploy is not None
    assert g.rules.scoreboard(g.state) == before
