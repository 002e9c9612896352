"""The default posses stay fair to each other (issue 32): the worst pairing of the measured table,
replayed on fixed seeds.

docs/rules/frontier.md, "Default forces", gives the table this test is cut from. easy has no clock,
so the games below are exactly the first games of that measured run (same seed, same plan):
a change to a posse file, to the rules or to the easy agent changes them, and a change that makes
the pairing lopsided again fails the bounds.
"""
import pytest

from engine.workshop.experiment import Config, jobs, run_game
from engine.workshop.stats import summarize

# The worst pairing of the final table (docs/rules/frontier.md, "Default forces", fourth round):
# Outlawmen v Sheriffs on the field, the Outlawmen 38% [33-43] over 400 games (data/experiments/
# balance/frontier-easy/outlawmen--sheriffs), outside 45-55%: this test holds it where it was
# measured, so a change that moves it shows. It replays the first 160 games of that map (80 seeds,
# each posse from each zone), which alone give 40.9% [33.5-48.8]; the bounds are that interval:
# outside it the pairing moved by more than these games' own luck, and the table must be measured
# again and this test re-cut. (Until the fourth round the worst was the Bootleggers v the
# Outlawmen on the field: 14%, then 28%, now 42%.)
# Re-cut 2026-12-05 for the deployment phase (issue 45): the posses now place themselves
# (`deployment: alternate`, the default), and the same 160 games give the Outlawmen 57.3%
# [50.6-63.8] (was 40.9% with the old fixed line): placement moved this pairing by 16 points
# (docs/rules/deployment.md, "What the deployment changed"). The bounds are the new interval.
# Re-cut 2026-12-06 for the Outlawmen's Right Hand with a revolver, not a shotgun (the posses
# balanced again under the deployment: docs/rules/frontier.md, "Default forces"): the same 160
# games give the Outlawmen 53.1% [45.5-60.5]; the bounds are the new interval. (The pairing is
# kept so that the change shows; the table's worst cells are now in the town.)
# With easy taking each mechanic where it gains (issue 61, item 2, 2026-12-07) the same 160 games give
# the Outlawmen 54.0% [46.3-61.5]: inside the bounds. (Its first movement order, the model whose move
# gains most first, gave 33.0% [26.4-40.3]: measured weaker against the old easy and not kept.)
WORST = ("outlawmen", "sheriffs")
MAP = "field"
GAMES = 160
LOW, HIGH = 0.455, 0.605


@pytest.mark.long
def test_the_worst_default_pairing_stays_within_its_bounds():
    cfg = Config("frontier", (MAP,), GAMES, "easy", "easy", rosters=WORST, seed=1)
    recs = [run_game(j) for j in jobs(cfg)]
    s = summarize(recs, cfg.to_json())[MAP]
    assert s["errors"] == 0 and s["distinct_games"] == GAMES
    # each roster played from each zone on every seed (the crossed design)
    assert sum(r["rosters"]["1"] == WORST[0] for r in recs) == GAMES // 2
    share = s["roster"]["share"]
    assert LOW <= share <= HIGH, (share, s["roster"])
