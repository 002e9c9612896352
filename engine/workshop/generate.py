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
"""
from __future__ import annotations

import copy
import hashlib
import math
import random
import time
from dataclasses import dataclass, field, replace

from engine.data.maps import MM_PER, MapFile, Zone

from . import edits as E
from .catalog import Catalog, Mission, Template, load_catalog, mission_edit, place_template
from .constraints import Parts, Rules, count_problems, geometry_problems, instance_of
from .corrections import clamp, merge_seen, note_seen, verdict
from .reachability import reach_problems
from .targets import Target, meets, score, sight_figures

SYMMETRIES = ("none", "mirror_x", "mirror_y", "point", "mirror")
# the catalog used when none is given: template id -> (min, max) instances
DEFAULT_COUNTS = {
    "ruin-with-walls": (0, 6), "ruin-corner-low": (0, 4), "building-with-yard": (0, 3), "fence-run": (0, 3),
    "forest": (0, 3), "container-stack": (0, 4), "crate-pile": (0, 4), "building": (0, 4), "container": (0, 4),
}
# the targets a layout is made to when none are given: what the 33 shared tournament tables show
# (docs/workshop.md, "Generating a layout"): the open table's sight of a real table, both sides
# equal (zones and objectives) with at least one objective each side can hold unseen (0 against
# 0 is equal, not fair), no zone-to-zone lane longer than the table (LANE_SHARE % of its length;
# the lines along one edge, 58-63" on a 60" table, which no piece may break, left out), the
# tables' coverage, and cover near each zone
LANE_SHARE = 100
DEFAULT_TARGETS = ("los=30", "hide_diff<=5", "obj_diff<=0", "obj_held>=1", f"lane_share<={LANE_SHARE}",
                   "cover=24+-4", "zone_cover>=5")
# the default catalog's small pieces may stand in a deployment zone, as on tournament tables: cover
# where a side arrives (``zone_cover``) and the coverage of a real table, which the middle of the
# table alone cannot hold with the gaps kept
DEFAULT_IN_ZONES = ("crate-pile", "ruin-corner-low", "container", "fence-run", "ruin-with-walls", "forest")
OPS = (("add", 0.20), ("remove", 0.10), ("move", 0.40), ("rotate", 0.15), ("swap", 0.15))
TURNS = (15, -15, 45, -45, 90, -90, 180)
BLOCK_SHARE = 0.5     # of the adds and moves, while a lane target is missed: aimed across the lane
# added to the score for each target missed beyond its tolerance: a lane 0.01% over its bound cost
# 0.003 while being 2 points off the middle of a met cover band cost 0.7, and seed 117 sat on
# such a layout until its CPU budget ran out (issue 62)
MISS_STEP = 1.0


@dataclass(frozen=True)
class Entry:
    template: str
    min: int = 0
    max: int = 4
    in_zones: bool = False
    weight: float = 1.0


@dataclass(frozen=True)
class Problem:
    """Everything a chain needs, constant over a run (picklable: sent to dask workers)."""
    start: MapFile
    symmetry: str | None                   # None, "mirror_x", "mirror_y", "point"
    entries: tuple[Entry, ...]
    templates: tuple                       # ((Template, unit), ...) in the order of ``entries``
    targets: tuple[Target, ...]
    rules: Rules
    base_mm: float
    coarse_mm: float = 2 * 25.4
    full_mm: float = 25.4
    grid: float = 0.5                      # placement grid, map units
    start_templates: tuple = ()            # (group, template id) of instances already on the start map
    ops: tuple = OPS                       # the kinds of move ``propose`` draws from, with weights

    def template(self, tid: str) -> tuple[Template, str]:
        for e, tu in zip(self.entries, self.templates):
            if e.template == tid:
                return tu
        raise KeyError(tid)

    @property
    def bounds(self) -> dict:
        return {e.template: (e.min, e.max) for e in self.entries}


@dataclass(frozen=True)
class State:
    map: MapFile
    templates: tuple                       # ((group, template id), ...) of the generated instances
    edits: tuple                           # accepted edits, as applied (with twins), from ``Problem.start``
    figures: dict                          # coarse-grid figures
    score: float

    def template_of(self) -> dict:
        return dict(self.templates)


@dataclass
class Chain:
    index: int
    temp: float
    state: State
    rng: random.Random
    best: State
    steps: int = 0
    accepted: int = 0
    refused: dict = field(default_factory=dict)
    trace: list = field(default_factory=list)      # (step, current score, best score) of the last round
    seen: dict = field(default_factory=dict)       # each coarse figure's range over the layouts held


class GenerateError(ValueError):
    """A request the generator cannot start on (the reason in words)."""


# ----------------------------------------------------------------------------- the start

def resolve_symmetry(mode: str, m: MapFile) -> str | None:
    """``none`` -> None; ``mirror`` -> the mirror that swaps the deployment zones."""
    if mode in (None, "none"):
        return None
    if mode == "mirror":
        for cand in ("mirror_x", "mirror_y"):
            if all(E.counterpart(m, ("zone", i), cand) is not None for i in range(len(m.deployment))):
                return cand
        raise GenerateError("no mirror carries one deployment zone onto the other: choose point, or none")
    if mode not in SYMMETRIES:
        raise GenerateError(f"unknown symmetry {mode!r} (one of {', '.join(SYMMETRIES)})")
    return mode


def start_map(width: float, height: float, unit: str, mission: Mission | None = None,
              locked_from: MapFile | None = None, map_id: str = "generated", name: str = "Generated layout") -> MapFile:
    """An empty table with the mission's zones and markers (or those of ``locked_from``) and the
    locked pieces of ``locked_from``."""
    zones = [Zone(side=1, points=[(0, 0), (1, 0), (1, 1)]), Zone(side=2, points=[(0, 0), (1, 0), (1, 1)])]
    m = MapFile(schema_version=1, id=map_id, name=name, unit=unit, width=width, height=height, deployment=zones)
    if locked_from is not None:
        if (locked_from.width * MM_PER[locked_from.unit], locked_from.height * MM_PER[locked_from.unit]) != \
                (width * MM_PER[unit], height * MM_PER[unit]):
            raise GenerateError(f"the map with the locked pieces is {locked_from.width:g}x{locked_from.height:g} "
                                f"{locked_from.unit}, not the table asked for")
        if locked_from.unit != unit:
            locked_from = E.ConvertUnit(unit).apply(locked_from)
        m = m.model_copy(update={"deployment": list(locked_from.deployment), "objectives": list(locked_from.objectives),
                                 "evac_points": list(locked_from.evac_points),
                                 "pieces": [p for p in locked_from.pieces if p.locked]})
    if mission is not None:
        m = mission_edit(mission, m).apply(m)
    elif locked_from is None:
        raise GenerateError("give a mission (or a map whose zones to keep)")
    return m


def prepare(start: MapFile, symmetry: str | None) -> tuple[MapFile, tuple]:
    """The start map ready for ``symmetry``: a locked piece without a counterpart gets its mirror
    image (locked too) as the first edit; zones and markers must already be symmetric."""
    if symmetry is None:
        return start, ()
    bad = [k for k in E.unmatched(start, symmetry) if k[0] != "piece"]
    if bad:
        names = ", ".join(f"{k[0]} {k[1] + 1 if k[0] == 'zone' else k[1]}" for k in bad[:3])
        raise GenerateError(f"the mission is not symmetric under {symmetry.replace('_', ' ')}: {names} "
                            "has no counterpart (choose another symmetry, or none)")
    lone = [k for k in E.unmatched(start, symmetry) if k[0] == "piece"]
    if not lone:
        return start, ()
    twins = []
    taken = {p.id for p in start.pieces}
    for _, pid in lone:
        p = E.get_piece(start, pid)
        nid = E.new_id(taken, p.id)
        taken.add(nid)
        twins.append(p.model_copy(update={"id": nid, "shape": E.S.mirror(p.shape, symmetry, start.width, start.height),
                                          "group": None if p.group is None else E.new_id({q.group for q in start.pieces
                                                                                         if q.group}, p.group)}))
    edit = E.AddPieces(tuple(twins))
    try:
        new = E.EditStack(start).check(edit)
    except E.EditRefused as err:
        raise GenerateError(f"the locked pieces cannot be mirrored: {err}") from None
    return new, (E.Compound((edit,), "mirror the locked pieces"),)


def make_problem(start: MapFile, symmetry: str, entries, targets, rules: Rules | None = None, base_mm: float = 25.0,
                 catalog: Catalog | None = None, coarse_in: float = 2.0, full_in: float = 1.0) -> tuple[Problem, tuple]:
    """(the problem, edits already made to the start map). Refuses (``GenerateError``) unknown
    templates, impossible counts, a mission that cannot be symmetric, locked pieces that cannot."""
    catalog = catalog or load_catalog()
    entries = tuple(entries)
    if not entries:
        raise GenerateError("the catalog is empty: give at least one template")
    tus = []
    for e in entries:
        try:
            tus.append(catalog.template(e.template))
        except KeyError:
            known = ", ".join(t.id for t, _ in catalog.templates)
            raise GenerateError(f"no template {e.template!r} in the catalog (known: {known})") from None
        if not (0 <= e.min <= e.max):
            raise GenerateError(f"{e.template}: counts {e.min}-{e.max} are not 0 <= min <= max")
    mode = resolve_symmetry(symmetry, start)
    start, pre = prepare(start, mode)
    grid = 0.5 if start.unit == "in" else 1.0 if start.unit == "cm" else 10.0
    rules = rules or default_rules(start.unit, entries)
    return Problem(start, mode, entries, tuple(tus), tuple(targets), rules, base_mm,
                   coarse_in * 25.4, full_in * 25.4, grid), pre


def default_rules(unit: str, entries=()) -> Rules:
    f = 1.0 if unit == "in" else 2.5 if unit == "cm" else 25.0
    return Rules(piece_gap=2.0 * f, edge_gap=1.0 * f,
                 in_zones=frozenset(e.template for e in entries if e.in_zones))


# ----------------------------------------------------------------------------- one candidate

_PARTS = Parts()          # per process: outlines of the pieces seen, by piece object
PLACE_TRIES = 8           # spots (or shifts) tried for one add, swap or move before giving up
FILL_PATIENCE = 12        # the greedy start stops after this many adds in a row that do not help


@dataclass(frozen=True)
class Candidate:
    """An edit that passed the cheap checks (schema, locks, counts, gaps, zones), with its map."""
    op: str
    edit: E.Edit                 # as applied, with its twins
    map: MapFile
    templates: tuple


def need_of(problem: Problem) -> set:
    need = {t.metric for t in problem.targets}
    if "hide_diff" in need:
        need.add("hide")
    if "obj_diff" in need:
        need.add("objectives")
    return need


def coarse_figures(problem: Problem, m: MapFile):
    """(table, figures on the coarse grid; a lane with a target read on the full grid's points
    above its floor, ``lane_floors``)."""
    from engine.table import Table

    table = Table(m)
    figs = sight_figures(table, problem.coarse_mm, cover_rows=400, need=need_of(problem))
    for metric, floor in lane_floors(problem).items():
        figs.update(_full_lane(problem, table, metric, floor, figs.get(metric, 0.0)))
    return table, figs


def lane_floors(problem: Problem) -> dict:
    """Per lane figure a target reads: the lowest edge of its targets' bands. Above it the search
    reads the lane on the full grid's points (``targets.long_lane``): the same lines the full-grid
    check will measure, so that reading needs no correction (issue 62)."""
    out: dict = {}
    for t in problem.targets:
        if t.metric in ("lane", "lane_share"):
            edge = t.value - t.tolerance() if t.op in ("=", ">=") else t.value + t.tolerance()
            out[t.metric] = max(0.0, min(out.get(t.metric, math.inf), edge))
    return out


def _full_lane(problem: Problem, table, metric: str, floor: float, coarse: float) -> dict:
    """``metric`` (lane in map units, or lane_share in %) read on the full grid when it is longer
    than ``floor``; otherwise the coarse reading, at most the floor (no full-grid line is longer)."""
    from .targets import EDGE_STRIP_MM, long_lane

    k = MM_PER[problem.start.unit]
    length = max(table.width, table.height)
    share = metric == "lane_share"
    d, at = long_lane(table, problem.full_mm, floor / 100 * length if share else floor * k,
                      EDGE_STRIP_MM if share else 0.0)
    if at is None:
        return {metric: min(coarse, floor)}
    return {metric: round(100 * d / length, 2) if share else round(d / k, 2),
            f"{metric}_at": tuple(round(v / k, 3) for v in at)}


def full_figures(problem: Problem, m: MapFile) -> dict:
    from engine.table import Table

    return sight_figures(Table(m), problem.full_mm)


def layout_problems(problem: Problem, m: MapFile, templates: dict, table=None) -> list[str]:
    """Every constraint the generator holds, for a finished layout (empty: all held)."""
    from engine.table import Table

    out = [f"{f}: {r}" if f else r for f, r in E.save_problems(m)]
    out += count_problems(_counts(m, templates), problem.bounds)
    out += geometry_problems(m, problem.rules, templates, _PARTS, limit=20)
    out += reach_problems(table or Table(m), problem.base_mm, limit=20)
    return out


def _counts(m: MapFile, templates: dict) -> dict:
    present = {instance_of(p) for p in m.pieces}
    out: dict = {}
    for g, tid in templates.items():
        if g in present:
            out[tid] = out.get(tid, 0) + 1
    return out


def _instances(m: MapFile) -> dict:
    """Unlocked instance -> its piece ids (map order)."""
    out: dict = {}
    locked_groups = {instance_of(p) for p in m.pieces if p.locked}
    for p in m.pieces:
        g = instance_of(p)
        if g in locked_groups:
            continue
        out.setdefault(g, []).append(p.id)
    return out


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
            if fixed:
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


# ----------------------------------------------------------------------------- chains

def chain_seed(seed: int, index: int) -> int:
    h = hashlib.blake2b(f"generate:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(h, "big")


def _state(problem: Problem, cand: Candidate, prev: State, bias: dict | None) -> tuple[State, object]:
    table, figs = coarse_figures(problem, cand.map)
    return State(cand.map, cand.templates, prev.edits + (cand.edit,), figs,
                 _score(figs, problem, bias)), table


def new_chain(problem: Problem, index: int, temp: float, seed: int, pre_edits: tuple = (), tries: int = 400) -> Chain:
    """A chain on the start map with each template's minimum placed."""
    rng = random.Random(chain_seed(seed, index))
    from engine.table import Table

    m = problem.start
    bad = reach_problems(Table(m), problem.base_mm, limit=1)
    if bad:
        raise GenerateError(f"the start layout breaks a constraint: {bad[0]}")
    table, figs = coarse_figures(problem, m)
    st = State(m, tuple(sorted(problem.start_templates)), tuple(pre_edits), figs,
               _score(figs, problem))
    for e in problem.entries:
        n = 0
        while _counts(st.map, st.template_of()).get(e.template, 0) < e.min:
            n += 1
            if n > tries:
                raise GenerateError(f"cannot place {e.min} of {e.template} with the gaps and zones asked "
                                    "(fewer, or smaller gaps)")
            pieces = _place(problem, st.map, e.template, _random_spot(problem, st.map, rng), _random_turn(rng))
            cand, _ = try_edit(problem, st, "add", E.AddPieces(pieces), e.template)
            if cand is None:
                continue
            nxt, table = _state(problem, cand, st, None)
            if not reach_problems(table, problem.base_mm, limit=1):
                st = nxt
    st = _fill(problem, st, rng)
    chain = Chain(index, temp, st, rng, st)
    note_seen(chain.seen, st.figures)
    return chain


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


