"""The balancer (engine/workshop/balance.py): the keep/stop/budget logic on a cheap evaluator
that is a deterministic function of the map, locks, symmetry, fresh confirmation seeds, resume,
the CLI's refusals, and one small real run."""
from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import pytest

from engine.data.maps import MapFile, Marker, Zone
from engine.simulate import game_seed, plan_game
from engine.workshop import balance as B
from engine.workshop import edits as E
from engine.workshop.catalog import load_catalog, place_template

CAT = load_catalog()
T = {t.id: (t, u) for t, u in CAT.templates}


def small_map(placements, locked=()) -> MapFile:
    """A 24x18 inch table, zone 1 along the top edge, zone 2 along the bottom."""
    zones = [Zone(side=1, points=[(0, 15), (24, 15), (24, 18), (0, 18)]),
             Zone(side=2, points=[(0, 0), (24, 0), (24, 3), (0, 3)])]
    m = MapFile(schema_version=1, id="small", name="Small", unit="in", width=24, height=18, suits=["doubles"],
                deployment=zones, objectives=[Marker(id="c", name="Centre", at=(12, 9))])
    for i, (tid, at, deg) in enumerate(placements):
        t, u = T[tid]
        ps = place_template(t, u, m, at, deg)
        if i in locked:
            ps = tuple(p.model_copy(update={"locked": True}) for p in ps)
        m = m.model_copy(update={"pieces": list(m.pieces) + list(ps)})
    return m


def centre_y(m: MapFile) -> float:
    ys = [y for p in m.pieces if not p.locked for y in (E.selection_bounds(m, [("piece", p.id)])[1::2])]
    return sum(ys) / len(ys)


def p_by_height(m: MapFile) -> float:
    """Zone 1's chance: 50% while the unlocked terrain's centre lies within 1.5" of mid-table,
    15 points less (more) per inch below (above) that, within 5-95%."""
    cy = centre_y(m)
    dev = max(0.0, abs(cy - 9) - 1.5)
    return 0.5 + math.copysign(min(0.45, 0.15 * dev), cy - 9)


