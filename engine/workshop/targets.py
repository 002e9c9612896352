"""What a generated layout aims at: sight figures with targets and weights, and the score that
measures how far a layout is from them.

The figures are the analysis's own (``analysis.py``, ``docs/workshop.md``), computed from one
visibility matrix on a grid of any step, without the parts of ``analyse`` a search does not
read (lanes list, halves, symmetry raster):

- ``los``: overall line of sight, % of the open table (``overall_los_pct``);
- ``hide``: each side's deployment-zone hideability, % (``dz_hideability_pct``); a target on it
  applies to both sides;
- ``hide_diff``: |side 1 - side 2| of that, in points;
- ``objectives``: each side's objective hidability, % (``objective_hidability_pct``);
- ``obj_diff``: |side 1 - side 2| of that, in points: 0 when both sides can hold the same share
  of the objectives unseen (0 also when neither side can hold any: ``obj_held`` says so);
- ``obj_held``: per side, how many objectives it can hold unseen (a count): ``obj_held>=1`` asks
  that each side have at least one, so fairness is never met by 0 against 0;
- ``lane``: the longest zone-to-zone sight line: the longest distance between an observer point
  of a side-1 zone and one of a side-2 zone that see each other (map units; 0 when none);
- ``lane_share``: the longest zone-to-zone sight line, leaving out the lines that run along one
  edge (both ends within ``EDGE_STRIP_MM``, 2", of the same edge: the default 1" edge gap, where
  no piece may stand, and an inch more), as % of the table's length (its longer side). A line
  that hugs an edge runs the whole length of any table (nothing may stand there to break it), so
  ``lane`` reads 58-63" on every 60" table; this figure leaves those lines out and measures what a
  layout can change, every other line at its full length. 100% is a lane as long as the table;
  the diagonal of a 60x44" table is 124%;
- ``longest``: the longest sight line anywhere, between any two observer points (map units; the
  analysis's longest lane);
- ``cover``: the share of the table under terrain footprints, % (``coverage_pct``);
- ``zone_cover``: per side, the share of the ground within 6" (15 cm) of its deployment zone,
  the zone included, under terrain that gives cover, %: somewhere to stand behind on arrival.

A target is ``NAME=V`` (aim at V), ``NAME<=V`` or ``NAME>=V`` (one-sided), with a weight and a
tolerance. The score is the sum over targets of weight x miss / scale, where miss is the distance
outside the target (for ``=``, |x - V|; a per-side figure: the mean of its two sides' misses) and
the scale is the metric's natural step (3 points, 3" or 7.5 cm). A layout **meets** the targets
when every miss is within its tolerance.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.data.maps import MM_PER

METRICS = {
    "los": "overall line of sight (% of the open table)",
    "hide": "each side's deployment-zone hideability (%)",
    "hide_diff": "difference between the two sides' zone hideability (points)",
    "objectives": "each side's objective hidability (%)",
    "obj_diff": "difference between the two sides' objective hidability (points)",
    "obj_held": "each side's count of objectives it can hold unseen",
    "lane": "longest zone-to-zone sight line (map units)",
    "lane_share": "longest zone-to-zone sight line not along one edge (% of the table's length)",
    "longest": "longest sight line anywhere (map units)",
    "cover": "terrain coverage (% of the table)",
    "zone_cover": "each side's cover within 6\" of its zone (% of that ground)",
}
PER_SIDE = {"hide", "objectives", "obj_held", "zone_cover"}
LENGTHS = {"lane", "longest"}
COUNTS = {"obj_held"}
DEFAULT_TOL = {"los": 3.0, "hide": 5.0, "hide_diff": 0.0, "objectives": 0.0, "obj_diff": 0.0, "obj_held": 0.0,
               "lane": 3.0, "lane_share": 3.0, "longest": 3.0, "cover": 3.0, "zone_cover": 3.0}
NEAR_ZONE_MM = 6 * 25.4
# ``lane_share`` leaves out the lines with both ends this close to one edge: they run inside the
# default edge gap (1", no piece stands in it, so a lane there can never be broken) or an inch more
EDGE_STRIP_MM = 2 * 25.4


def _scale(metric: str, unit: str) -> float:
    if metric in LENGTHS:
        return 3.0 if unit == "in" else 7.5 if unit == "cm" else 75.0
    if metric in COUNTS:
        return 1.0           # one objective
    return 3.0


@dataclass(frozen=True)
class Target:
    metric: str
    op: str              # "=", "<=", ">="
    value: float
    weight: float = 1.0
    tol: float | None = None      # None: DEFAULT_TOL (0 for a one-sided target)

    def tolerance(self) -> float:
        if self.tol is not None:
            return self.tol
        return 0.0 if self.op != "=" else DEFAULT_TOL.get(self.metric, 0.0)

    def miss(self, figures: dict) -> float:
        v = figures.get(self.metric)
        if v is None:
            return 0.0
        vals = [x for x in v.values() if x is not None] if isinstance(v, dict) else [v]
        if not vals:
            return 0.0
        return sum(self._miss1(x) for x in vals) / len(vals)

    def worst_miss(self, figures: dict) -> float:
        v = figures.get(self.metric)
        if v is None:
            return 0.0
        vals = [x for x in v.values() if x is not None] if isinstance(v, dict) else [v]
        return max((self._miss1(x) for x in vals), default=0.0)

    def _miss1(self, x: float) -> float:
        if self.op == "=":
            return abs(x - self.value)
        if self.op == "<=":
            return max(0.0, x - self.value)
        return max(0.0, self.value - x)

    def text(self) -> str:
        w = "" if self.weight == 1 else f" (weight {self.weight:g})"
        t = self.tolerance()
        tol = f" +-{t:g}" if self.op == "=" and t else ""
        return f"{self.metric} {self.op} {self.value:g}{tol}{w}"


_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_TARGET = re.compile(rf"^\s*([a-z_]+)\s*(<=|>=|=)\s*({_NUM})\s*(?:(?:\+-|±)\s*({_NUM}))?\s*(?:\*\s*({_NUM}))?\s*$")


def parse_target(text: str) -> Target:
    """``los=30``, ``los=30+-2``, ``hide_diff<=5``, ``cover=25*2`` (weight 2); ValueError with
    the reason otherwise."""
    mt = _TARGET.match(text or "")
    if not mt:
        raise ValueError(f"{text!r} is not a target: write NAME=V, NAME<=V or NAME>=V, optionally +-TOL "
                         f"and *WEIGHT (names: {', '.join(METRICS)})")
    name, op, val, tol, weight = mt.groups()
    if name not in METRICS:
        raise ValueError(f"{text!r}: no figure {name!r} (one of {', '.join(METRICS)})")
    try:
        v = float(val)
        t = None if tol is None else float(tol)
        w = 1.0 if weight is None else float(weight)
    except ValueError:
        raise ValueError(f"{text!r}: not a number") from None
    for what, x in (("value", v), ("tolerance", t), ("weight", w)):
        if x is not None and not math.isfinite(x):
            raise ValueError(f"{text!r}: the {what} must be a finite number")
    if not (0 < w <= 100):
        raise ValueError(f"{text!r}: a weight is above 0 and at most 100")
    if t is not None and not (0 <= t <= 1000):
        raise ValueError(f"{text!r}: a tolerance is between 0 and 1000")
    if name == "lane_share" and not (0 <= v <= 1000):
        raise ValueError(f"{text!r}: lane_share is a share of the table's length, 0 to 1000 %")
    if name in COUNTS and not (0 <= v <= 1000):
        raise ValueError(f"{text!r}: {name} is a number of objectives (0 to 1000)")
    if name not in LENGTHS | COUNTS | {"lane_share"} and not (0 <= v <= 100):
        raise ValueError(f"{text!r}: {name} is a percentage (0 to 100)")
    if name in LENGTHS and not (0 <= v <= 100_000):
        raise ValueError(f"{text!r}: a lane length is between 0 and 100,000 map units")
    return Target(name, op, v, w, t)


def score(figures: dict, targets, unit: str = "in", bias: dict | None = None, step: float = 0.0) -> float:
    """Weighted distance from the targets (0: every target hit exactly). ``bias`` is added to the
    figures first (the full grid's reading minus the coarse one's, see ``generate``). ``step``:
    added (times the weight) for each target missed beyond its tolerance, so that a layout that
    misses one target by a hair never scores better than one that meets them all."""
    f = with_bias(figures, bias)
    return float(sum(t.weight * (t.miss(f) / _scale(t.metric, unit)
                                 + (step if step and t.worst_miss(f) > t.tolerance() + 1e-9 else 0.0))
                     for t in targets))


def meets(figures: dict, targets, bias: dict | None = None) -> bool:
    f = with_bias(figures, bias)
    return all(t.worst_miss(f) <= t.tolerance() + 1e-9 for t in targets)


def with_bias(figures: dict, bias: dict | None) -> dict:
    """``figures`` with ``bias`` added: a number to a figure, or per side ({"1": b1, "2": b2}) to a
    per-side one; kept within the figure's range (a share 0 to 100, a lane 0 or more). The hide
    difference is never biased itself: it is |side 1 - side 2| of the biased hides, so it can
    come out 0 (issue 47: a +5.3 added to it could never be undone, and the search never stopped)."""
    if not bias:
        return figures
    out = dict(figures)
    for k, b in bias.items():
        v = out.get(k)
        if v is None or k == "hide_diff":
            continue
        if isinstance(v, dict):
            out[k] = {s: (None if x is None else _clamp(k, x + (b.get(s, 0.0) if isinstance(b, dict) else b)))
                      for s, x in v.items()}
        else:
            out[k] = _clamp(k, v + (sum(b.values()) / len(b) if isinstance(b, dict) else b))
    h = out.get("hide")
    if "hide" in bias and "hide_diff" in out and isinstance(h, dict) and None not in (h.get("1"), h.get("2")):
        out["hide_diff"] = round(abs(h["1"] - h["2"]), 2)
    return out


def _clamp(metric: str, v: float) -> float:
    return max(0.0, v) if metric in LENGTHS | COUNTS | {"lane_share"} else min(100.0, max(0.0, v))


def sight_figures(table, step_mm: float = 25.4, eye_mm: float | None = None, control_mm: float | None = None,
                  cover_rows: int = 4000, need=None, strip_mm: float = EDGE_STRIP_MM) -> dict:
    """The figures of ``METRICS`` for ``table`` on a ``step_mm`` grid (see the module note). At
    the analysis's grid they equal ``analyse``'s figures (a test holds them together). ``need``:
    only these figures (a search reads only the ones it has targets for); None: all."""
    need = set(METRICS) if need is None else set(need)
    from engine.table.heatmap import DEFAULT_EYE_MM
    from engine.table.measure import coverage

    from .analysis import DEFAULT_CONTROL_MM, _point_in_poly, open_grid, visibility_matrix

    eye = DEFAULT_EYE_MM if eye_mm is None else eye_mm
    control = DEFAULT_CONTROL_MM if control_mm is None else control_mm
    mf = table.mapfile
    k = MM_PER[mf.unit]
    g = open_grid(table, step_mm)
    n = len(g.pts)
    V = visibility_matrix(table, g.pts, eye)
    px, py = (g.pts[:, 0], g.pts[:, 1]) if n else (np.zeros(0), np.zeros(0))
    los = round(100 * float((V.sum(axis=1) - 1).mean()) / (n - 1), 2) if n > 1 else 0.0
    zones = {}
    for side in (1, 2):
        m = np.zeros(n, dtype=bool)
        for z in mf.deployment:
            if z.side == side:
                m |= _point_in_poly(px, py, [(x * k, y * k) for x, y in z.points])
        zones[side] = np.nonzero(m)[0]
    hide, objs = {}, {}
    hidden: dict[int, Any] = {}    # (n,) bool arrays: numpy's stubs allow a scalar for ~V.any(axis=1)
    for side, other in ((1, 2), (2, 1)):
        a, b = zones[side], zones[other]
        hidden[side] = ~V[:, b].any(axis=1) if len(b) else np.zeros(n, dtype=bool)
        hide[str(side)] = round(100 * float(hidden[side][a].sum()) / len(a), 2) if len(a) and len(b) else None
    no = len(mf.objectives) if need & {"objectives", "obj_diff", "obj_held"} else 0
    held = {}
    for side in (1, 2):
        cnt = 0
        for o in mf.objectives[:no]:
            near = (px - o.at[0] * k) ** 2 + (py - o.at[1] * k) ** 2 <= control ** 2
            cnt += bool((hidden[side] & near).any())
        objs[str(side)] = round(100 * cnt / no, 2) if no else None
        held[str(side)] = cnt if no else None
    z1, z2 = zones[1], zones[2]
    lane, lane_at, share, share_at = 0.0, None, 0.0, None
    if len(z1) and len(z2) and need & {"lane", "lane_share"}:
        sub = V[np.ix_(z1, z2)]
        d2 = np.where(sub, (px[z1, None] - px[None, z2]) ** 2 + (py[z1, None] - py[None, z2]) ** 2, -1.0)
        if "lane" in need and sub.any():
            i, j = np.unravel_index(int(d2.argmax()), d2.shape)
            lane = round(float(np.sqrt(d2[i, j])) / k, 2)
            # where it runs (map units): the generator's "block" move aims at it
            lane_at = tuple(round(float(v) / k, 3) for v in (px[z1[i]], py[z1[i]], px[z2[j]], py[z2[j]]))
        if "lane_share" in need:
            W, H = table.width, table.height
            d2c = np.where(along_one_edge(px, py, z1, z2, W, H, strip_mm), -1.0, d2)
            if (d2c >= 0).any():
                i, j = np.unravel_index(int(d2c.argmax()), d2c.shape)
                share = round(100 * float(np.sqrt(d2c[i, j])) / max(W, H), 2)
                share_at = tuple(round(float(v) / k, 3) for v in (px[z1[i]], py[z1[i]], px[z2[j]], py[z2[j]]))
    longest = 0.0
    if n > 1 and "longest" in need:
        best = 0.0
        for i0 in range(0, n, 512):          # rows of the matrix in blocks: no (n, n) float array
            d2 = (px[i0:i0 + 512, None] - px[None, :]) ** 2 + (py[i0:i0 + 512, None] - py[None, :]) ** 2
            seen = V[i0:i0 + 512]
            if seen.any():
                best = max(best, float(d2[seen].max()))
        longest = round(math.sqrt(best) / k, 2)
    h1, h2 = hide["1"], hide["2"]
    o1, o2 = objs["1"], objs["2"]
    out = {
        "los": los,
        "hide": hide,
        "hide_diff": None if h1 is None or h2 is None else round(abs(h1 - h2), 2),
        "objectives": objs,
        "obj_diff": None if o1 is None or o2 is None else round(abs(o1 - o2), 2),
        "obj_held": held,
        "lane": lane,
        "lane_share": share,
        "longest": longest,
        "cover": round(100 * coverage(table, rows=cover_rows), 2) if "cover" in need else None,
        "zone_cover": zone_cover(table, step_mm) if "zone_cover" in need else None,
    }
    out = {k: v for k, v in out.items() if k in need}
    if lane_at is not None:
        out["lane_at"] = lane_at
    if share_at is not None:
        out["lane_share_at"] = share_at
    out["points"] = int(n)
    return out


LANE_SOURCES = 32       # sources cast together by ``long_lane``


def along_one_edge(px, py, a, b, W: float, H: float, strip_mm: float) -> np.ndarray:
    """(len(a), len(b)) bool: points a_i and b_j both lie within ``strip_mm`` of the same edge of
    a W x H table, so the line between them runs along that edge, inside the strip."""
    xa, ya, xb, yb = px[a, None], py[a, None], px[None, b], py[None, b]
    s = strip_mm
    return (((xa < s) & (xb < s)) | ((xa > W - s) & (xb > W - s))
            | ((ya < s) & (yb < s)) | ((ya > H - s) & (yb > H - s)))


def long_lane(table, step_mm: float, floor_mm: float, strip_mm: float = 0.0, eye_mm: float | None = None
              ) -> tuple[float, tuple | None]:
    """The longest zone-to-zone sight line longer than ``floor_mm`` between the open points of a
    ``step_mm`` grid in the two zones (not along one edge within ``strip_mm``): (its length in mm,
    its ends (x0, y0, x1, y1) in mm), or (0.0, None) when no such line is longer. Only the pairs
    farther apart than the floor are cast, so the generator reads the full grid's lane wherever a
    lane target is missed, at a fraction of the full matrix's cost (issue 62: the coarse grid's
    lane was 2-7% of the table's length short of the full grid's, a different amount per layout)."""
    from engine.table.heatmap import DEFAULT_EYE_MM

    from .analysis import _point_in_poly, cross_visibility, open_grid

    mf = table.mapfile
    k = MM_PER[mf.unit]
    g = open_grid(table, step_mm)
    if not len(g.pts):
        return 0.0, None
    px, py = g.pts[:, 0], g.pts[:, 1]
    W, H = table.width, table.height
    idx = []
    for side in (1, 2):
        m = np.zeros(len(px), dtype=bool)
        for z in mf.deployment:
            if z.side == side:
                m |= _point_in_poly(px, py, [(x * k, y * k) for x, y in z.points])
        idx.append(np.nonzero(m)[0])
    a, b = idx
    if not len(a) or not len(b):
        return 0.0, None
    d2 = (px[a, None] - px[None, b]) ** 2 + (py[a, None] - py[None, b]) ** 2
    far = d2 > floor_mm ** 2
    if strip_mm > 0:
        far &= ~along_one_edge(px, py, a, b, W, H, strip_mm)
    ra = far.any(axis=1)
    if not ra.any():
        return 0.0, None
    a, d2, far = a[ra], d2[ra], far[ra]
    eye = DEFAULT_EYE_MM if eye_mm is None else eye_mm
    # sources a few at a time, those with the farthest partners first, each against only its
    # far partners: a group that cannot beat the longest line found is never cast
    reach = np.where(far, d2, -1.0).max(axis=1)
    order = np.argsort(-reach, kind="stable")
    best, ends = -1.0, None
    for c0 in range(0, len(order), LANE_SOURCES):
        rows = order[c0:c0 + LANE_SOURCES]
        if reach[rows[0]] <= best:
            break
        cols = np.nonzero(far[rows].any(axis=0))[0]
        V = cross_visibility(table, g.pts[a[rows]], g.pts[b[cols]], eye)
        seen = np.where(V & far[np.ix_(rows, cols)], d2[np.ix_(rows, cols)], -1.0)
        i, j = np.unravel_index(int(seen.argmax()), seen.shape)
        if seen[i, j] > best:
            best, ends = float(seen[i, j]), (a[rows[i]], b[cols[j]])
    if ends is None:
        return 0.0, None
    i, j = ends
    return float(np.sqrt(best)), (float(px[i]), float(py[i]), float(px[j]), float(py[j]))


def zone_cover(table, step_mm: float = 25.4) -> dict:
    """Per side: the share (%) of the cells of a ``step_mm`` grid within ``NEAR_ZONE_MM`` of the
    side's zones (inside them too) whose centre lies under a piece that gives cover."""
    from .analysis import _distance_to_polygon, _inside_part, grid_shape

    mf = table.mapfile
    k = MM_PER[mf.unit]
    cols, rows = grid_shape(table.width, table.height, step_mm)
    xs = (np.arange(cols) + 0.5) * (table.width / cols)
    ys = (np.arange(rows) + 0.5) * (table.height / rows)
    gx, gy = np.meshgrid(xs, ys)
    covered = np.zeros(gx.shape, dtype=bool)
    for p in table.pieces:
        if p.cover == "none":
            continue
        for part in p.parts:
            x0, y0, x1, y1 = part.bbox
            sel = (gx >= x0) & (gx <= x1) & (gy >= y0) & (gy <= y1)
            if sel.any():
                covered[sel] |= _inside_part(part, gx[sel], gy[sel])
    out = {}
    for side in (1, 2):
        near = np.zeros(gx.shape, dtype=bool)
        for z in mf.deployment:
            if z.side == side:
                near |= _distance_to_polygon(gx, gy, [(x * k, y * k) for x, y in z.points]) <= NEAR_ZONE_MM
        out[str(side)] = round(100 * float(covered[near].sum()) / int(near.sum()), 2) if near.any() else None
    return out