def advance(problem: Problem, chain: Chain, steps: int, bias: dict | None = None) -> Chain:
    """``steps`` Metropolis moves of one chain at its temperature (a pure function of its
    arguments: the dask task of a round). Reachability, the dearest check, is asked only of a
    move the Metropolis rule would accept: a refused move needs no verdict, and every state
    the chain holds has passed it."""
    chain = replace(chain, rng=_copy_rng(chain.rng), refused=dict(chain.refused), trace=[],
                    seen=copy.deepcopy(chain.seen))
    st, best = chain.state, chain.best
    for _ in range(steps):
        chain.steps += 1
        cand, why = propose(problem, st, chain.rng)
        if cand is not None:
            nxt, table = _state(problem, cand, st, bias)
            delta = nxt.score - st.score
            if delta <= 0 or chain.rng.random() < math.exp(-delta / chain.temp):
                bad = reach_problems(table, problem.base_mm, limit=1)
                if bad:
                    why = "reach: " + bad[0]
                else:
                    st = nxt
                    chain.accepted += 1
                    note_seen(chain.seen, st.figures)
                    if st.score < best.score:
                        best = st
            else:
                why = "worse"
        if why:
            kind = why.split(":", 1)[0]
            chain.refused[kind] = chain.refused.get(kind, 0) + 1
        chain.trace.append((chain.steps, st.score, best.score))
    chain.state, chain.best = st, best
    return chain


