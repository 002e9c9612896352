"""``--mission ID`` on ``play``, ``simulate`` and ``experiment`` (issue 49): the same as ``--option
mission=ID``; an unknown mission, or a map with too few objective markers for it, is refused with
the ruleset's reason (``Rules.mission_problem``), exit 2 like every set-up refusal, no traceback."""
from __future__ import annotations

import json

import pytest
from test_cli_processes import clean, run

from engine.core.rules import get_rules
from engine.data.maps import load_named_map
from game.cli import build_parser, main


@pytest.fixture
def bare_outpost(tmp_path):
    """The outpost without its objective markers: Headhunters only."""
    m = load_named_map("outpost").model_copy(update={"objectives": [], "id": "bare-outpost"})
    path = tmp_path / "bare_outpost.json"
    path.write_text(m.model_dump_json())
    return path


def test_mission_joins_the_option_list():
    for cmd in (["play", "--ruleset", "counterblast"], ["simulate", "--ruleset", "counterblast", "--map", "outpost"],
                ["experiment", "--ruleset", "counterblast", "--maps", "outpost"]):
        args = build_parser().parse_args(cmd + ["--option", "turns=3", "--mission", "data-heist"])
        assert args.option == ["turns=3", 'mission="data-heist"']
    from game.cli.args import option_pairs
    assert option_pairs(['mission="data-heist"']) == ({"mission": "data-heist"}, None)


def test_simulate_plays_the_mission_asked_for(capsys):
    rc = main(["simulate", "--ruleset", "counterblast", "--map", "outpost", "--games", "1", "--fixed",
               "--mission", "headhunters", "--json", "--records"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["errors"] == 0 and out["games"] == 1


def test_simulate_refuses_a_map_that_cannot_hold_the_mission(bare_outpost, capsys):
    rc = main(["simulate", "--ruleset", "counterblast", "--map", str(bare_outpost), "--games", "1",
               "--mission", "salvage-rights"])
    err = capsys.readouterr().err
    assert rc == 2
    assert get_rules("counterblast").mission_problem(load_named_map(str(bare_outpost)), "salvage-rights") in err
    assert "Salvage Rights needs 3 objective markers; 'Kessler Station' has 0" in err


def test_unknown_mission_is_refused_with_the_missions_listed(tmp_path):
    p = run(["simulate", "--ruleset", "counterblast", "--map", "outpost", "--games", "1", "--mission", "bake-off"],
            tmp_path)
    clean(p, 2, "no Counterblast mission 'bake-off'", "data-heist", "headhunters", "salvage-rights")


def test_play_refuses_the_mission_the_map_cannot_hold(tmp_path, bare_outpost):
    p = run(["play", "--ruleset", "counterblast", "--map", str(bare_outpost), "--mission", "data-heist",
             "--screenshot", str(tmp_path / "x.png"), "--frames", "1"], tmp_path)
    clean(p, 2, "skirmish play: Data Heist needs 2 objective markers")
    assert not (tmp_path / "x.png").exists()


def test_play_starts_the_mission(tmp_path):
    p = run(["play", "--ruleset", "counterblast", "--map", "outpost", "--mission", "data-heist",
             "--screenshot", str(tmp_path / "x.png"), "--frames", "1"], tmp_path)
    clean(p, 0)
    assert (tmp_path / "x.png").is_file()


def test_experiment_refuses_before_any_worker_starts(tmp_path, bare_outpost, capsys):
    rc = main(["experiment", "--ruleset", "counterblast", "--maps", str(bare_outpost), "--games", "1",
               "--mission", "salvage-rights", "--out", str(tmp_path / "ex")])
    assert rc == 2
    assert "Salvage Rights needs 3 objective markers" in capsys.readouterr().err
    assert not (tmp_path / "ex").exists()
