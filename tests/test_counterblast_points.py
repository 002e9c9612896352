"""Counterblast points (issue 49): a model's points from its profile, stated points checked, the
500-point standard game and the character rule. The seed (``../shared/seeds/003_52d4831de0a47706.txt``):
"Assemble Crew (500 points is a standard game)", "A crew can never [have] multiple copies of the
same character"; it prices nothing, so the formula is ours, weighed in games
(``engine/rulesets/counterblast/points.py``, ``docs/rules/counterblast.md``, "Points")."""
from __future__ import annotations

import copy
import json

import pytest

from engine.core import Game, Setup, SetupError
from engine.data.errors import DataError
from engine.data.maps import load_named_map
from engine.rulesets.counterblast.data import DATA_DIR, Profile, load_armoury, parse_crew, shipped_crews
from engine.rulesets.counterblast.points import (
    MEASURED_MODELS,
    POINTS_PER_LOGIT,
    WEIGHTS,
    crew_points,
    features,
    model_points,
    outside_measured,
)
from game.cli import main

ARM = load_armoury()
HAND_VELL = 70      # POINTS_PER_LOGIT x the sum below, worked out from WEIGHTS by hand


def shipped(name: str) -> dict:
    return json.loads((DATA_DIR / "crews" / f"{name}.json").read_text())


def unpriced(d: dict) -> dict:
    """The crew with no stated points: the formula prices every model."""
    d = copy.deepcopy(d)
    for e in d["models"]:
        e["profile"].pop("points", None)
    return d


def test_points_are_the_weighted_profile_worked_by_hand():
    crew = parse_crew(shipped("reach_rangers"), "reach_rangers.json")
    vell = next(e.profile for e in crew.models if e.profile.name == "Captain Vell")
    # Captain Vell: Move 5, Zap 5, Grit 4, Defense 4, Knack 4, Mettle 4; a Pulse Carbine (24", damage 1)
    # and a Blaster Pistol (12", 1), a Vibro-blade (damage 2), a Target Scanner; a hero
    x = features(vell, ARM)
    assert x == {"one": 1, "move": 5, "shoot": 5 * 1, "range": 24 / 12, "strike": 4 * 2, "defense": 4, "knack": 4,
                 "mettle": 4, "hero": 1, "gear": 1, "psi": 0, "special": 0}
    by_hand = (WEIGHTS["one"] + 5 * WEIGHTS["move"] + 5 * WEIGHTS["shoot"] + 2 * WEIGHTS["range"]
               + 8 * WEIGHTS["strike"] + 4 * (WEIGHTS["defense"] + WEIGHTS["knack"] + WEIGHTS["mettle"])
               + WEIGHTS["hero"] + WEIGHTS["gear"])
    # -0.1785 + 5(0.0243) + 5(0.0797) + 2(-0.0462) + 8(0.0059) + 4(0.0469 + 0.0283 + 0.0748) + 0.0775 + 0.0278
    # = 1.0016 log-odds; x 70 = 70.1 -> 70
    assert model_points(vell, ARM) == round(POINTS_PER_LOGIT * by_hand) == HAND_VELL
    assert crew_points(crew, ARM) == crew.points == sum(e.profile.points * e.count for e in crew.models)


def test_a_better_profile_costs_more():
    d = unpriced(shipped("reach_rangers"))
    d["models"][4]["count"] = 1                                     # room under 500 for a better captain
    base = parse_crew(d, "r.json").models[0].profile.points        # Captain Vell
    for field in ("move", "zap", "defense", "knack", "mettle"):
        better = copy.deepcopy(d)
        better["models"][0]["profile"][field] += 1
        assert parse_crew(better, "r.json").models[0].profile.points > base, field
    for change in ({"shooting": ["long-rifle"]}, {"striking": ["shock-maul"]}, {"gear": ["scanner", "medkit"]}):
        better = copy.deepcopy(d)                                  # a gun of damage 2, a maul of 3, a medkit too
        better["models"][0]["profile"].update(change)
        assert parse_crew(better, "r.json").models[0].profile.points > base, change
    worse = copy.deepcopy(d)
    worse["models"][0]["profile"]["shooting"] = []                 # no gun: Zap is worth nothing
    assert parse_crew(worse, "r.json").models[0].profile.points < base


def issue_crew() -> dict:
    """The issue's crew: 16 models with every ability at 10, each stating 1 point."""
    prof = {"role": "hero", "kind": "living", "size": 2, "move": 10, "zap": 10, "grit": 10, "defense": 10,
            "knack": 10, "mettle": 10, "points": 1, "shooting": ["pulse-carbine"], "striking": ["vibro-blade"]}
    return {"schema_version": 1, "id": "tens", "name": "All Tens", "points_limit": 500, "leader": "boss",
            "models": [{"id": "boss", "profile": {**prof, "name": "Boss"}},
                       {"id": "goon", "count": 15, "profile": {**prof, "name": "Goon", "role": "lackey"}}]}