def _u(*parts) -> float:
    h = hashlib.blake2b("|".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(h, "big") / 2 ** 64


class FakePlay:
    """An experiment whose winners are drawn from p(map) with one uniform per game seed and cell:
    the same seeds give common random numbers across maps, as real paired games do."""

    def __init__(self, p_of, interrupt_at: int | None = None):
        self.p_of, self.calls, self.interrupt_at = p_of, [], interrupt_at
        self.seeds: list[tuple[str, set]] = []

    def __call__(self, cfg, folder, outputs):
        from engine.data.maps import load_map

        self.calls.append((str(folder), cfg.seed, cfg.games))
        if self.interrupt_at is not None and len(self.calls) == self.interrupt_at:
            raise KeyboardInterrupt
        recs = []
        for path, label in zip(cfg.maps, cfg.map_labels()):
            m = load_map(Path(path))
            p = self.p_of(m)
            dig = hashlib.blake2b(m.model_dump_json().encode(), digest_size=6).hexdigest()
            for i in range(cfg.planned):
                g = plan_game(i, cfg.seed, tuple(cfg.rosters), (cfg.p1, cfg.p2))
                k = i % 2
                win = 1 if _u(g.seed, k) < p else 2
                recs.append({"index": i, "block": g.block, "seed": g.seed, "map": label, "error": None,
                             "rosters": {"1": g.rosters[0], "2": g.rosters[1]}, "agents": {"1": g.agents[0], "2": g.agents[1]},
                             "first_player": 1 if _u(g.seed, k, "first") < 0.5 else 2, "winner": win,
                             "winner_roster": g.rosters[win - 1], "winner_agent": g.agents[win - 1],
                             "final_hash": f"{dig}-{i}", "decisions": 10, "turns": 5, "ending": "turn_limit"})
        self.seeds.append((str(folder), {r["seed"] for r in recs}))
        return recs


def settings(**kw) -> B.Settings:
    base = dict(ruleset="doubles", map="small", rosters=("a", "b"), agents=("easy", "easy"), seed=3,
                budget_minutes=1000, search_games=200, check_games=2000, confirm_games=400, proposals=6, tests=2,
                max_steps=12)
    base.update(kw)
    return B.Settings(**base)


LOW = [("crate-pile", (7, 5), 0), ("crate-pile", (17, 5), 0)]


# --- decisions by hand -------------------------------------------------------------------

def test_gain_and_decide_by_hand():
    # incumbent at log-odds -1 (27%); a change of +0.8 gains 0.8, one of +1.6 overshoots to +0.6: gains 0.4
    assert B.gain_of(-1.0, 0.8) == pytest.approx(0.8)
    assert B.gain_of(-1.0, 1.6) == pytest.approx(0.4)
    assert B.gain_of(-1.0, -0.5) == pytest.approx(-0.5)
    tested = [{"d": 0.8, "se_d": 0.5}, {"d": 1.6, "se_d": 0.1}, {"d": -0.5, "se_d": 0.1}, {"d": None, "se_d": None}]
    assert B.decide(-1.0, tested, 1.0) == 1          # 0.4 / 0.1 = 4 se beats 0.8 / 0.5 = 1.6 se
    assert B.decide(-1.0, tested[:1], 1.0) == 0
    assert B.decide(-1.0, tested[:1], 2.0) is None   # 1.6 se is not enough at keep_z 2
    assert B.decide(-1.0, tested[2:], 0.0) is None   # a change away from 50% is never kept


def test_within_and_slope():
    assert B.within({"low": 0.46, "high": 0.54}, 0.05)
    assert not B.within({"low": 0.44, "high": 0.52}, 0.05)
    assert B.slope([]) == pytest.approx(B.PRIOR)
    # evidence that dominates the prior: d = -0.03 per point of hide and +0.1 per inch of walk, exactly
    data = [((100.0, 0.0), -3.0), ((0.0, 10.0), 1.0), ((50.0, 10.0), -0.5)]
    assert B.slope(data, weight=(1e-9, 1e-9)) == pytest.approx((-0.03, 0.1))
    # no evidence on the walk: its prior stays
    assert B.slope([((100.0, 0.0), -3.0)], weight=(1e-9, 1.0))[1] == pytest.approx(B.PRIOR[1])
    assert B.predict(0.5, (0.02, -0.1), (10.0, 3.0), (0.0, 1.0)) == pytest.approx(0.5 + 0.2 - 0.2)


def test_walk_figure_sees_a_maze_in_front_of_one_zone():
    """A row of buildings with narrow gaps in front of zone 2 makes zone 2's walk to the centre
    longer: the figure (zone 1 minus zone 2) falls below the open table's."""
    open_table = small_map([])
    walled = small_map([("building", (x, 5.5), 0) for x in (3.5, 12, 20.5)])
    assert abs(B.walk_figure(open_table, 25.0)) < 1.0       # the grid's half cell
    assert B.walk_figure(walled, 25.0) < B.walk_figure(open_table, 25.0) - 1.5


def test_paired_change_sees_a_shift_common_seeds_make_precise():
    """Two fake experiments on the same seeds, p 30% then 50%: the paired change is near
    logit(.5) - logit(.3) = 0.85 with a smaller se than two independent estimates would have."""
    m0, m1 = small_map(LOW), small_map([("crate-pile", (7, 9), 0), ("crate-pile", (17, 9), 0)])
    import tempfile

    from engine.workshop.experiment import Config
    with tempfile.TemporaryDirectory() as d:
        a, b = Path(d) / "a.json", Path(d) / "b.json"
        a.write_text(m0.model_dump_json())
        b.write_text(m1.model_dump_json())
        ra = FakePlay(lambda m: 0.3)(Config("doubles", (str(a),), 800, "easy", "easy", ("a", "b"), 5, labels=("a",)), d, False)
        rb = FakePlay(lambda m: 0.5)(Config("doubles", (str(b),), 800, "easy", "easy", ("a", "b"), 5, labels=("b",)), d, False)
    d_, se = B.paired_change(ra, rb, ("a", "b"), ("easy", "easy"))
    assert d_ == pytest.approx(math.log(1) - math.log(0.3 / 0.7), abs=0.25)
    ea, eb = B.table_estimate(ra, ("a", "b"), ("easy", "easy")), B.table_estimate(rb, ("a", "b"), ("easy", "easy"))
    assert se < 0.8 * math.hypot(ea["se"], eb["se"])
    # a change that never came into play (every game ended as before) is no change, not a failed fit
    assert B.paired_change(ra, [dict(r, map="z") for r in ra], ("a", "b"), ("easy", "easy")) == (0.0, 0.0)
    assert B.gain_z(-1.0, 0.0, 0.0) is None


# --- runs on the cheap evaluator -----------------------------------------------------------

def test_search_moves_toward_fifty_and_stops_when_the_check_is_within(tmp_path):
    fp = FakePlay(p_by_height)
    start = small_map(LOW)
    assert p_by_height(start) < 0.3
    res = B.run(settings(), start, tmp_path, fp, say=lambda s: None)
    st = res.state
    assert st["stopped"] == "balanced"
    assert st["changes"], "a change must have been kept"
    assert abs(p_by_height(res.final) - 0.5) < abs(p_by_height(start) - 0.5)
    # every kept change moved the table toward 50% by at least keep_z standard errors, on paired seeds
    for h in st["history"]:
        if h["kind"] == "search" and h["kept"]:
            t = next(c for c in h["tested"] if c["label"] == h["kept"])
            assert t["gain_z"] >= 1.0
    checks = [h for h in st["history"] if h["kind"] == "check"]
    assert B.within(checks[-1]["table"], 0.05)
    assert st["after"]["games"] == 400


def test_a_balanced_map_is_checked_and_not_changed(tmp_path):
    fp = FakePlay(lambda m: 0.5)
    res = B.run(settings(), small_map(LOW), tmp_path, fp, say=lambda s: None)
    assert res.state["stopped"] == "balanced" and res.state["step"] == 0 and not res.state["changes"]
    assert res.final == small_map(LOW)


def test_the_budget_stops_the_search(tmp_path):
    t = [0.0]

    def clock():
        t[0] += 50.0          # every reading of the clock: 50 s later
        return t[0]

    res = B.run(settings(budget_minutes=1), small_map(LOW), tmp_path, FakePlay(p_by_height), say=lambda s: None,
                clock=clock)
    assert res.state["stopped"] == "budget"
    assert res.state["step"] <= 1
    res2 = B.run(settings(budget_minutes=0, max_steps=5), small_map(LOW), tmp_path / "b", FakePlay(p_by_height),
                 say=lambda s: None)
    assert res2.state["stopped"] == "budget" and res2.state["step"] == 0
    res3 = B.run(settings(max_steps=0), small_map(LOW), tmp_path / "c", FakePlay(p_by_height), say=lambda s: None)
    assert res3.state["stopped"] == "steps"


def test_a_locked_piece_never_moves(tmp_path):
    start = small_map(LOW + [("crate-pile", (12, 12), 0)], locked={2})
    locked = [p for p in start.pieces if p.locked]
    assert locked
    res = B.run(settings(max_steps=6), start, tmp_path, FakePlay(p_by_height), say=lambda s: None)
    assert res.state["changes"]
    final = {p.id: p for p in res.final.pieces}
    for p in locked:
        assert final[p.id] == p
    # and no candidate ever played moved it either
    for f in (tmp_path / "search").glob("step-*/c*.json"):
        m = MapFile.model_validate_json(f.read_text())
        got = {p.id: p for p in m.pieces}
        assert all(got[p.id] == p for p in locked)


def test_pieces_that_break_a_rule_at_the_start_stay_and_the_rest_move(tmp_path):
    """A designer's map is taken as it is: a crate pile standing in zone 2 is held where it is
    (not refused, not moved), the others move, and the balanced map carries no lock of ours."""
    # (the pile in zone 1 also breaks the gaps from the edge: the map keeps no gaps, so none are asked)
    start = small_map(LOW + [("crate-pile", (12, 16.2), 0)])
    sunk = {p.id for p in start.pieces if E.selection_centre(start, [("piece", p.id)])[1] > 15}
    assert sunk
    problem, held = B.make_problem(start, "doubles")
    assert set(held) == sunk

    def p_free(m):
        kept = m.model_copy(update={"pieces": [q for q in m.pieces if q.id not in sunk]})
        return p_by_height(kept)

    res = B.run(settings(max_steps=4), start, tmp_path, FakePlay(p_free), say=lambda s: None)
    assert res.state["held"] == held and res.state["changes"]
    final = {p.id: p for p in res.final.pieces}
    assert all(final[i] == next(p for p in start.pieces if p.id == i) for i in sunk)
    assert not any(p.locked for p in res.final.pieces)


def test_symmetry_stays_exact(tmp_path):
    # point symmetry: each crate pile has its twin turned about the table's centre
    start = small_map([("crate-pile", (6, 6), 0), ("crate-pile", (18, 12), 180)])
    assert B.symmetry_of(start) == "point"
    def p_by_x(m):       # zone 1's chance from where the lower pile stands across the table
        xs = [E.selection_centre(m, [("piece", p.id)])[0] for p in m.pieces
              if E.selection_centre(m, [("piece", p.id)])[1] < 9]
        x = sum(xs) / len(xs)
        return 0.5 + math.copysign(min(0.45, 0.1 * max(0.0, abs(x - 12) - 1.5)), x - 12)

    assert p_by_x(start) < 0.2
    res = B.run(settings(max_steps=5), start, tmp_path, FakePlay(p_by_x), say=lambda s: None)
    assert res.state["symmetry"] == "point"
    assert res.state["step"] >= 1
    for f in [*(tmp_path / "search").glob("step-*/c*.json")]:
        m = MapFile.model_validate_json(f.read_text())
        assert E.unmatched(m, "point") == [], f
    assert E.unmatched(res.final, "point") == []


def test_confirmation_seeds_are_disjoint_from_every_search_seed(tmp_path):
    fp = FakePlay(p_by_height)
    B.run(settings(), small_map(LOW), tmp_path, fp, say=lambda s: None)
    confirm = [s for f, s in fp.seeds if f.endswith("after")]
    search = set().union(*(s for f, s in fp.seeds if not f.endswith("after")))
    assert len(confirm) == 1 and len(confirm[0]) == 200 and search
    assert not (confirm[0] & search)


def test_confirm_seed_steps_past_a_collision():
    # game_seed is linear mod 2^31: this seed's block 0 is block 5 of the search seed
    inv = pow(1_000_003, -1, 2 ** 31)
    s = 3
    collide = (s + 5 * 7919 * inv) % 2 ** 31
    assert game_seed(collide, 0) == game_seed(s, 5)
    assert B.search_seeds(collide, 10) & B.search_seeds(s, 10)
    got = B.confirm_seed(s, 10, 10, first=collide)
    assert got != collide
    assert not (B.search_seeds(got, 10) & B.search_seeds(s, 10))
    assert not (B.search_seeds(B.confirm_seed(s, 10, 10), 10) & B.search_seeds(s, 10))


def test_resume_gives_the_same_result_as_an_uninterrupted_run(tmp_path):
    whole = B.run(settings(), small_map(LOW), tmp_path / "whole", FakePlay(p_by_height), say=lambda s: None)
    for n in (2, 4):
        out = tmp_path / f"cut{n}"
        with pytest.raises(KeyboardInterrupt):
            B.run(settings(), small_map(LOW), out, FakePlay(p_by_height, interrupt_at=n), say=lambda s: None)
        with pytest.raises(B.BalanceError, match="--resume"):
            B.run(settings(), small_map(LOW), out, FakePlay(p_by_height), say=lambda s: None)
        again = B.run(settings(), small_map(LOW), out, FakePlay(p_by_height), resume=True, say=lambda s: None)
        assert again.final == whole.final
        strip = lambda hs: [{k: v for k, v in h.items()} for h in hs]  # noqa: E731
        assert strip(again.state["history"]) == strip(whole.state["history"])
        assert again.state["edits"] == whole.state["edits"]


def test_resume_may_ask_a_larger_check_and_confirmation(tmp_path):
    fp = FakePlay(p_by_height)
    with pytest.raises(KeyboardInterrupt):
        B.run(settings(check_games=400), small_map(LOW), tmp_path, FakePlay(p_by_height, interrupt_at=3),
              say=lambda s: None)
    res = B.run(settings(check_games=3000, confirm_games=1200), small_map(LOW), tmp_path, fp, resume=True,
                say=lambda s: None)
    assert res.state["settings"]["check_games"] == 3000 and res.state["after"]["games"] == 1200
    confirm = [s for f, s in fp.seeds if f.endswith("after")][0]
    search = set().union(*(s for f, s in fp.seeds if not f.endswith("after")))
    assert len(confirm) == 600 and not (confirm & search)


def test_resume_refuses_other_settings(tmp_path):
    B.run(settings(max_steps=1), small_map(LOW), tmp_path, FakePlay(p_by_height), say=lambda s: None)
    with pytest.raises(B.BalanceError, match="seed"):
        B.run(settings(max_steps=1, seed=9), small_map(LOW), tmp_path, FakePlay(p_by_height), resume=True,
              say=lambda s: None)


def test_edits_replay_from_their_json_to_the_balanced_map(tmp_path):
    start = small_map(LOW)
    res = B.run(settings(), start, tmp_path, FakePlay(p_by_height), say=lambda s: None)
    m = start
    for d in json.loads(json.dumps(res.state["edits"])):
        m = B.edit_from_json(d).apply(m)
    assert m == res.final
    from engine.workshop.balance_report import write_outputs

    files = write_outputs(tmp_path, res)
    assert E.save_problems(MapFile.model_validate_json(files["map"].read_text())) == []
    ok = B.within(res.state["after"], 0.05)       # balanced only when the interval lies inside 45-55
    assert ("**Verdict: not balanced**" in files["summary"].read_text()) != ok
    for after in ({"share": 0.5, "low": 0.47, "high": 0.53, "games": 800}, {"share": 0.53, "low": 0.47, "high": 0.59, "games": 800}):
        res.state["after"] = after       # the summary's two verdicts
        text = write_outputs(tmp_path, res)["summary"].read_text()
        assert ("**Verdict: balanced**" in text) == (after["high"] <= 0.55)
    text = files["changes"].read_text()
    assert "moved" in text or "turned" in text or "placed" in text


# --- the command -------------------------------------------------------------------------

def _cli(args):
    from game.cli import main

    return main(["balance", *args])


@pytest.mark.parametrize("args, words", [
    (["--ruleset", "nope", "--map", "field"], "nope"),
    (["--ruleset", "doubles", "--map", "no-such-map"], "no-such-map"),
    (["--ruleset", "doubles", "--map", "field", "--confirm", "100"], "400"),
    (["--ruleset", "doubles", "--map", "field", "--budget", "-1"], "minutes"),
    (["--ruleset", "doubles", "--map", "field", "--agents", "easy,nobody"], "nobody"),
    (["--ruleset", "doubles", "--map", "field", "--rosters", "x,y"], "roster"),
    (["--ruleset", "doubles", "--map", "outpost"], "made for counterblast"),
    (["--ruleset", "doubles", "--map", "field", "--keep-z", "-1"], "keep-z"),
])
def test_bad_arguments_exit_2_with_a_message(args, words, capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        code = _cli([*args, "--out", str(tmp_path / "o")])
        raise SystemExit(code)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert words.lower() in err.lower()
    assert "Traceback" not in err


def test_an_occupied_out_folder_needs_resume(capsys, tmp_path):
    (tmp_path / "x").write_text("")
    assert _cli(["--ruleset", "doubles", "--map", "field", "--out", str(tmp_path)]) == 2
    assert "--resume" in capsys.readouterr().err


# --- one small real run ----------------------------------------------------------------------

def test_a_small_real_run_end_to_end(tmp_path):
    """Doubles on the field, easy v easy: the start measured, one step of two candidates, the
    confirmation; the outputs written and the map valid."""
    pytest.importorskip("distributed")
    from engine.data.maps import load_named_map
    from engine.workshop.balance_report import write_outputs

    s = B.Settings("doubles", "field", ("ash_skulls", "bone_hunters"), ("easy", "easy"), seed=2, budget_minutes=100,
                   search_games=4, check_games=8, confirm_games=4, proposals=3, tests=2, max_steps=1)
    res = B.run(s, load_named_map("field"), tmp_path, B.real_play(1), say=lambda s: None)
    assert res.state["phase"] == "done"
    assert (tmp_path / "before" / "report.md").exists() and (tmp_path / "after" / "report.md").exists()
    search = {r["seed"] for f in (tmp_path / "search").glob("*/games.jsonl") for r in map(json.loads, f.read_text().splitlines())}
    search |= {json.loads(x)["seed"] for x in (tmp_path / "before" / "games.jsonl").read_text().splitlines()}
    after = {json.loads(x)["seed"] for x in (tmp_path / "after" / "games.jsonl").read_text().splitlines()}
    assert after and not (after & search)
    files = write_outputs(tmp_path, res)
    from game.cli import main

    assert main(["validate", str(files["map"])]) == 0
