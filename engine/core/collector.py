"""Fewer runs of Python's cyclic garbage collector while games are played.

A game allocates many short-lived containers (options, views, choices, copies of states), and
with the default thresholds (700, 10, 10) the collector's young-generation passes, and the full
passes they trigger over the long-lived tables, maps and data, cost several per cent of a played
game (issue 28: 3-8% of easy games and searched decisions, measured with the thresholds below).
Raising the first threshold lets it run about thirty times less often; nothing it collects is
lost (cycles are still collected, later), and nothing a game computes depends on when it runs.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager

THRESHOLDS = (20_000, 20, 20)


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
