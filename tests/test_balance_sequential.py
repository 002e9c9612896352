"""The balancer's keep rule (engine/workshop/sequential.py, issue 62): Wald's SPRT on the discordant
pairs of paired games, its decisions computed by hand, and the false-keep rate on a table where no
change can help."""
from __future__ import annotations

import hashlib
import json
import math

import pytest
from test_workshop_balance import LOW, settings, small_map

from engine.simulate import plan_game
from engine.workshop import balance as B
from engine.workshop.sequential import Sprt, pairs, toward


def test_sprt_decisions_by_hand():
    t = Sprt(alpha=0.05, beta=0.2, p1=0.6)
    # bounds: ln(0.2 / 0.95) = -1.558, ln(0.8 / 0.05) = ln 16 = 2.773; a helpful pair adds
    # ln 1.2 = 0.1823, an unhelpful one ln 0.8 = -0.2231
    lo, hi = t.bounds(1)
    assert lo == pytest.approx(-1.5581, abs=1e-4) and hi == pytest.approx(2.7726, abs=1e-4)
    assert t.llr(16, 0) == pytest.approx(2.9171, abs=1e-4)
    assert t.decide(16, 0) == "keep"          # 2.917 >= 2.773
    assert t.decide(15, 0) is None            # 2.735: play on
    assert t.decide(0, 7) == "drop"           # -1.562 <= -1.558
    assert t.decide(0, 6) is None             # -1.339
    assert t.decide(30, 12) == "keep"         # 30 x 0.1823 - 12 x 0.2231 = 2.792 >= 2.773
    assert t.decide(29, 12) is None           # 2.610
    # three candidates a step: each gets alpha / 3, keep bound ln(0.8 x 60) = ln 48 = 3.871
    assert t.bounds(3)[1] == pytest.approx(math.log(48), abs=1e-9)
    assert t.decide(21, 0, tests=3) is None   # 3.829
    assert t.decide(22, 0, tests=3) == "keep"  # 4.011


def test_pairs_count_discordant_games_toward_fifty():
    inc = [{"index": i, "winner": w} for i, w in enumerate([1, 1, 1, 2, 2, None, 1])]
    cand = [{"index": i, "winner": w} for i, w in enumerate([1, 2, 2, 1, 2, 2, None])]
    # pairs 0-4 are paired and decisive; 1 and 2 went 1 -> 2 (toward 50% when zone 1 is favoured),
    # 3 went 2 -> 1
    assert pairs(inc, cand, toward_zone=2) == (2, 1, 5)
    assert pairs(inc, cand, toward_zone=1) == (1, 2, 5)
    assert toward(0.4) == 2 and toward(-0.1) == 1