def _copy_rng(rng: random.Random) -> random.Random:
    r = random.Random()
    r.setstate(rng.getstate())
    return r


# ----------------------------------------------------------------------------- the driver

def temperatures(n: int, cold: float = 0.03, hot: float = 1.0) -> list[float]:
    """``n`` temperatures spaced geometrically from ``cold`` to ``hot`` (score units: a miss of
    one tolerance step of line of sight is 1)."""
    if n == 1:
        return [cold]
    return [cold * (hot / cold) ** (i / (n - 1)) for i in range(n)]


def map_digest(m: MapFile) -> str:
    return hashlib.blake2b(m.model_dump_json().encode(), digest_size=12).hexdigest()


CHECK_EVERY = 3        # rounds: a layout is measured on the full grid at least this often


@dataclass
class Result:
    state: State                 # the layout chosen
    full: dict                   # its figures on the full grid
    met: bool                    # whether they meet every target
    rounds: int
    steps: int                   # moves tried over all chains
    seconds: float               # wall time of the search
    cpu_seconds: float           # CPU time of the search: this process's, and the workers' on a cluster
    met_seconds: float | None    # wall time until the targets were met on the full grid
    history: list                # per round: {"round", "chains": [[(step, score, best), ...], ...], "swaps"}
    checks: list                 # full-grid checks: {"round", "coarse", "full", "met", "why"}
    bias: dict                   # the corrections in force at the end (clamped)
    chains: list                 # the chains at the end (temperatures, acceptance, refusals)
    stopped: str                 # "targets met", "rounds", "CPU budget", "time limit"
    verdict: list = field(default_factory=list)    # per target missed: by how much and why
    learnt: dict = field(default_factory=dict)     # the corrections as learnt, before clamping
    seen: dict = field(default_factory=dict)       # each coarse figure's range over the layouts held


