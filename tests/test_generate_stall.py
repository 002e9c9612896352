"""Issue 62, the generator: a coarse-to-full correction can never stop the search (it stays
reachable on the coarse grid, and a layout is checked at least every few rounds), the CPU budget
stops a run and says which target and why, the lane figure leaves the unbreakable edge strip out,
and objective fairness needs each side to hold at least one objective unseen (0 against 0 fails)."""
from __future__ import annotations

import math

import pytest
from test_workshop_analysis import _box, _map

from engine.table import Table
from engine.workshop import generate as G
from engine.workshop.catalog import load_catalog
from engine.workshop.corrections import clamp, note_seen, verdict
from engine.workshop.generate import problem, search
from engine.workshop.targets import meets, parse_target, sight_figures

CATALOG = load_catalog()
SMALL = [G.Entry("ruin-with-walls", 0, 4), G.Entry("building", 1, 4), G.Entry("container-stack", 0, 3),
         G.Entry("forest", 0, 2), G.Entry("crate-pile", 0, 3)]


def _problem(targets):
    start = G.start_map(60, 44, "in", CATALOG.mission("short-edges"))
    return G.make_problem(start, "none", SMALL, [parse_target(t) for t in targets])


# ----------------------------------------------------------------------------- corrections

def test_seed_11s_lane_correction_is_clamped_to_what_the_coarse_grid_reads():
    """Seed 11 at the old defaults, by hand: one check read the lane 62.0" coarse and 67.7" full,
    a correction of +5.65"; the coarse grid never reads under 58" (the lane along a long edge), so
    ``lane <= 63`` then needed a coarse reading of 57.35" and no layout passed again. Clamped, the
    correction leaves the lowest reading seen (58.0") inside the target."""
    targets = [parse_target("lane<=63"), parse_target("los=30")]
    learnt = {"lane": 5.65, "los": -0.4}
    seen: dict = {}
    for lane, los in ((58.0, 29.0), (62.03, 30.5), (65.3, 33.5)):
        note_seen(seen, {"lane": lane, "los": los})
    assert not meets({"lane": 58.0, "los": 30.0}, targets, learnt)        # the stall
    b = clamp(learnt, seen, targets)
    assert b == {"lane": pytest.approx(5.0), "los": -0.4}                 # 63 - 58; los needs no clamp
    assert meets({"lane": 58.0, "los": 30.0}, targets, b)
    # a lower bound is kept reachable by the highest reading, a band from both ends
    t = [parse_target("cover=24+-4")]
    note_seen(seen, {"cover": 15.0})
    note_seen(seen, {"cover": 22.0})
    assert clamp({"cover": -10.0}, seen, t) == {"cover": pytest.approx(-2.0)}      # 22 - 2 = 20
    assert clamp({"cover": 20.0}, seen, t) == {"cover": pytest.approx(13.0)}       # 15 + 13 = 28


def test_per_side_corrections_and_the_hide_difference_stay_reachable():
    seen: dict = {}
    for h1, h2 in ((30.0, 30.0), (40.0, 38.0)):
        note_seen(seen, {"hide": {"1": h1, "2": h2}, "obj_held": {"1": 0, "2": 1}})
    assert seen["hide_delta"] == [0.0, 2.0]
    # learnt hides 12 points apart: |d + 12| > 5 for every seen signed difference d (0 to 2), so
    # the corrections' difference is narrowed, around their mean, to -5 - 2 ... 5 - 0 (here 5)
    b = clamp({"hide": {"1": 10.0, "2": -2.0}}, seen, [parse_target("hide_diff<=5")])
    assert b["hide"]["1"] - b["hide"]["2"] == pytest.approx(5.0)
    assert (b["hide"]["1"] + b["hide"]["2"]) / 2 == pytest.approx(4.0)
    assert meets({"hide": {"1": 30.0, "2": 30.0}, "hide_diff": 0.0}, [parse_target("hide_diff<=5")], b)
    assert not meets({"hide": {"1": 30.0, "2": 30.0}, "hide_diff": 0.0}, [parse_target("hide_diff<=5")],
                     {"hide": {"1": 10.0, "2": -2.0}})
    # a count per side: a correction of -1 is kept only as far as the best count seen allows
    b = clamp({"obj_held": {"1": -1.0, "2": -1.0}}, seen, [parse_target("obj_held>=1")])
    assert b == {"obj_held": {"1": 1.0, "2": 0.0}}


