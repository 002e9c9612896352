"""The balancer's layout side (``balance.py``): the start map read as a problem for the generator's
proposals, the screen's figures, the choice of candidates to play, and edits as data and words."""
from __future__ import annotations

import hashlib
import math
import random
from dataclasses import replace

from engine.data.maps import MapFile

from . import edits as E
from .balance_stats import predict


class BalanceError(ValueError):
    """A request the balancer cannot start on (the reason in words)."""

OPS = (("move", 0.6), ("rotate", 0.2), ("swap", 0.2))     # never add or remove: the same terrain, moved
SCREEN = ("hide_diff", "walk_diff")                      # the screen's figures (balance_stats.PRIOR)


# ----------------------------------------------------------------------------- the layout side

def symmetry_of(m: MapFile) -> str | None:
    """The symmetry the whole map keeps (pieces, zones and markers), if any: its twins then move
    together. A map with any piece out of step has none."""
    for mode in ("point", "mirror_x", "mirror_y"):
        try:
            if not E.unmatched(m, mode):
                return mode
        except Exception:  # noqa: BLE001 - a shape the mirror cannot take: not symmetric
            continue
    return None


def infer_templates(m: MapFile, catalog) -> dict:
    """Group -> catalog template, read from the group's name (``place_template`` names a group by
    its template, ``building-2`` being the second): swaps then know what they replace."""
    import re

    known = {t.id for t, _ in catalog.templates}
    out = {}
    for p in m.pieces:
        if p.group and p.group not in out:
            base = re.sub(r"-\d+$", "", p.group)
            if p.group in known:
                out[p.group] = p.group
            elif base in known:
                out[p.group] = base
    return out


def held_pieces(m: MapFile, rules, templates: dict) -> list[str]:
    """The unlocked pieces that break a layout rule in ``m`` itself (too near the edge or another
    placement, standing in a zone): a designer's map is taken as it is, so they stay where they
    are (held as if locked) and the rest keep the rules. Found one problem at a time, the pieces
    it names held, until none is left."""
    from .constraints import geometry_problems

    ids = sorted((p.id for p in m.pieces if not p.locked), key=len, reverse=True)
    held: list[str] = []
    cur = m
    for _ in range(len(m.pieces) + 1):
        bad = geometry_problems(cur, rules, templates, limit=1)
        if not bad:
            return held
        msg = bad[0]
        named = []
        for a in ids:
            if msg.startswith(f"{a}: "):
                named = [a]
                break
            if msg.startswith(f"{a} and "):
                rest = msg[len(a) + 5:]
                b = next((x for x in ids if rest.startswith(f"{x}: ")), None)
                named = [a] + ([b] if b else [])
                break
        if not named:
            raise BalanceError(f"the start map breaks a layout rule the balancer keeps: {msg}")
        held += [x for x in named if x not in held]
        cur = with_locks(cur, named)
    raise BalanceError("the start map breaks too many layout rules")


def with_locks(m: MapFile, ids, on: bool = True) -> MapFile:
    ids = set(ids)
    return m.model_copy(update={"pieces": [p.model_copy(update={"locked": True if on else None}) if p.id in ids else p
                                           for p in m.pieces]})


# the sight figures held as constraints beside the played share: a candidate may not take the
# hide difference or the objective-access difference past these (nor past the current map's)
SIGHT_LIMITS = {"hide_diff": 10.0, "obj_diff": 0.0}


def make_problem(start: MapFile, ruleset: str, catalog=None, limits: dict | None = None):
    """(the generator's ``Problem`` for balancing ``start``, the pieces held): the map's symmetry,
    its own templates as the swap palette, moves/turns/swaps only, the usual gaps (none when the
    start map does not keep them: a designer's map is taken as it is), pieces on the table and out
    of the zones (a piece that breaks that in the start map is held where it is) and reachability
    for the ruleset's smallest base."""
    from . import generate as G
    from .catalog import load_catalog
    from .constraints import Rules, geometry_problems
    from .reachability import reach_problems, smallest_base_mm

    catalog = catalog or load_catalog()
    mode = symmetry_of(start)
    tmpl = infer_templates(start, catalog)
    present = sorted(set(tmpl.values())) or sorted(G.DEFAULT_COUNTS)
    big = max(len(start.pieces), 1) + 10
    entries = [G.Entry(t, 0, big) for t in present]
    rules = G.default_rules(start.unit, entries)
    if geometry_problems(start, rules, tmpl, limit=1):     # a map drawn without our gaps: none asked
        rules = Rules(0.0, 0.0, rules.in_zones)
    held = held_pieces(start, rules, tmpl)
    work = with_locks(start, held)
    base = smallest_base_mm(ruleset)
    from engine.table import Table

    bad = reach_problems(Table(start), base, limit=1)
    if bad:
        raise BalanceError(f"the start map breaks reachability on foot: {bad[0]}")
    try:
        from .targets import Target

        # the constraints as targets: the coarse figures then hold the sides' hideability and
        # objective access (with no target they held nothing, and the screen's hide difference
        # read 0 for every candidate)
        limits = SIGHT_LIMITS if limits is None else limits
        targets = tuple(Target(k, "<=", float(v)) for k, v in limits.items() if v is not None) or \
            (Target("hide_diff", "<=", 100.0),)
        problem, _ = G.make_problem(work, mode or "none", entries, targets, rules, base, catalog)
    except G.GenerateError as err:
        raise BalanceError(str(err)) from None
    return replace(problem, ops=OPS, start_templates=tuple(sorted(tmpl.items()))), held