def _cpu_meter(client):
    """CPU seconds spent since the call: this process's, and with ``client`` its workers' too."""
    def workers() -> float:
        return 0.0 if client is None else float(sum(client.run(time.process_time).values()))

    c0, w0 = time.process_time(), workers()
    return lambda: time.process_time() - c0 + (workers() - w0 if client is not None else 0.0)


def run(problem: Problem, seed: int = 1, chains: int = 4, rounds: int = 60, steps: int = 20,
        pre_edits: tuple = (), client=None, time_limit: float | None = None, on_round=None,
        cpu_limit: float | None = None) -> Result:
    """Parallel tempering until the full grid says the targets are met, ``rounds`` rounds of
    ``steps`` moves per chain, or ``cpu_limit`` seconds of CPU (see the module note).
    ``client``: a dask client to run each round's chains on; ``on_round(round, chains,
    best_score, bias)`` reports progress."""
    t0, cpu = time.perf_counter(), _cpu_meter(client)
    temps = temperatures(chains)
    if client is None:
        pool = [new_chain(problem, i, temps[i], seed, pre_edits) for i in range(chains)]
    else:
        futs = [client.submit(new_chain, problem, i, temps[i], seed, pre_edits, pure=False) for i in range(chains)]
        pool = client.gather(futs)
    swap_rng = random.Random(chain_seed(seed, -1))
    bias: dict = {}
    learnt: dict = {}
    biases: dict = {}
    checked: dict = {}
    history, checks = [], []
    chosen = None
    met_at = None
    stopped = "rounds"
    last_check = 0
    r = 0
    check_cost = 0.0
    for r in range(1, rounds + 1):
        round_start = cpu()
        if client is None:
            pool = [advance(problem, c, steps, bias) for c in pool]
        else:
            futs = [client.submit(advance, problem, c, steps, bias, pure=False) for c in pool]
            pool = client.gather(futs)
        swaps = _swap(pool, swap_rng)
        seen = merge_seen(c.seen for c in pool)
        bias = _set_bias(pool, problem, bias, clamp(learnt, seen, problem.targets))
        cand = _best_candidate(pool, problem, bias)
        history.append({"round": r, "chains": [list(c.trace) for c in pool], "swaps": swaps,
                        "temps": [c.temp for c in pool], "best_figures": cand.figures if cand else None})
        if on_round:
            on_round(r, pool, cand.score if cand else None, bias)
        why = None
        passing = _best_unchecked(pool, problem, bias, checked, passing=True)
        if passing is not None:        # the best layout the coarse grid passes (not only the best score)
            cand, why = passing, "met on the coarse grid"
        elif r - last_check >= CHECK_EVERY:
            # none passes (or the one that does was measured): measure the best unchecked layout,
            # so that a correction is always learnt again and can never stop every check
            cand = _best_unchecked(pool, problem, bias, checked)
            why = f"no check in {CHECK_EVERY} rounds" if cand is not None else None
        if why is not None:
            c0 = cpu()
            full = full_figures(problem, cand.map)
            check_cost = max(check_cost, cpu() - c0)
            ok = meets(full, problem.targets)
            checked[map_digest(cand.map)] = (cand, full)
            checks.append({"round": r, "coarse": cand.figures, "full": full, "met": ok, "why": why})
            last_check = r
            _learn_bias(biases, cand.figures, full, problem.targets, lane_floors(problem))
            learnt = _mean_bias(biases)
            bias = _set_bias(pool, problem, bias, clamp(learnt, seen, problem.targets))
            if ok:
                chosen, met_at, stopped = (cand, full), time.perf_counter() - t0, "targets met"
                break
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            stopped = "time limit"
            break
        # stop before a round (and the closing measurement) that would not fit in the budget
        if cpu_limit is not None and cpu() + (cpu() - round_start) + check_cost > cpu_limit:
            stopped = "CPU budget"
            break
    seen = merge_seen(c.seen for c in pool)
    if chosen is None:
        # the best layout the search holds, measured on the full grid (or the best checked one)
        cand = _best_candidate(pool, problem, bias)
        key = map_digest(cand.map)
        full = checked[key][1] if key in checked else full_figures(problem, cand.map)
        chosen = (cand, full)
        for c2, f2 in checked.values():
            if _score(f2, problem) < _score(chosen[1], problem):
                chosen = (c2, f2)
    state, full = chosen
    ok = meets(full, problem.targets)
    if ok and met_at is None:       # the last round's best, measured at the end, meets them
        met_at, stopped = time.perf_counter() - t0, "targets met"
    why = [] if ok else verdict(problem.targets, full, state.figures, bias, seen, problem.start.unit)
    return Result(state, full, ok, r, sum(c.steps for c in pool), time.perf_counter() - t0, cpu(), met_at,
                  history, checks, bias, pool, stopped, why, learnt, seen)