def _lying_full(extra: float, times: int):
    """``full_figures`` that reads the longest sight line ``extra`` longer than the truth on its
    first ``times`` calls: a layout whose full grid sees a line the coarse grid cannot."""
    real = G.full_figures
    calls = []

    def full(problem, m):
        f = dict(real(problem, m))
        calls.append(1)
        if len(calls) <= times:
            f["longest"] = f["longest"] + extra
        return f
    return full


def test_a_correction_no_layout_can_satisfy_no_longer_stalls_the_search(monkeypatch):
    """Seed 11's stall, built by hand: the first full-grid check reads the longest line 50"
    longer than the coarse grid did. The old running-mean correction then asked every layout for
    a coarse reading under 30", where a line along an edge always reads 58": no layout passed,
    no check ran again, and the search ran all its rounds unmet. Now the correction is clamped,
    the next layout is checked, and the true full reading meets ``longest <= 80`` (the diagonal
    is 74")."""
    monkeypatch.setattr(search, "full_figures", _lying_full(50.0, 1))
    prob, pre = _problem(("longest<=80",))
    res = G.run(prob, seed=5, chains=2, rounds=8, steps=4, pre_edits=pre)
    first = res.checks[0]
    assert not first["met"] and first["full"]["longest"] - first["coarse"]["longest"] > 40
    assert res.met and res.stopped == "targets met", (res.stopped, res.checks)
    assert len(res.checks) == 2 and res.rounds <= 4
    # the correction learnt (the mean of +50 and the truth) was clamped to what the coarse grid reads
    assert res.learnt["longest"] > 20 and res.bias["longest"] <= 80 - res.seen["longest"][0] + 1e-9


def test_a_layout_is_checked_every_few_rounds_when_none_passes(monkeypatch):
    """However wrong the correction, the full grid is asked again at least every CHECK_EVERY
    rounds (the old code asked only when a layout passed on the coarse grid)."""
    monkeypatch.setattr(search, "full_figures", _lying_full(50.0, 10_000))
    prob, pre = _problem(("longest<=80",))
    res = G.run(prob, seed=5, chains=2, rounds=7, steps=3, pre_edits=pre)
    assert not res.met and res.stopped == "rounds"
    rounds = [c["round"] for c in res.checks]
    assert len(rounds) >= 3 and all(b - a <= G.CHECK_EVERY for a, b in zip(rounds, rounds[1:]))
    assert 7 - rounds[-1] < G.CHECK_EVERY
    assert res.verdict and res.verdict[0].startswith("target longest <= 80 not met")


def test_the_search_reads_a_lane_above_its_target_as_the_full_grid_does():
    """A lane target is read on the full grid's points wherever the lane is longer than the
    target allows (only those pairs are cast): the figure the full-grid check then measures, so
    no correction is learnt for it (the coarse grid's lane was 2-7% of the length short)."""
    from pathlib import Path

    from engine.data.maps import load_map
    from engine.workshop.analysis import cross_visibility, open_grid, visibility_matrix
    from engine.workshop.targets import EDGE_STRIP_MM, long_lane

    m = load_map(Path(__file__).parent / "data" / "layouts" / "take-and-hold-mirror-1.json")
    t = Table(m)
    full = sight_figures(t, 25.4, need={"lane", "lane_share"})
    length = max(t.width, t.height)
    d, at = long_lane(t, 25.4, (full["lane_share"] - 10) / 100 * length, EDGE_STRIP_MM)
    assert 100 * d / length == pytest.approx(full["lane_share"], abs=0.01)
    assert tuple(round(v / 25.4, 3) for v in at) == full["lane_share_at"]
    assert long_lane(t, 25.4, (full["lane_share"] + 0.5) / 100 * length, EDGE_STRIP_MM) == (0.0, None)
    d, _ = long_lane(t, 25.4, (full["lane"] - 3) * 25.4)
    assert d / 25.4 == pytest.approx(full["lane"], abs=0.01)
    # the pairs cast are exactly the matrix's
    g = open_grid(t, 25.4)
    a, b = g.pts[::7][:60], g.pts[3::11][:50]
    V = visibility_matrix(t, __import__("numpy").concatenate([a, b]))
    assert (cross_visibility(t, a, b) == V[:60, 60:]).all() and not V[:60, 60:].all()
    # in the search: no correction learnt for a lane read so
    prob, _ = _problem(("lane_share<=95", "los=30"))
    assert G.lane_floors(prob) == {"lane_share": 95.0}
    biases: dict = {}
    search._learn_bias(biases, {"lane_share": 90.0, "los": 30.0}, {"lane_share": 96.0, "los": 31.0}, prob.targets,
                  G.lane_floors(prob))
    assert biases == {"los": [1.0]}