def sight_breach(problem, f0: dict, f: dict) -> str | None:
    """Why the figures ``f`` of a candidate break a sight constraint (a figure past its limit
    and past the current map's ``f0``), or None."""
    for t in problem.targets:
        v, v0 = f.get(t.metric), f0.get(t.metric)
        if v is None or t.op != "<=":
            continue
        if v > max(t.value, v0 if v0 is not None else t.value) + 1e-9:
            return f"{t.metric} {v:g} > {max(t.value, v0 or 0):g}"
    return None


def full_figures(m: MapFile) -> dict:
    """The constrained sight figures on the grid ``analyze-map`` reports (1", the designer's grid):
    each side's zone hideability and objective access, and their differences, in the coarse
    figures' keys. The coarse grid the search screens on can differ from it by 15 points or more."""
    from engine.core.tables import table_for

    from .analysis import analyse

    a = analyse(table_for(m)).metrics
    h, o = a.get("dz_hideability_pct") or {}, a.get("objective_hidability_pct") or {}

    def diff(d):
        return None if d.get("1") is None or d.get("2") is None else round(abs(d["1"] - d["2"]), 2)

    return {"hide": {"1": h.get("1"), "2": h.get("2")}, "hide_diff": diff(h),
            "objectives": {"1": o.get("1"), "2": o.get("2")}, "obj_diff": diff(o), "grid": "1in"}


def limits_met(problem, f: dict) -> list[str]:
    """The sight limits ``f`` breaks outright (whatever the start map was): a start kept at 100/0
    objective access does not meet a limit of 0."""
    out = []
    for t in problem.targets:
        v = f.get(t.metric)
        if t.op == "<=" and v is not None and v > t.value + 1e-9:
            out.append(f"{t.metric} {v:g} > {t.value:g}")
    return out


def screen_figure(figs: dict) -> float:
    h = figs.get("hide") or {}
    return float((h.get("1") or 0.0) - (h.get("2") or 0.0))


def walk_figure(m: MapFile, base_mm: float, table=None) -> float:
    """Zone 1's mean walking distance to the objectives (the table's centre when it has none)
    minus zone 2's, in the map's unit, by the easy agent's own walking grid (a base of the
    ruleset's smallest size, round the terrain): a maze in front of one zone shows here when
    every sight figure is already saturated."""
    import numpy as np

    from engine.ai.geo import WalkGrid
    from engine.data.maps import MM_PER
    from engine.table import Table

    from .analysis import _point_in_poly

    table = table or Table(m)
    k = MM_PER[m.unit]
    grid = WalkGrid(table, base_mm / 2, step=max(25.4, min(table.width, table.height) / 36.0))
    goals = [(o.at[0] * k, o.at[1] * k) for o in m.objectives] or [(table.width / 2, table.height / 2)]
    field = np.mean([grid.field([g]) for g in goals], axis=0)
    X, Y = np.meshgrid(grid.xs, grid.ys, indexing="ij")
    mean = {}
    for side in (1, 2):
        inside = np.zeros(X.shape, bool)
        for z in m.deployment:
            if z.side == side:
                inside |= _point_in_poly(X.ravel(), Y.ravel(), [(x * k, y * k) for x, y in z.points]).reshape(X.shape)
        d = field[inside & grid.ok]
        d = d[np.isfinite(d)]
        mean[side] = float(d.mean()) / k if d.size else 0.0
    return round(mean[1] - mean[2], 3)