def _set_bias(pool, problem: Problem, old: dict, new: dict) -> dict:
    """``new`` in force: the chains' scores follow it."""
    if new != old:
        for c in pool:
            c.state = _rescored(c.state, problem, new)
            c.best = _rescored(c.best, problem, new)
    return new


def _best_unchecked(pool, problem: Problem, bias: dict, checked: dict, passing: bool = False) -> State | None:
    """The best-scoring layout the chains hold (their current and best) not yet measured on the
    full grid; with ``passing``, only one whose corrected coarse figures meet every target."""
    states = sorted([c.best for c in pool] + [c.state for c in pool],
                    key=lambda s: (_score(s.figures, problem, bias), map_digest(s.map)))
    return next((s for s in states if map_digest(s.map) not in checked
                 and (not passing or meets(s.figures, problem.targets, bias))), None)


def _score(figures: dict, problem: Problem, bias: dict | None = None) -> float:
    """The search's score: the distance from the targets and ``MISS_STEP`` for each target missed."""
    return score(figures, problem.targets, problem.start.unit, bias, step=MISS_STEP)


def _rescored(st: State, problem: Problem, bias: dict) -> State:
    return replace(st, score=_score(st.figures, problem, bias))


def _best_candidate(pool, problem: Problem, bias: dict) -> State | None:
    states = [c.best for c in pool] + [c.state for c in pool]
    if not states:
        return None
    return min(states, key=lambda s: (_score(s.figures, problem, bias), map_digest(s.map)))


