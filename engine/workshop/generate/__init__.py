"""The layout generator: a table made to order from a catalog, a mission, a symmetry, locked
pieces and sight targets (``docs/workshop.md``, "Generating a layout").

**Moves are the editor's edit commands.** Every change the search tries is an ``engine.workshop.edits``
command: a template placed (``AddPieces``), an instance removed (``DeletePieces``), moved
(``Move``), turned (``Rotate``) or swapped for another template (a ``Compound`` of the two). It is
expanded and checked by an ``EditStack`` with the symmetry mode on, exactly as in the editor, so
symmetry twins come along in the same step and locked pieces refuse any edit that would touch
them. A generated layout is the list of accepted edits from the start map (``State.edits``),
each one described in words.

**Constraints are always held**: a candidate that breaks one is refused before it is scored, so
every state of every chain is a valid layout: the schema, the locks, the catalog's counts, the
edge and piece gaps and the zones (``constraints.py``), reachability on foot for the ruleset's
smallest base (``reachability.py``, the engine's path finder).

**Search: parallel tempering over a population of chains.** ``chains`` Metropolis chains run at
temperatures spaced geometrically from cold (keeps improving the best) to hot (crosses the
plateaus and dead ends of a constrained space: a layout crowded to its gaps can only improve by
first getting worse). After each round of ``steps`` moves per chain, neighbouring chains offer to
swap their layouts with the usual tempering acceptance, so a good layout found by a hot chain
sinks to the cold one. Carltographer uses the same scheme; a single annealing run would need a
cooling schedule tuned per table, and independent restarts waste the hot chains' finds.

**Coarse while searching, full for the result.** Chains score on a 2" grid (a sixteenth of the
work of the 1" grid); whenever the best layout of a round meets the targets on the coarse grid, it
is measured on the full grid. The full reading decides; the difference between the two readings
(running mean over the layouts checked, per side for a per-side figure) is then added to the
coarse figures, so the chains aim where the full grid will agree. The hide difference is read
from the corrected hides, never corrected itself: a correction added to |h1 - h2| could not be
undone by any layout, and the search ran all its rounds (issue 47). Every correction is clamped
so that each target stays reachable by a coarse reading the chains have shown, and a layout is
checked at least every ``CHECK_EVERY`` rounds even when none passes: a correction the coarse grid
could not satisfy stopped every later check (issue 62, ``corrections.py``).

**It stops** when the full grid says the targets are met, after ``rounds`` rounds, or when its
CPU budget (``cpu_limit``) is spent; when the targets are not met it says, per target missed,
by how much and why (``corrections.verdict``).

**Deterministic per seed.** Each chain has its own ``random.Random`` seeded from the seed and its
number, the swaps draw from the driver's own, and a round's result does not depend on where the
chains ran: in this process, or as dask tasks (``client``) on the cluster of ``experiment``.
Only ``time_limit`` and ``cpu_limit`` (stops, off by default here; the command's CPU budget
is 60 s) depend on the machine, and only when they stop a run.

**The modules.** ``problem``: what is asked and the figures a layout is scored by (the start map,
the problem, the coarse and full figures, the lanes, the score); ``proposals``: the random edits
a chain tries and the greedy start; ``search``: the chains, the temperatures, the run and its CPU
meter, and the search as data. The names the commands, the workshop and the tests use are
imported here.
"""
from __future__ import annotations

from .problem import (
    DEFAULT_COUNTS,
    DEFAULT_IN_ZONES,
    DEFAULT_TARGETS,
    LANE_SHARE,
    MISS_STEP,
    OPS,
    SYMMETRIES,
    Candidate,
    Entry,
    GenerateError,
    Problem,
    State,
    coarse_figures,
    default_rules,
    full_figures,
    lane_floors,
    layout_problems,
    make_problem,
    need_of,
    prepare,
    resolve_symmetry,
    start_map,
)
from .proposals import propose, propose_add, propose_block, try_edit
from .search import (
    CHECK_EVERY,
    Chain,
    Result,
    advance,
    chain_seed,
    history_record,
    instances,
    map_digest,
    new_chain,
    run,
    temperatures,
)

__all__ = [
    "CHECK_EVERY", "DEFAULT_COUNTS", "DEFAULT_IN_ZONES", "DEFAULT_TARGETS", "LANE_SHARE", "MISS_STEP", "OPS",
    "SYMMETRIES", "Candidate", "Chain", "Entry", "GenerateError", "Problem", "Result", "State", "advance",
    "chain_seed", "coarse_figures", "default_rules", "full_figures", "history_record", "instances", "lane_floors",
    "layout_problems", "make_problem", "map_digest", "need_of", "new_chain", "prepare", "propose", "propose_add",
    "propose_block", "resolve_symmetry", "run", "start_map", "temperatures", "try_edit",
]
