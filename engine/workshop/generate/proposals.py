"""The layout generator's proposals: the random edits a chain tries (the package note:
``__init__.py``). An add, remove, move, turn or swap of an instance (``propose``, ``propose_add``),
aimed across a lane a target finds too long (``propose_block``), each checked as the editor's edit
stack checks it, with the counts and gaps first (``try_edit``); and the greedy start that fills
an empty table before the tempering (``_fill``).
"""
from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from engine.data.maps import MapFile

from .. import edits as E
from ..catalog import place_template
from ..constraints import count_problems, geometry_problems, instance_of
from ..reachability import reach_problems

if TYPE_CHECKING:
    from engine.table import Table

from .problem import _PARTS, Candidate, Problem, State, _counts, _instances, _score, coarse_figures

TURNS = (15, -15, 45, -45, 90, -90, 180)
BLOCK_SHARE = 0.5     # of the adds and moves, while a lane target is missed: aimed across the lane
PLACE_TRIES = 8           # spots (or shifts) tried for one add, swap or move before giving up
FILL_PATIENCE = 12        # the greedy start stops after this many adds in a row that do not help


def _snap(v: float, grid: float) -> float:
    return round(v / grid) * grid


def _place(problem: Problem, m: MapFile, tid: str, at, degrees: float) -> tuple:
    t, unit = problem.template(tid)
    pieces = place_template(t, unit, m, at, degrees)
    if len(pieces) == 1 and pieces[0].group is None:       # every instance is a group: gaps and moves by group
        grp = E.new_id({p.group for p in m.pieces if p.group}, tid)
        pieces = (pieces[0].model_copy(update={"group": grp}),)
    return pieces


def _random_spot(problem: Problem, m: MapFile, rng: random.Random) -> tuple[float, float]:
    g = problem.grid
    e = problem.rules.edge_gap
    return (_snap(rng.uniform(e, m.width - e), g), _snap(rng.uniform(e, m.height - e), g))


def _random_turn(rng: random.Random) -> float:
    return float(rng.choice((0, 90, 180, 270)) if rng.random() < 0.5 else 15 * rng.randrange(24))


def _self_symmetric(m: MapFile, ids, mode: str | None) -> bool:
    """Whether an instance is its own mirror image (it then moves only along the mirror line)."""
    if mode is None:
        return False
    own = set(ids)
    c = E.counterpart(m, ("piece", ids[0]), mode)
    return c is not None and c[1] in own


def try_edit(problem: Problem, state: State, op: str, edit: E.Edit, template: str | None = None
             ) -> tuple[Candidate | None, str]:
    """``edit`` expanded with its twins, the counts, gaps and zones, then checked as the editor's
    stack does (locks, schema): (the candidate, "") or (None, why it is refused). The stack's
    check, a validation of the whole map, comes last: most tries fail on a gap, and it cost half
    of all the tries' time (a try passes only when every check does, so the order changes no
    result, only which reason a refusal is counted under)."""
    stack = E.EditStack(state.map, symmetry=problem.symmetry)
    try:
        full = stack.expand(edit)
        new = full.apply(state.map)
    except E.EditRefused as err:
        return None, f"edit: {err}"
    tmpl = dict(state.templates)
    before = {instance_of(p) for p in state.map.pieces}
    after = {instance_of(p) for p in new.pieces}
    for g in before - after:
        tmpl.pop(g, None)
    if template is not None:            # every new instance (the placed one, its twin) is of it
        for g in after - before:
            tmpl[g] = template
    bad = count_problems(_counts(new, tmpl), problem.bounds)
    if bad:
        return None, "counts: " + bad[0]
    bad = geometry_problems(new, problem.rules, tmpl, _PARTS, limit=1)
    if bad:
        return None, "gaps: " + bad[0]
    try:
        new = stack.check(full)
    except E.EditRefused as err:
        return None, f"edit: {err}"
    return Candidate(op, full, new, tuple(sorted(tmpl.items()))), ""


