"""bench/speed.py --split (issue 28's analysis in docs/performance.md, "What the goals not met
would take"): its spelled-out loop plays the simulator's own games, and its layers are the
folders they name."""
from script_modules import load_script

from engine.data.maps import load_map
from engine.paths import resolve_map


def speed():
    return load_script("bench_speed", "bench/speed.py")


def test_the_split_plays_the_simulators_games_and_times_each_step():
    sp = speed()
    m = load_map(resolve_map("prehistoric"))
    got = sp.split_games("doubles", m, 2)
    assert got["hashes"] == sp.easy_games("doubles", m, 2)["hashes"]   # the same seeds, the same games
    parts = got["parts"]
    assert set(parts) == {"setup", "pending", "view", "choose", "submit"}
    assert all(v > 0 for v in parts.values())


def test_the_layers_are_the_engines_folders_and_libraries_count_for_their_caller():
    sp = speed()
    assert sp._layer("/a/engine/table/sight.py") == "geometry"
    assert sp._layer("/a/engine/ai/easy_doubles.py") == "agents"
    assert sp._layer("/a/engine/rulesets/doubles/rules.py") == "rules and protocol"
    assert sp._layer("/a/engine/core/game.py") == "rules and protocol"
    assert sp._layer("/v/lib/python3.11/site-packages/numpy/core/fromnumeric.py") is None
    assert sp._layer("/usr/lib/python3.11/dataclasses.py") is None
    assert sp._layer("~") is None
    assert sp._layer("/v/lib/python3.11/site-packages/engine/table/sight.py") == "geometry"   # installed