def screen(problem, m: MapFile) -> tuple[tuple, dict]:
    """(the screen figures, in ``SCREEN`` order; the coarse sight figures)."""
    f = figures(problem, m)
    return (screen_figure(f), walk_figure(m, problem.base_mm)), f


def figures(problem, m: MapFile) -> dict:
    from . import generate as G

    _, f = G.coarse_figures(problem, m)
    return f


def step_rng(seed: int, step: int) -> random.Random:
    h = hashlib.blake2b(f"balance:{seed}:{step}".encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(h, "big"))


def proposals(problem, state, seed: int, step: int, n: int) -> list:
    """``n`` distinct candidates from the incumbent (fewer if the map allows no more)."""
    from . import generate as G

    rng = step_rng(seed, step)
    out: list = []
    seen: set = set()
    for _ in range(n * 4):
        if len(out) >= n:
            break
        cand, _why = G.propose(problem, state, rng)
        if cand is None:
            continue
        key = G.map_digest(cand.map)
        if key in seen:
            continue
        seen.add(key)
        out.append(cand)
    return out


def footprint(m: MapFile) -> frozenset:
    """The pieces as outlines (rounded point sets, whatever the order of the points): a building
    turned by 180 degrees about its centre has the same footprint, and playing it would be waste."""
    from collections import Counter

    out: Counter = Counter()
    for p in m.pieces:
        g = E.geometry(m, ("piece", p.id))
        pts: list[tuple[float, float]] = []

        def keep(x, y, pts=pts):
            pts.append((round(x, 3), round(y, 3)))     # noted, and left where it is
            return (x, y)
        E.map_geometry(("piece", p.id), g, keep)
        out[(p.kind, tuple(sorted(set(pts))))] += 1
    return frozenset(out.items())


def change_size(f0: dict, f: dict, m0: MapFile, m: MapFile) -> float:
    """How much a candidate changes what the sight figures and the placements say: points of line
    of sight and of each side's hiding, inches of the longest lane / 3, and how far the changed
    placements' centres moved / 2 (a move through a maze changes play even when sight does not)."""
    size = abs(f.get("los", 0) - f0.get("los", 0)) + abs(f.get("lane", 0) - f0.get("lane", 0)) / 3
    for side in ("1", "2"):
        size += abs(((f.get("hide") or {}).get(side) or 0) - ((f0.get("hide") or {}).get(side) or 0))
    from .constraints import instance_of

    def centres(mm):
        groups: dict = {}
        for p in mm.pieces:
            groups.setdefault(instance_of(p), []).append(p)
        return {g: E.selection_centre(mm, [("piece", p.id) for p in ps]) for g, ps in groups.items()}

    a, b = centres(m0), centres(m)
    for g, (x, y) in b.items():
        if g in a:
            size += math.hypot(x - a[g][0], y - a[g][1]) / 2
    return size


def choose(problem, cands: list, base: MapFile, phi0: tuple, b: float, k: tuple, tests: int,
           rng: random.Random) -> list[tuple]:
    """(candidate, figures, predicted log-odds, how chosen) for the candidates to play: the
    ``tests - 1`` whose predicted log-odds lie nearest 0 (ties: the larger change first), then one
    at random; none that leaves the footprint as it was; each must pass reachability (the dearest
    check, asked only of these)."""
    from engine.table import Table

    from .reachability import reach_problems

    f0 = figures(problem, base)
    f0_full = full_figures(base)       # the limits hold on the designer's grid too
    fp0 = footprint(base)
    scored = []
    for c in cands:
        if footprint(c.map) == fp0:
            continue
        phi, f = screen(problem, c.map)
        if sight_breach(problem, f0, f):
            continue
        scored.append((round(abs(predict(b, k, phi, phi0)), 2), -change_size(f0, f, base, c.map), phi, f, c))
    order = sorted(range(len(scored)), key=lambda i: (scored[i][0], scored[i][1], i))
    picked: list[tuple] = []
    used = set()

    def ok(i):
        m = scored[i][4].map
        return (not sight_breach(problem, f0_full, full_figures(m))
                and not reach_problems(Table(m), problem.base_mm, limit=1))

    def pick(i, how):
        _, _, phi, f, c = scored[i]
        picked.append((c, f, predict(b, k, phi, phi0), how, phi))
        used.add(i)

    for i in order:
        if len(picked) >= max(tests - 1, 1 if tests == 1 else 0):
            break
        if ok(i):
            pick(i, "screened")
    rest = [i for i in range(len(scored)) if i not in used]
    rng.shuffle(rest)
    for i in rest:
        if len(picked) >= tests:
            break
        if ok(i):
            pick(i, "random")
    return picked