def _learn_bias(biases: dict, coarse: dict, full: dict, targets, exact=()) -> None:
    """Full minus coarse for each figure a target reads: a per-side figure per side (the hides
    too when the hide difference is a target: the difference is then read from the biased hides,
    ``targets.with_bias``; a difference is never biased itself, it is |h1 - h2| >= 0). Not the
    figures of ``exact``, which the search already reads as the full grid does."""
    metrics = {t.metric for t in targets} - set(exact)
    if "hide_diff" in metrics:
        metrics = (metrics - {"hide_diff"}) | {"hide"}
    # no other difference (the objective access's) is biased either: |a - b| is never below 0, so
    # a correction learnt from one layout (coarse 0, full 5.3) kept every later reading above target
    metrics = {m for m in metrics if not m.endswith("_diff")}
    for metric in sorted(metrics):
        a, b = coarse.get(metric), full.get(metric)
        if a is None or b is None:
            continue
        if isinstance(a, dict):
            for side, x in a.items():
                if x is not None and b.get(side) is not None:
                    biases.setdefault(metric, {}).setdefault(side, []).append(b[side] - x)
        else:
            biases.setdefault(metric, []).append(b - a)


def _mean_bias(biases: dict) -> dict:
    """The running mean of each figure's learnt difference (per side for a per-side figure)."""
    return {k: ({s: sum(d) / len(d) for s, d in v.items()} if isinstance(v, dict) else sum(v) / len(v))
            for k, v in biases.items()}


