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
# Re-cut 2026-12-07 for easy taking each mechanic where it gains (issue 61, item 2, docs/ai.md): the
# same 160 games give the Outlawmen 33.0% [26.4-40.3]. The agent moved this pairing by 20 points:
# with its movement order switched back to the roster's 45.2% [37.6-53.0], with its attacks priced
# the old way 39.3% [32.0-47.2], with the priority hand off 32.2% (bench switches, the same games).
# The default posses are to be balanced again under this easy (docs/rules/frontier.md, "Default
# forces"); the bounds are the new interval, so a change that moves the pairing further shows.
WORST = ("outlawmen", "sheriffs")
MAP = "field"
GAMES = 160
LOW, HIGH = 0.264, 0.404


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
