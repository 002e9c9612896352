"""The default crews stay fair to each other (issue 32): the pairing that measured furthest from
even, played crossed (each crew from each zone on one seed, easy v easy) on a fixed seed set,
must keep its share inside bounds taken from the measured interval in docs/rules/counterblast.md
("Default forces"). Seed: 003_52d4831de0a47706.txt (Counterblast), "Assemble Crew (500 points
is a standard game)"."""
from pathlib import Path

import pytest

from engine.core import Game, Setup
from engine.data.maps import load_map
from engine.simulate import GamePlan, game_record, game_seed, make_agents, play
from engine.workshop.stats import summarize

# the checkout's own maps (an installed skirmish_maps package may be an older copy)
MAPS = Path(__file__).resolve().parents[1] / "maps"


def crossed(a: str, b: str, map_id: str, blocks: int, seed: int = 1) -> tuple[dict, list[dict]]:
    """``blocks`` seeds, each played twice with the crews swapped between the zones: the games
    ``bench/balance.py play`` and ``skirmish experiment --rosters a,b`` play as blocks 0..blocks-1;
    returns the map's summary (roster effect of ``a`` with its 95% interval) and the records."""
    mf = load_map(MAPS / f"{map_id}.json")
    recs = []
    for blk in range(blocks):
        s = game_seed(seed, blk)
        for k, rs in enumerate(((a, b), (b, a))):
            g = Game(Setup("counterblast", mf, rs, {}, s))
            d = g.pending()
            first = None if d is None else d.player
            rec = game_record(GamePlan(2 * blk + k, blk, s, rs, ("easy", "easy")), g,
                              play(g, make_agents(s, ("easy", "easy"))), first)
            rec["map"] = map_id
            recs.append(rec)
    return summarize(recs, {"rosters": [a, b], "p1": "easy", "p2": "easy"})[map_id], recs


def test_crossed_plays_each_seed_with_the_crews_swapped():
    s, recs = crossed("dustjaw-raiders", "iron-choir", "outpost", 1)
    assert [r["rosters"] for r in recs] == [{"1": "dustjaw-raiders", "2": "iron-choir"},
                                            {"1": "iron-choir", "2": "dustjaw-raiders"}]
    assert recs[0]["seed"] == recs[1]["seed"] == game_seed(1, 0)
    assert s["distinct_games"] == 2 and s["blocks"] == 1


# The worst pairing measured (docs/rules/counterblast.md, section 12, fifth table): the Iron Choir
# v Reach Rangers on Redrock Quarry, 70.5% [65-75] for the Choir over 400 games on seed 3 (200
# seeds), with the Overseer Unit at Defense 4. Its first 100 seeds, played here (the experiment's
# blocks 0-99, the same games to the same hashes), gave 67.3% with the 95% interval [59.8%,
# 73.9%]: those are the bounds (with the Overseer at Defense 5: 71.0% [63.6%, 77.5%]). The seeds are fixed, so the share moves only when
# the rules, the easy agent or the crews change; outside the bounds fails.
# Re-cut 2026-12-05 for the deployment phase (issue 45): the crews now place themselves
# (`deployment: alternate`, the default), and the same 100 seeds give the Choir 55.4%
# [47.2-63.3] (was 67.3%): placement moved it by 12 points (docs/rules/deployment.md, "What the
# deployment changed"). The bounds are the new interval.
# Re-cut 2026-12-07 for the easy agent taking every Counterblast mechanic where it gains (issue 61,
# item 2: group activations, charges, Hack to Mark, splits, Throw, team actions, psi, heals, Prone,
# Jump; docs/ai.md): the same 100 seeds give the Choir 43.1% [36.3-50.1] (was 55.4%): the crews'
# balance measured with easy moved by 12 points with the agent, toward the Reach Rangers (which of
# the new mechanics moved it was not measured). The bounds are the new interval.
WORST = ("iron-choir", "reach-rangers", "quarry", 100, 0.363, 0.501)
SEED = 3


@pytest.mark.long
def test_the_worst_default_pairing_stays_within_its_bounds_long():
    a, b, map_id, blocks, low, high = WORST
    s, _ = crossed(a, b, map_id, blocks, SEED)
    share = s["roster"]["share"]
    assert low <= share <= high, (a, b, map_id, s["roster"])
