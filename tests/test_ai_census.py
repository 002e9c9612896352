"""bench/ai_census.py (issue 61, item 1): what each decision offered and what each agent took,
counted over the simulator's own games."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from engine.core.protocol import ChoiceSpace, Decision
from engine.rulesets.common import MoveTo
from engine.rulesets.doubles.choices import EndActivation, MeleeAttack, Shoot, ShootAt, StandUp

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def census():
    spec = importlib.util.spec_from_file_location("bench_ai_census", ROOT / "bench" / "ai_census.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def one_game(census):
    return census.run("doubles", "prehistoric", ("easy", "random"), 1, 5)


def test_one_game_adds_up(census, one_game):
    """Every decision of a simulated game is counted once as taken, by the agent that answered
    it; no agent took a type more often than it was offered; each answer's type was offered."""
    rec = one_game
    assert rec["errors"] == 0 and rec["agents"] == ["easy", "random"]
    assert set(rec["decisions"]) == {"easy", "random"}            # named by agent, not by seat
    assert sum(rec["decisions"].values()) == rec["played_decisions"] > 50
    assert rec["unoffered_answers"] == 0
    for agent, n in rec["decisions"].items():
        assert sum(row["taken_by"][agent] for row in rec["types"].values()) == n
    for t, row in rec["types"].items():
        assert sum(row["offered_to"].values()) == row["offered"] <= rec["played_decisions"]
        for agent in rec["decisions"]:
            assert row["taken_by"][agent] <= row["offered_to"][agent] <= rec["decisions"][agent], t
        assert row["only_choice"] <= row["offered"]
    assert "doubles.Announce" in rec["types"] and "common.MoveTo" in rec["types"]
    assert not set(rec["never_offered"]) & set(rec["types"])
    assert rec["budgets"]["easy"].startswith("no search budget")
    table = census.markdown(rec)
    assert "| choice type | offered in | only choice | easy: taken / offered | random: taken / offered | flag |" in table


def test_the_same_agent_on_both_sides_is_told_apart_by_seat(census):
    assert census.seat_keys(("easy", "easy"), ("easy", "easy")) == {1: "easy (seat 1)", 2: "easy (seat 2)"}
    assert census.seat_keys(("hard", "easy"), ("easy", "hard")) == {1: "easy", 2: "hard"}
    assert census.agent_words("hard:budget=0.2") == "budget 0.2 s of its own CPU a decision"
    assert census.agent_words("hard:iters=3") == "3 search rounds a decision (no clock)"


class _Moves(ChoiceSpace):      # a continuous space whose answers are moves
    choice_type = MoveTo


def test_a_type_counts_once_per_decision_and_flags_the_idle(census):
    """Two Shoot options and a move space in one decision: Shoot is offered once, MoveTo once;
    a type offered often and never taken is flagged, for everyone or for the one agent that
    never took it."""
    c = census.Census()
    move = _Moves()
    both = Decision(1, "act", "", (Shoot("a", "b"), Shoot("a", "c"), ShootAt("a", 1.0, 2.0), EndActivation("a")), (move,))
    for i in range(25):
        c.add(both, "A", Shoot("a", "b") if i % 2 else EndActivation("a"))
        c.add(both, "B", EndActivation("a"))
    c.add(Decision(2, "stand", "", (StandUp("x"),)), "B", StandUp("x"))
    c.add(Decision(2, "melee", "", (MeleeAttack("x", "y"), EndActivation("a"))), "B", MeleeAttack("x", "y"))
    assert c.offered["doubles.Shoot"] == 50 and c.offered["common.MoveTo"] == 50
    assert c.offered["doubles.EndActivation"] == 51
    assert c.forced == {"doubles.StandUp": 1}
    assert c.decisions == {"A": 25, "B": 27}
    assert c.taken["A"]["doubles.Shoot"] == 12 and c.taken["A"]["doubles.EndActivation"] == 13
    assert c.flags(20) == {"common.MoveTo": "never taken", "doubles.ShootAt": "never taken",
                           "doubles.Shoot": "never by B"}
    assert c.flags(60) == {}
    assert c.unoffered_answers == 0
    c.add(Decision(1, "act", "", (EndActivation("a"),)), "A", Shoot("a", "b"))
    assert c.unoffered_answers == 1


def test_runs_side_by_side_and_bad_files_refused(census, one_game, tmp_path):
    """``--combine`` puts runs' columns side by side per ruleset; a file that is not a census's
    JSON is refused with the file, the record and the reason."""
    import json

    other = json.loads(json.dumps(one_game)) | {"agents": ["random", "easy"]}
    other["decisions"] = {"random": one_game["decisions"]["random"], "easy": one_game["decisions"]["easy"]}
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps([one_game]))
    b.write_text(json.dumps([other]))
    recs, why = census.read_runs([a, b])
    assert why is None and len(recs) == 2
    text = census.combined(recs)
    assert text.count("**doubles on prehistoric**") == 1
    assert ("| choice type | easy v random: offered in | easy: taken / offered | random: taken / offered | "
            "random v easy: offered in | random: taken / offered | easy: taken / offered | flag |") in text
    n = one_game["types"]["doubles.Announce"]["offered"]
    assert any(line.startswith(f"| doubles.Announce | {n} |") for line in text.splitlines())
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert census.read_runs([a, bad])[1].startswith(f"{bad}: cannot be read as JSON")
    bad.write_text(json.dumps([{k: v for k, v in one_game.items() if k != "types"}]))
    assert census.read_runs([bad]) == ([], f"{bad}: record 0: no types")
    bad.write_text(json.dumps({"types": {}}))
    assert "not a list of census records" in census.read_runs([bad])[1]
    assert census.main(["--combine", str(tmp_path / "missing.json")]) == 2


def test_rosters_and_options_from_the_command_line(census, tmp_path, capsys):
    """``--rosters`` and ``--option`` reach the games (issue 61, item 2: the census of the options
    and missions that offer Pick Up, Take Relic and Discard Die): a Relic Hunt game with dropped
    weapons offers Take Relic, and the record names its options."""
    out = tmp_path / "c.json"
    assert census.main(["--ruleset", "doubles", "--games", "1", "--seed", "3", "--rosters", "bone_hunters,ash_skulls",
                        "--option", "mission=relic-hunt", "--option", "thrown_weapon=dropped", "--json", str(out)]) == 0
    import json
    rec = json.loads(out.read_text())[0]
    assert rec["rosters"] == ["bone_hunters", "ash_skulls"]
    assert rec["options"] == {"mission": "relic-hunt", "thrown_weapon": "dropped"}
    assert "doubles.TakeRelic" in rec["types"]
    assert "mission=relic-hunt" in capsys.readouterr().out
