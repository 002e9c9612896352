"""The fairness self-test (engine/workshop/selftest.py, docs/workshop.md "The fairness
self-test"): family-wise intervals so a fair run passes, a biased table still fails, and a real
run through the command a designer types."""
import json
import math
import subprocess
import sys

import pytest

from engine.workshop.selftest import TableResult, finish, report
from engine.workshop.stats import Z95, _effect, _share_effect, cluster_share, family_z, widened


def _logit(p):
    return math.log(p / (1 - p))


def _result(share, se, label="t"):
    eff = _effect(_logit(share), se, half=False)
    return TableResult("doubles", "automatic", label, "point", 400, 396, eff["share"], eff["low"], eff["high"], 0,
                       effect=eff)


def test_family_z_is_bonferroni():
    assert family_z(1) == pytest.approx(Z95)
    # 18 tables: each at 1 - 0.05/18, two-sided; the normal quantile of 1 - 0.001389 by hand is 2.9913
    assert family_z(18) == pytest.approx(2.9913, abs=1e-3)
    assert family_z(6) == pytest.approx(2.6383, abs=1e-3)


def test_widened_at_z95_is_the_experiments_interval():
    eff = _effect(0.24, 0.1, half=False)
    assert widened(eff, Z95) == pytest.approx((eff["low"], eff["high"]))
    sh = _share_effect(cluster_share([3, 2, 4, 1, 3], [4, 4, 4, 4, 4]))
    assert widened(sh, Z95) == pytest.approx((sh["low"], sh["high"]))
    lo, hi = widened(sh, 3.0)
    assert lo < sh["low"] and hi > sh["high"]


def test_one_table_of_eighteen_just_outside_95_percent_is_not_a_verdict_but_the_issues_62_is():
    # 56% with the standard error 400 decisive games give (about 0.1 on the logit): the 95%
    # interval misses 50%, and among 18 fair tables one such miss is expected more often than not
    fair = [_result(0.5, 0.1, f"t{i}") for i in range(17)] + [_result(0.56, 0.1, "lucky")]
    assert not (fair[-1].low <= 0.5 <= fair[-1].high)
    z = finish(fair)
    assert z == pytest.approx(family_z(18))
    assert all(r.holds_half for r in fair)
    text = report(fair, [], 400, 1, z)
    assert "**PASS**" in text and "z = 2.99" in text
    # the issue's measurement, 62% [57-68] of zone 1 on a point-symmetric table, still fails
    biased = [_result(0.5, 0.1, f"t{i}") for i in range(17)] + [_result(0.62, 0.1, "take-and-hold")]
    finish(biased)
    assert not biased[-1].holds_half
    assert "**FAIL**" in report(biased, [], 400, 1, family_z(18))


def test_a_table_without_an_estimate_does_not_pass():
    r = TableResult("doubles", "automatic", "t", "point", 0, 0, None, None, None, 0, effect=None)
    finish([r])
    assert not r.holds_half


def test_a_real_self_test_run_writes_its_report_and_resumes(tmp_path):
    out = tmp_path / "st"
    cmd = [sys.executable, "-m", "game.cli", "experiment", "--self-test", "--ruleset", "doubles", "--tables", "1",
           "--deployment", "automatic", "--games", "8", "--workers", "1", "--no-progress", "--out", str(out)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert run.returncode in (0, 3), run.stderr
    assert "Traceback" not in run.stderr
    data = json.loads((out / "selftest.json").read_text())
    (row,) = data["results"]
    assert row["ruleset"] == "doubles" and row["mode"] == "automatic" and row["table"] == "prehistoric-mirror-y"
    assert row["games"] == 8 and row["errors"] == 0
    assert data["family_z"] == pytest.approx(Z95, abs=1e-3)
    assert (row["holds_half"] is True) == (run.returncode == 0)
    assert "prehistoric-mirror-y" in (out / "report.md").read_text()
    # the same command again plays nothing new and gives the same figures
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert again.returncode == run.returncode
    assert json.loads((out / "selftest.json").read_text())["results"] == data["results"]