def _u(*parts) -> float:
    h = hashlib.blake2b("|".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(h, "big") / 2 ** 64


class NullPlay:
    """Every map is the same ``p`` (50%: a symmetric table), but a change re-deals a share of the games (``touch``): the
    paired games differ as real ones do, and no change can bring the table nearer 50%."""

    def __init__(self, p: float = 0.5, touch: float = 0.4):
        self.p, self.touch, self.games = p, touch, 0

    def __call__(self, cfg, folder, outputs):
        from pathlib import Path

        from engine.data.maps import load_map

        recs = []
        for path, label in zip(cfg.maps, cfg.map_labels()):
            m = load_map(Path(path))
            dig = hashlib.blake2b(m.model_dump_json().encode(), digest_size=6).hexdigest()
            for i in range(cfg.planned):
                g = plan_game(i, cfg.seed, tuple(cfg.rosters), (cfg.p1, cfg.p2))
                k = i % 2
                u = _u(g.seed, k, dig) if _u(g.seed, k, "touch", dig) < self.touch else _u(g.seed, k)
                win = 1 if u < self.p else 2
                recs.append({"index": i, "block": g.block, "seed": g.seed, "map": label, "error": None,
                             "rosters": {"1": g.rosters[0], "2": g.rosters[1]},
                             "agents": {"1": g.agents[0], "2": g.agents[1]},
                             "first_player": 1 if _u(g.seed, k, "first") < 0.5 else 2, "winner": win,
                             "winner_roster": g.rosters[win - 1], "winner_agent": g.agents[win - 1],
                             "final_hash": f"{dig}-{i}-{win}", "decisions": 10, "turns": 5, "ending": "turn_limit"})
        self.games += len(recs)
        return recs


def _kept_on_a_null_table(tmp_path, p=0.5, **kw) -> tuple[int, int]:
    # near=0: never checked, so the search runs every step; each step tests 2 candidates
    s = settings(near=0.0, max_steps=10, tests=2, search_games=100, confirm_games=100, **kw)
    res = B.run(s, small_map(LOW), tmp_path, NullPlay(p), say=lambda x: None)
    tested = sum(len(h.get("tested", [])) for h in res.state["history"])
    return len(res.state["changes"]), tested


@pytest.mark.parametrize("p", [0.5, 0.3])
def test_a_table_no_change_can_help_keeps_almost_nothing(tmp_path, p):
    """10 steps of 2 candidates where every change leaves the table at ``p`` (a symmetric table
    at 50%; one at 30% that no change moves): at alpha 0.05 a step, the chance of 2 or more false
    keeps in 10 steps is under 9% (this draw is fixed: the outcomes are hashes of the seeds)."""
    kept, tested = _kept_on_a_null_table(tmp_path / "sprt", p)
    assert tested == 20
    assert kept <= 1, f"the SPRT kept {kept} of {tested} changes that cannot help"


def test_the_null_check_has_teeth(tmp_path):
    """The table at 30% under a test that keeps at the slightest lead (alpha 0.9 a step): it
    keeps changes that cannot help, so the check above would see a loose rule."""
    kept, _ = _kept_on_a_null_table(tmp_path / "loose", 0.3, alpha=0.9, beta=0.05)
    assert kept >= 2


# --- the verdict is the confirmation's (item 2) -------------------------------------------

def test_the_verdict_is_the_fresh_confirmation_and_travels_with_the_map(tmp_path):
    from test_workshop_balance import FakePlay

    from engine.workshop import confirmed as C
    from engine.workshop.balance_report import write_outputs

    # a table at 50% whatever is changed: confirmed inside 45-55 on 1,600 fresh games
    res = B.run(settings(confirm_games=1600), small_map(LOW), tmp_path / "ok", FakePlay(lambda m: 0.5),
                say=lambda x: None)
    assert res.state["verdict"] == C.verdict(res.state["after"]) == "balanced"
    files = write_outputs(tmp_path / "ok", res)
    conf = C.load(files["confirmed"])
    assert conf.verdict == "balanced" and conf.map == files["map"].name
    assert conf.experiment_seed == res.state["confirm_seed"] and conf.games == 1600
    assert "**Verdict: balanced**" in files["summary"].read_text()

    # a table no change can move stays at 30%: confirmed, and not called balanced anywhere
    res = B.run(settings(max_steps=2), small_map(LOW), tmp_path / "no", NullPlay(0.3), say=lambda x: None)
    assert res.state["verdict"] == "not balanced"
    files = write_outputs(tmp_path / "no", res)
    assert C.load(files["confirmed"]).verdict == "not balanced"
    assert "(balanced)" not in json.loads(files["map"].read_text())["name"]
    assert "**Verdict: not balanced**" in files["summary"].read_text()


def test_a_change_that_never_comes_into_play_costs_one_stage(tmp_path):
    """Every game of a candidate ends as the incumbent's (the change is never reached): no
    discordant pair, so the SPRT could never decide; the candidate stops after one stage."""
    from test_workshop_balance import FakePlay

    res = B.run(settings(max_steps=1, search_games=200, near=0.0), small_map(LOW), tmp_path, FakePlay(lambda m: 0.3),
                say=lambda x: None)
    step = next(h for h in res.state["history"] if h["kind"] == "search")
    assert step["tested"] and all(t["sprt"] == "no change" and t["games"] == 100 for t in step["tested"])
    assert step["games"] == 100 * len(step["tested"])


@pytest.mark.parametrize("plays", ["no change", "null"])
def test_a_step_reads_the_incumbents_games_once_a_stage(tmp_path, plays):
    """A search step reads the incumbent's experiment once per stage it plays, the first read
    before it writes its candidates' maps (a damaged experiment is then refused before the step
    writes: test_workshop_resume_damage), and no extra read ahead of it."""
    from pathlib import Path

    from test_workshop_balance import FakePlay

    play = FakePlay(lambda m: 0.3) if plays == "no change" else NullPlay()
    calls = []

    def counted(cfg, folder, outputs):
        calls.append(Path(folder).relative_to(tmp_path).as_posix())
        return play(cfg, folder, outputs)

    B.run(settings(max_steps=1, search_games=200, near=0.0), small_map(LOW), tmp_path, counted, say=lambda x: None)
    assert calls[0] == "before" and "after" in calls          # the start measured; the confirmation
    step = calls[1:calls.index("after")]
    stages = max(step.count(f) for f in set(step) if f.startswith("search/"))
    assert step[0] == "before" and step.count("before") == stages, step