# ----------------------------------------------------------------------------- the early stop

def test_the_cpu_budget_stops_the_run_and_names_the_target_and_why():
    prob, pre = _problem(("los<=1", "cover=20+-10"))
    res = G.run(prob, seed=2, chains=2, rounds=50, steps=3, pre_edits=pre, cpu_limit=0.01)
    assert res.stopped == "CPU budget" and res.rounds == 1 and not res.met
    assert len(res.verdict) >= 1
    assert res.verdict[0].startswith("target los <= 1 not met: ")
    assert "no layout the chains held reached it on the coarse grid" in res.verdict[0]


def test_the_verdict_tells_a_grid_difference_from_a_conflict_by_hand():
    targets = [parse_target("lane<=60"), parse_target("los=30")]
    seen = {"lane": [55.0, 66.0], "los": [20.0, 40.0]}
    # inside on the coarse grid (with the correction), outside on the full grid
    v = verdict(targets, {"lane": 62.0, "los": 30.0}, {"lane": 58.0, "los": 30.0}, {}, seen)
    assert len(v) == 1 and "the coarse grid read 58 (inside, with its correction) and the full grid 62" in v[0]
    # outside on both, but reached alone by other layouts: the other targets are in the way
    v = verdict(targets, {"lane": 64.0, "los": 30.0}, {"lane": 64.0, "los": 30.0}, {}, seen)
    assert "none together with every other target" in v[0]


def test_a_hair_over_one_target_never_scores_better_than_meeting_them_all():
    """Seed 117 (2026-12-07 sweep) sat for 11 rounds on a layout whose lane was 0.01% over its
    bound (a score of 0.003) because its cover, 2.3 points under the middle of its band, cost
    0.77 wherever the lane was shorter: the search's score adds a step for each target missed."""
    targets = [parse_target("lane_share<=95"), parse_target("cover=24+-4"), parse_target("los=30")]
    hair = {"lane_share": 95.01, "cover": 24.0, "los": 30.0}
    met = {"lane_share": 92.2, "cover": 21.7, "los": 29.6}
    from engine.workshop.targets import score

    assert score(hair, targets) < score(met, targets)                  # the distance alone
    assert not meets(hair, targets) and meets(met, targets)
    assert score(hair, targets, step=G.MISS_STEP) > score(met, targets, step=G.MISS_STEP)
    assert score(hair, targets, step=1.0) == pytest.approx(0.01 / 3 + 1.0)
    prob, _ = _problem(("lane_share<=95", "cover=24+-4", "los=30"))
    assert problem._score(hair, prob) > problem._score(met, prob)


# ----------------------------------------------------------------------------- the figures

def test_the_lane_share_leaves_out_only_the_lines_along_one_edge_by_hand():
    """24x24" table, zones along the bottom and top 4". Open: the longest lane is the corner to
    corner diagonal of the full grid, 23" x 23", and it runs along no edge: the share gives it
    whole, as % of the 24" length. A tall wall across the table but for the 1" edge gap at the
    left: every line between the zones now runs through the gap, within 2" of the left edge at
    both ends (a line a piece could only break by standing in the gap): the lane still reads
    its 23", the share nothing."""
    f = sight_figures(Table(_map()), 25.4, need={"lane", "lane_share"})
    assert f["lane"] == pytest.approx(math.hypot(23, 23), abs=0.01)
    assert f["lane_share"] == pytest.approx(100 * math.hypot(23, 23) / 24, abs=0.01)
    assert f["lane_share_at"] in ((0.5, 0.5, 23.5, 23.5), (23.5, 0.5, 0.5, 23.5))
    f = sight_figures(Table(_map([_box("w", 1, 11.5, 24, 12.5, 5.0)])), 25.4, need={"lane", "lane_share"})
    assert f["lane"] == pytest.approx(23.0, abs=0.01) and f["lane_share"] == 0.0
    # on a 60" table a lane the table's length, back edge to back edge across the middle, counts whole
    from engine.data.maps import MapFile

    m = MapFile(schema_version=1, id="w", name="W", unit="in", width=60, height=44,
                deployment=[{"side": 1, "points": [[0, 0], [12, 0], [12, 44], [0, 44]]},
                            {"side": 2, "points": [[48, 0], [60, 0], [60, 44], [48, 44]]}],
                pieces=[_box("a", 20, 1, 40, 21.5, 5.0), _box("b", 20, 22.5, 40, 43, 5.0)])
    f = sight_figures(Table(m), 25.4, need={"lane", "lane_share"})
    x0, y0, x1, y1 = f["lane_share_at"]
    assert {x0, x1} == {0.5, 59.5} and 21.5 <= min(y0, y1) and max(y0, y1) <= 22.5      # through the gap
    assert f["lane_share"] == pytest.approx(100 * math.hypot(59, y1 - y0) / 60, abs=0.01)
    assert f["lane_share"] >= 100 * 59 / 60


