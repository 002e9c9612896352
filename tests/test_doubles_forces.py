"""The default Doubles warbands stay fair to each other (issue 32; ``docs/rules/doubles.md``,
"The default warbands, balanced"). A ``long`` run: the worst pairing of the balance table, played
crossed (each warband from each zone on one seed, ``engine.simulate.plan_game``), ``easy`` v
``easy``, on a fixed seed set."""
from __future__ import annotations

import pytest

from engine.data.maps import load_named_map
from engine.simulate import plan_game, play_planned

PAIR = ("ash_skulls", "obsidian_clan")      # the figure furthest from even in the table
MAP = "prehistoric"
BLOCKS = 150                                # 300 games, seeds as ``experiment --seed 7``
SEED = 7
# measured 40% [35-45] (400 games, seed 1). 300 games have a standard error of about 2.8 points:
# the test fails when the pairing falls about 3 of them below that (a change that made the Ash
# Skulls weaker still) or swings past even by as much (a change that overshot)
LOW, HIGH = 0.31, 0.59


@pytest.mark.long
def test_the_worst_default_pairing_stays_within_its_bounds():
    mf = load_named_map(MAP)
    recs = [play_planned("doubles", mf, plan_game(i, SEED, PAIR, ("easy", "easy")))[0] for i in range(2 * BLOCKS)]
    assert not [r["error"] for r in recs if r["error"]]
    assert len({r["final_hash"] for r in recs}) == len(recs)          # no game played twice
    zones = {(r["block"], r["rosters"]["1"]) for r in recs}
    assert len(zones) == len(recs)                                     # each warband from each zone
    decisive = [r for r in recs if r["winner"] is not None]
    share = sum(r["winner_roster"] == PAIR[0] for r in decisive) / len(decisive)
    assert LOW <= share <= HIGH, f"{PAIR[0]} won {share:.0%} of {len(decisive)} decisive games against {PAIR[1]}"