# ----------------------------------------------------------------------------- edits as data

def _dump(v):
    if hasattr(v, "model_dump"):
        return v.model_dump(mode="json", exclude_none=True)
    if isinstance(v, tuple):
        return [_dump(x) for x in v]
    return v


def edit_json(e: E.Edit) -> dict:
    """An edit command as JSON (moves, turns, reshapes of pieces, deletes, adds, compounds)."""
    if isinstance(e, E.Compound):
        return {"compound": [edit_json(x) for x in e.edits], "label": e.label}
    if isinstance(e, E.Move):
        return {"move": [list(k) for k in e.keys], "dx": e.dx, "dy": e.dy}
    if isinstance(e, E.Rotate):
        return {"rotate": [list(k) for k in e.keys], "degrees": e.degrees,
                "about": None if e.about is None else list(e.about)}
    if isinstance(e, E.SetGeometry):
        return {"set_geometry": [[list(k), _dump(g)] for k, g in e.items], "label": e.label}
    if isinstance(e, E.DeletePieces):
        return {"delete": list(e.ids)}
    if isinstance(e, E.AddPieces):
        return {"add": [_dump(p) for p in e.pieces], "at": None if e.at is None else list(e.at)}
    raise TypeError(f"no JSON form for {type(e).__name__}")


def edit_from_json(d: dict) -> E.Edit:
    from pydantic import TypeAdapter

    from engine.data.maps import Piece, Shape

    if "compound" in d:
        return E.Compound(tuple(edit_from_json(x) for x in d["compound"]), d.get("label", ""))
    if "move" in d:
        return E.Move(tuple(tuple(k) for k in d["move"]), d["dx"], d["dy"])
    if "rotate" in d:
        return E.Rotate(tuple(tuple(k) for k in d["rotate"]), d["degrees"],
                        None if d.get("about") is None else tuple(d["about"]))
    if "set_geometry" in d:
        # an Annotated union is a type form mypy cannot take as an argument (PEP 747); pydantic can
        shape: TypeAdapter[Shape] = TypeAdapter(Shape)  # type: ignore[arg-type]
        return E.SetGeometry(tuple((tuple(k), shape.validate_python(g)) for k, g in d["set_geometry"]), d.get("label", ""))
    if "delete" in d:
        return E.DeletePieces(tuple(d["delete"]))
    if "add" in d:
        return E.AddPieces(tuple(Piece.model_validate(p) for p in d["add"]),
                           None if d.get("at") is None else tuple(d["at"]))
    raise ValueError(f"not an edit command: {sorted(d)}")


def change_words(before: MapFile, after: MapFile, op: str, templates: dict) -> list[str]:
    """Which pieces moved where, in words: each placement (group, or lone piece) whose pieces
    changed, with its centre before and after."""
    from .constraints import instance_of

    def placements(m):
        out: dict = {}
        for p in m.pieces:
            out.setdefault(instance_of(p), []).append(p)
        return out

    def centre(m, ps):
        x0, y0, x1, y1 = E.selection_bounds(m, [("piece", p.id) for p in ps])
        return (x0 + x1) / 2, (y0 + y1) / 2

    def name(g, ps):
        t = templates.get(g)
        return f"{g.removeprefix('piece:')} ({t or ps[0].kind})"

    a, b = placements(before), placements(after)
    u = '"' if after.unit == "in" else f" {after.unit}"
    out = []
    for g, ps in a.items():
        if g not in b:
            cx, cy = centre(before, ps)
            out.append(f"removed {name(g, ps)} from ({cx:.1f}, {cy:.1f})")
        elif [p.shape for p in ps] != [p.shape for p in b[g]]:
            (x0, y0), (x1, y1) = centre(before, ps), centre(after, b[g])
            verb = "turned" if op == "rotate" else "moved"
            dist = math.hypot(x1 - x0, y1 - y0)
            out.append(f"{verb} {name(g, ps)} from ({x0:.1f}, {y0:.1f}) to ({x1:.1f}, {y1:.1f})"
                       + (f", {dist:.1f}{u}" if dist > 1e-6 else " in place"))
    for g, ps in b.items():
        if g not in a:
            cx, cy = centre(after, ps)
            out.append(f"placed {name(g, ps)} at ({cx:.1f}, {cy:.1f})")
    return out