def test_objective_fairness_refuses_zero_against_zero():
    """Seeds 11 and 13 passed ``obj_diff<=0`` with neither side able to hold any objective unseen;
    the default targets now also need each side to hold one."""
    targets = [parse_target(t) for t in G.DEFAULT_TARGETS if t.startswith("obj")]
    assert {t.metric for t in targets} == {"obj_diff", "obj_held"}
    zero = {"objectives": {"1": 0.0, "2": 0.0}, "obj_diff": 0.0, "obj_held": {"1": 0, "2": 0}}
    one = {"objectives": {"1": 33.33, "2": 33.33}, "obj_diff": 0.0, "obj_held": {"1": 1, "2": 1}}
    lopsided = {"objectives": {"1": 33.33, "2": 0.0}, "obj_diff": 33.33, "obj_held": {"1": 1, "2": 0}}
    assert not meets(zero, targets) and meets(one, targets) and not meets(lopsided, targets)
    # measured: an open table, an objective in the middle: both zones see all of it, 0 against 0
    f = sight_figures(Table(_map([], [{"id": "o", "at": [12, 12]}])), 25.4, need={"obj_diff", "obj_held"})
    assert f["obj_diff"] == 0.0 and f["obj_held"] == {"1": 0, "2": 0} and not meets(f, targets)
    # a tall block beside each zone's side of it: each side holds it unseen behind its own block
    m = _map([_box("a", 6, 8, 18, 9, 5.0), _box("b", 6, 15, 18, 16, 5.0)], [{"id": "o", "at": [12, 12]}])
    f = sight_figures(Table(m), 25.4, need={"obj_diff", "obj_held"})
    assert f["obj_held"] == {"1": 1, "2": 1} and meets(f, targets)


def test_the_new_targets_parse_and_refuse_nonsense():
    assert parse_target("lane_share<=95").value == 95 and parse_target("obj_held>=1").metric == "obj_held"
    for bad in ("lane_share<=-1", "obj_held>=-2", "obj_held>=1001"):
        with pytest.raises(ValueError):
            parse_target(bad)


# ----------------------------------------------------------------------------- seed 11

@pytest.mark.long
def test_seed_11_meets_the_default_targets_within_a_minute_of_cpu():
    """The reporter's seed, at the defaults of ``skirmish generate --seed 11``: it never met its
    targets (202.8 s of CPU, 60 rounds, 2026-12-07); now met well within 60 s of CPU."""
    start = G.start_map(60, 44, "in", CATALOG.mission("short-edges"), None, "generated-11", "G")
    entries = [G.Entry(t, lo, hi, t in G.DEFAULT_IN_ZONES) for t, (lo, hi) in G.DEFAULT_COUNTS.items()]
    problem, pre = G.make_problem(start, "mirror", entries, [parse_target(t) for t in G.DEFAULT_TARGETS],
                                  None, 25.0, CATALOG)
    res = G.run(problem, seed=11, pre_edits=pre, cpu_limit=60)
    assert res.met and res.stopped == "targets met", (res.stopped, res.verdict)
    assert res.cpu_seconds <= 60
    assert res.full["obj_held"]["1"] >= 1 and res.full["obj_held"]["2"] >= 1
    assert res.full["lane_share"] <= G.LANE_SHARE


def test_the_command_says_which_target_stopped_it_and_why(tmp_path):
    """``skirmish generate`` with a target no layout can meet and a small CPU budget: it stops
    after the round that spent the budget, writes the closest layout, and names the target."""
    from test_workshop_bad_input import run

    out = tmp_path / "g"
    p = run(["generate", "--size", "24x18", "--chains", "1", "--steps", "2", "--no-pictures", "--quiet",
             "--target", "los<=1", "--cpu-limit", "0.01", "--out", str(out)], tmp_path, timeout=120)
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr[-2000:]
    assert "targets NOT met" in p.stdout and "stopped by the CPU budget (0.01 s)" in p.stdout
    assert "target los <= 1 not met:" in p.stdout and "no layout the chains held reached it" in p.stdout
    record = __import__("json").loads((out / "history.json").read_text())
    assert record["stopped"] == "CPU budget" and record["rounds_run"] == 1 and record["verdict"]
