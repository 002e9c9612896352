"""The layout generator's problem and its figures (the package note: ``__init__.py``).

What is asked: a catalog of templates with their counts, a symmetry, the targets and the
constraints, on a start map (``start_map``, ``make_problem``); a layout the search holds
(``State``) and an edit that passed the cheap checks (``Candidate``); the figures a layout is
scored by, on the coarse grid while searching (``coarse_figures``, a lane target read on the full
grid's points above its floor: ``lane_floors``) and on the full grid for the result
(``full_figures``); the score (``_score``); and every constraint of a finished layout
(``layout_problems``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from engine.data.maps import MM_PER, MapFile, Zone

from .. import edits as E
from ..catalog import Catalog, Mission, Template, load_catalog, mission_edit
from ..constraints import Parts, Rules, count_problems, geometry_problems, instance_of
from ..reachability import reach_problems
from ..targets import Target, score, sight_figures

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


class GenerateError(ValueError):
    """A request the generator cannot start on (the reason in words)."""


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


_PARTS = Parts()          # per process: outlines of the pieces seen, by piece object


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
    from ..targets import EDGE_STRIP_MM, long_lane

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


def _score(figures: dict, problem: Problem, bias: dict | None = None) -> float:
    """The search's score: the distance from the targets and ``MISS_STEP`` for each target missed."""
    return score(figures, problem.targets, problem.start.unit, bias, step=MISS_STEP)
