"""Fewer runs of Python's cyclic garbage collector while games are played.

A game allocates many short-lived containers (options, views, choices, copies of states), and
with the default thresholds (700, 10, 10) the collector's young-generation passes, and the full
passes they trigger over the long-lived tables, maps and data, cost several per cent of a played
game. Raising the first threshold to 5,000 lets it run about seven times less often; nothing it
collects is lost (cycles are still collected, later), and nothing a game computes depends on when
it runs. Measured (issue 28, ``bench/speed.py``'s loop in one process, single runs): 20,000 for
the first threshold and 20 for the others helped Frontier but made Doubles' easy games played
after the other rulesets' about 20% slower (a young pass over 20,000 objects, and rarer but larger
older passes); 5,000 with the others left at 10 was the best of the six settings tried for every
ruleset (against the defaults, three single runs: easy games 0.97-1.23x, searched decisions
1.0-1.16x).
"""
from __future__ import annotations

import gc
from contextlib import contextmanager

THRESHOLDS = (5_000, 10, 10)


@contextmanager
def fewer_collections():
    """The collector's thresholds raised to ``THRESHOLDS`` inside the block (never lowered: a
    caller that raised them further keeps its own), and put back as they were afterwards."""
    before = gc.get_threshold()
    raised = tuple(max(a, b) for a, b in zip(before, THRESHOLDS))
    gc.set_threshold(*raised)
    try:
        yield
    finally:
        gc.set_threshold(*before)