def _swap(pool: list, rng: random.Random) -> list:
    """Offer each neighbouring pair of temperatures to swap layouts (the tempering step)."""
    out = []
    for i in range(len(pool) - 1):
        a, b = pool[i], pool[i + 1]
        x = (a.state.score - b.state.score) * (1 / a.temp - 1 / b.temp)
        ok = x >= 0 or rng.random() < math.exp(x)
        if ok:
            a.state, b.state = b.state, a.state
        out.append(bool(ok))
    return out


# ----------------------------------------------------------------------------- the record

def instances(state: State) -> list[dict]:
    """The generated instances of a layout: group, template, pieces and centre (map units)."""
    tmpl = state.template_of()
    out = []
    for g, ids in _instances(state.map).items():
        x0, y0, x1, y1 = E.selection_bounds(state.map, [("piece", i) for i in ids])
        out.append({"group": g, "template": tmpl.get(g), "pieces": ids,
                    "centre": [round((x0 + x1) / 2, 3), round((y0 + y1) / 2, 3)]})
    return out


def history_record(result: Result, problem: Problem, seed: int, extra: dict | None = None) -> dict:
    """The search as data (``history.json``): what was asked, how it ended, the edits of the
    layout chosen, in words, and the score of every chain at every move."""
    unit = problem.start.unit
    rounds = []
    for h in result.history:
        last = [c[-1] for c in h["chains"] if c]
        bf = h.get("best_figures") or {}
        rounds.append({"round": h["round"], "end_step": last[0][0] if last else None,
                       "best": min((b for _, _, b in last), default=None), "swaps": h["swaps"],
                       **{k: bf.get(k) for k in ("los", "hide_diff", "cover", "lane") if k in bf}})
    return {
        **(extra or {}),
        "seed": seed,
        "symmetry": problem.symmetry,
        "targets": [t.text() for t in problem.targets],
        "base_mm": problem.base_mm,
        "piece_gap": problem.rules.piece_gap, "edge_gap": problem.rules.edge_gap, "unit": unit,
        "catalog": [{"template": e.template, "min": e.min, "max": e.max, "in_zones": e.in_zones} for e in problem.entries],
        "stopped": result.stopped, "met": result.met, "verdict": result.verdict,
        "seconds": round(result.seconds, 2), "cpu_seconds": round(result.cpu_seconds, 2),
        "met_seconds": None if result.met_seconds is None else round(result.met_seconds, 2),
        "rounds_run": result.rounds, "moves": result.steps,
        "full": result.full, "coarse": result.state.figures, "bias": result.bias, "bias_learnt": result.learnt,
        "coarse_ranges": result.seen,
        "checks": [{"round": c["round"], "met": c["met"], "why": c.get("why"),
                    "full_score": round(_score(c["full"], problem), 4),
                    "coarse": c["coarse"], "full": c["full"]} for c in result.checks],
        "chains": [{"index": c.index, "temp": c.temp, "moves": c.steps, "accepted": c.accepted, "refused": c.refused}
                   for c in result.chains],
        "edits": [e.describe() for e in result.state.edits],
        "instances": instances(result.state),
        "rounds": rounds,
        "trace": [{"round": h["round"], "chains": h["chains"]} for h in result.history],
    }