def propose(problem: Problem, state: State, rng: random.Random) -> tuple[Candidate | None, str]:
    """A random edit of the current layout that passes the cheap checks: an add, swap or move
    tries up to ``PLACE_TRIES`` spots or shifts. (None, why) when none was found."""
    m = state.map
    tmpl = state.template_of()
    counts = _counts(m, tmpl)
    insts = _instances(m)
    addable = [e for e in problem.entries if counts.get(e.template, 0) < e.max]
    removable = [g for g in insts if g in tmpl and counts.get(tmpl[g], 0) > problem.bounds[tmpl[g]][0]]
    lean = _cover_lean(problem, state)       # short of a cover target: add more; over it: remove more
    ops = [(op, w * (lean if op == "add" else 1 / lean if op == "remove" else 1.0)) for op, w in problem.ops
           if (op == "add" and addable) or (op == "remove" and removable)
           or (op in ("move", "rotate") and insts) or (op == "swap" and addable and insts)]
    if not ops:
        return None, "no move"
    op = rng.choices([o for o, _ in ops], weights=[w for _, w in ops])[0]
    g = problem.grid
    why = "no move"
    lane = _lane_to_block(problem, state) if op in ("add", "move") else None
    if lane is not None and rng.random() < BLOCK_SHARE:
        cand, why = propose_block(problem, state, rng, op, addable, insts, lane)
        if cand is not None:
            return cand, ""
    if op == "add":
        return propose_add(problem, state, rng)
    if op == "remove":
        grp = rng.choice(sorted(removable))
        return try_edit(problem, state, op, E.DeletePieces(tuple(insts[grp])))
    grp = rng.choice(sorted(insts))
    ids = insts[grp]
    keys = tuple(("piece", i) for i in ids)
    fixed = _self_symmetric(m, ids, problem.symmetry)
    unit = 1.0 if m.unit == "in" else 2.54 if m.unit == "cm" else 25.4
    if op == "move":
        big = rng.random() < 0.4
        for _ in range(PLACE_TRIES):
            sigma = (8.0 if big else 2.0) * unit
            dx, dy = _snap(rng.gauss(0, sigma), g), _snap(rng.gauss(0, sigma), g)
            if fixed and problem.symmetry is not None:   # fixed implies a symmetry
                dx, dy = E.project_move(problem.symmetry, dx, dy)
            if dx == 0 and dy == 0:
                continue
            cand, why = try_edit(problem, state, op, E.Move(keys, dx, dy))
            if cand:
                return cand, ""
        return None, why
    if op == "rotate":
        if fixed:
            return None, "no move"
        return try_edit(problem, state, op, E.Rotate(keys, float(rng.choice(TURNS))))
    # swap: another template where this one stands
    old = tmpl.get(grp)
    choices = [e for e in addable if e.template != old]
    if not choices or fixed:
        return None, "no move"
    e = rng.choices(choices, weights=[x.weight for x in choices])[0]
    x0, y0, x1, y1 = E.selection_bounds(m, keys)
    for _ in range(PLACE_TRIES // 2):
        pieces = _place(problem, m, e.template, (_snap((x0 + x1) / 2, g), _snap((y0 + y1) / 2, g)), _random_turn(rng))
        edit = E.Compound((E.DeletePieces(tuple(ids)), E.AddPieces(pieces)), f"swap {grp} for {e.template}")
        cand, why = try_edit(problem, state, op, edit, e.template)
        if cand:
            return cand, ""
    return None, why


def _state(problem: Problem, cand: Candidate, prev: State, bias: dict | None) -> tuple[State, Table]:
    table, figs = coarse_figures(problem, cand.map)
    return State(cand.map, cand.templates, prev.edits + (cand.edit,), figs,
                 _score(figs, problem, bias)), table


def _fill(problem: Problem, st: State, rng: random.Random, patience: int = FILL_PATIENCE) -> State:
    """Greedy construction before the tempering: place random templates while each one lowers
    the score, until ``patience`` tries in a row do not (an empty table is far from any target;
    the chains then start from a table worth refining)."""
    misses = 0
    while misses < patience:
        cand, _ = propose_add(problem, st, rng)
        if cand is None:
            misses += 1
            continue
        nxt, table = _state(problem, cand, st, None)
        if nxt.score < st.score and not reach_problems(table, problem.base_mm, limit=1):
            st, misses = nxt, 0
        else:
            misses += 1
    return st


def _cover_lean(problem: Problem, state: State) -> float:
    cover = state.figures.get("cover")
    for t in problem.targets:
        if t.metric == "cover" and cover is not None:
            lo = t.value - t.tolerance() if t.op in ("=", ">=") else -math.inf
            hi = t.value + t.tolerance() if t.op in ("=", "<=") else math.inf
            if cover < lo:
                return 3.0
            if cover > hi:
                return 1 / 3.0
    return 1.0


def _lane_to_block(problem: Problem, state: State) -> tuple | None:
    """Where the lane a target finds too long runs (x0, y0, x1, y1), or None."""
    for t in problem.targets:
        if t.metric in ("lane", "lane_share") and t.op != ">=":
            v, at = state.figures.get(t.metric), state.figures.get(t.metric + "_at")
            if at is not None and v is not None and v > t.value + t.tolerance():
                return at
    return None


def propose_block(problem: Problem, state: State, rng: random.Random, op: str, addable, insts, lane: tuple
                  ) -> tuple[Candidate | None, str]:
    """Aim at the longest zone-to-zone lane when a target says it is too long: a template placed
    (``add``), or an instance moved (``move``), across it somewhere along its middle."""
    x0, y0, x1, y1 = lane
    g = problem.grid
    why = "no move"
    for _ in range(PLACE_TRIES // 2):
        t = rng.uniform(0.25, 0.75)
        at = (_snap(x0 + t * (x1 - x0), g), _snap(y0 + t * (y1 - y0), g))
        if op == "add" and addable:
            e = rng.choices(addable, weights=[x.weight for x in addable])[0]
            pieces = _place(problem, state.map, e.template, at, _random_turn(rng))
            cand, why = try_edit(problem, state, "add", E.AddPieces(pieces), e.template)
        elif insts:
            grp = rng.choice(sorted(insts))
            keys = tuple(("piece", i) for i in insts[grp])
            if _self_symmetric(state.map, insts[grp], problem.symmetry):
                continue
            bx0, by0, bx1, by1 = E.selection_bounds(state.map, keys)
            dx, dy = _snap(at[0] - (bx0 + bx1) / 2, g), _snap(at[1] - (by0 + by1) / 2, g)
            if dx == 0 and dy == 0:
                continue
            cand, why = try_edit(problem, state, "move", E.Move(keys, dx, dy))
        else:
            return None, why
        if cand:
            return cand, ""
    return None, why


def propose_add(problem: Problem, state: State, rng: random.Random) -> tuple[Candidate | None, str]:
    counts = _counts(state.map, state.template_of())
    addable = [e for e in problem.entries if counts.get(e.template, 0) < e.max]
    if not addable:
        return None, "no move"
    e = rng.choices(addable, weights=[x.weight for x in addable])[0]
    why = "no move"
    for _ in range(PLACE_TRIES):
        pieces = _place(problem, state.map, e.template, _random_spot(problem, state.map, rng), _random_turn(rng))
        cand, why = try_edit(problem, state, "add", E.AddPieces(pieces), e.template)
        if cand:
            return cand, ""
    return None, why