def test_the_issues_sixteen_model_crew_of_tens_is_priced_far_over_500_and_refused(tmp_path):
    d = issue_crew()
    p = tmp_path / "tens.json"
    p.write_text(json.dumps(d))
    with pytest.raises(DataError) as err:
        parse_crew(d, p)
    probs = dict(err.value.problems)
    boss, goon = (model_points(Profile.model_validate(unpriced(d)["models"][i]["profile"]), ARM) for i in (0, 1))
    assert probs["models[0].profile.points"] == f"Boss's profile is worth {boss} points, not 1"
    assert probs["models[1].profile.points"] == f"Goon's profile is worth {goon} points, not 1"
    total = boss + 15 * goon
    assert total > 4 * 500
    assert probs["models"] == f"crew costs {total} points ({boss} + {goon}x15), over the 500-point limit"
    assert f"{p}: models: crew costs {total} points" in str(err.value)
    # without the stated points it is still refused, for the limit alone
    with pytest.raises(DataError) as err:
        parse_crew(unpriced(d), p)
    assert [f for f, _ in err.value.problems] == ["models"]
    # and a game will not set it up
    with pytest.raises(SetupError, match="over the 500-point limit"):
        Game(Setup("counterblast", load_named_map("outpost"), (d, "reach-rangers"), {}, 1))


def test_stated_points_that_disagree_are_refused_with_the_field(tmp_path):
    d = shipped("iron_choir")
    d["models"][1]["profile"]["points"] += 10
    p = tmp_path / "choir.json"
    p.write_text(json.dumps(d))
    with pytest.raises(DataError) as err:
        parse_crew(d, p)
    right = d["models"][1]["profile"]["points"] - 10
    assert err.value.problems == [("models[1].profile.points",
                                   f"Unit Zero's profile is worth {right} points, not {right + 10}")]
    assert str(p) in str(err.value)
    # left out, the points are the formula's; stated truly, they pass
    d["models"][1]["profile"].pop("points")
    assert parse_crew(d, p).models[1].profile.points == right
    d["models"][1]["profile"]["points"] = right
    parse_crew(d, p)


def test_the_points_formula_option_off_keeps_the_files_own_points():
    d = shipped("iron_choir")
    d["models"][1]["profile"]["points"] = 1
    from engine.rulesets.counterblast.options import CounterblastOptions

    off = CounterblastOptions(points_formula=False)
    assert parse_crew(d, "x", options=off).models[1].profile.points == 1
    d["models"][1]["profile"].pop("points")
    with pytest.raises(DataError) as err:
        parse_crew(d, "x", options=off)
    assert err.value.problems == [("models[1].profile.points",
                                   "Unit Zero states no points (required when the points_formula option is off)")]


def test_two_copies_of_a_character_are_refused():
    d = unpriced(shipped("dustjaw_raiders"))
    d["models"][4]["count"] = 3                  # room for a second Mad Tibbs
    tibbs = d["models"][1]
    with pytest.raises(DataError) as err:
        parse_crew({**d, "models": d["models"] + [{**tibbs, "id": "tibbs-2"}]}, "x.json")
    assert err.value.problems == [("models[5].profile.name", "character 'Mad Tibbs' already in the crew at models[1]; "
                                                             "a crew may never hold two copies of one character")]
    d["models"][1] = {**tibbs, "count": 2}
    with pytest.raises(DataError) as err:
        parse_crew(d, "x.json")
    assert err.value.problems == [("models[1].count",
                                   "Mad Tibbs is a character: a crew may field only one copy, not 2")]


def test_the_shipped_crews_are_valid_within_500_and_the_measured_range():
    crews = shipped_crews()
    assert len(crews) == 3
    for c in crews.values():
        assert c.points == crew_points(c, ARM) <= 500, c.id
        assert c.points >= 400, c.id                             # near the standard size
        assert all(not outside_measured(e.profile, ARM) for e in c.models), c.id
        assert MEASURED_MODELS[0] <= sum(e.count for e in c.models) <= MEASURED_MODELS[1], c.id
        for e in c.models:                                       # every stated price is the formula's
            assert e.profile.points == model_points(e.profile, ARM)


def test_skirmish_validate_prints_each_models_points_the_total_and_the_limit(tmp_path, capsys):
    path = DATA_DIR / "crews" / "reach_rangers.json"
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    c = shipped_crews()["reach-rangers"]
    each = ", ".join(f"{e.profile.name} {model_points(e.profile, ARM)}" + (f" x{e.count}" if e.count > 1 else "")
                     for e in c.models)
    assert f"Counterblast crew 'reach-rangers': 9 models, {c.points} of 500 points ({each})" in out
    bad = tmp_path / "tens.json"
    bad.write_text(json.dumps(issue_crew()))
    assert main(["validate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"BAD {bad}: models[0].profile.points: Boss's profile is worth" in err
    assert "over the 500-point limit" in err
    far = unpriced(issue_crew())
    far["points_limit"] = 100_000
    far_path = tmp_path / "far.json"
    far_path.write_text(json.dumps(far))
    assert main(["validate", str(far_path)]) == 1                # the game's 500 still applies
    bigger = unpriced(shipped("reach_rangers"))
    bigger["models"][4]["profile"].update(zap=10, shooting=["long-rifle"])     # shoot 10 x 2 = 20
    bigger["models"][4]["count"] = 1
    big_path = tmp_path / "big.json"
    big_path.write_text(json.dumps(bigger))
    assert main(["validate", str(big_path)]) == 0
    assert "priced beyond the measured range: Ranger: shoot 20 (measured 0-18)" in capsys.readouterr().out
