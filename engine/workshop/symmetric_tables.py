"""Exactly symmetric tables, made from real ones: the ground of the fairness self-test.

``symmetrized(map, transform)`` keeps what lies wholly on side 1's half of a table (the half
holding side 1's zone, cut by the line through the table's middle square to the line between the
two zones' middles) and adds its image under the transform (``point``: the half turn about the
table's middle; ``mirror_x`` / ``mirror_y``: the mirror that swaps the zones). Side 2's zone is
side 1's image; objectives and evacuation points on side 1's half get their images, and one on
the dividing line is kept only when its image is itself or another marker on the line. On such a table nothing but chance, the
agents and the code can favour a zone: a self-test that finds a zone effect has found a bias in
the deployment or the agents (docs/workshop.md, "The fairness self-test").
"""
from __future__ import annotations

from engine.data.maps import MapFile

from .shapes import mirror, mirror_fn, vertices

TOLERANCE = 1e-6


def _half(mf: MapFile):
    """side(x, y) > 0 on side 1's half of the table."""
    cx, cy = mf.width / 2, mf.height / 2

    def middle(side):
        z = next(z for z in mf.deployment if z.side == side)
        return sum(p[0] for p in z.points) / len(z.points), sum(p[1] for p in z.points) / len(z.points)

    (ax, ay), (bx, by) = middle(1), middle(2)
    dx, dy = ax - bx, ay - by
    return lambda x, y: (x - cx) * dx + (y - cy) * dy


def swapping_transforms(mf: MapFile) -> list[str]:
    """The transforms that carry side 1's zone's middle onto side 2's (within a hundredth of the
    map's unit): the symmetries a fair table of this shape can have."""
    f1 = next(z for z in mf.deployment if z.side == 1)
    f2 = next(z for z in mf.deployment if z.side == 2)
    m1 = (sum(p[0] for p in f1.points) / len(f1.points), sum(p[1] for p in f1.points) / len(f1.points))
    m2 = (sum(p[0] for p in f2.points) / len(f2.points), sum(p[1] for p in f2.points) / len(f2.points))
    out = []
    for name in ("point", "mirror_x", "mirror_y"):
        x, y = mirror_fn(name, mf.width, mf.height)(*m1)
        if abs(x - m2[0]) < 0.01 and abs(y - m2[1]) < 0.01:
            out.append(name)
    return out


def symmetrized(mf: MapFile, transform: str, suffix: str | None = None) -> MapFile:
    """``mf`` made exactly symmetric under ``transform`` from side 1's half (see the module)."""
    if transform not in swapping_transforms(mf):
        raise ValueError(f"{transform} does not swap the zones of {mf.id}")
    side = _half(mf)
    f = mirror_fn(transform, mf.width, mf.height)
    pieces = []
    for p in mf.pieces:
        if all(side(x, y) > TOLERANCE for x, y in _outline(p.shape)):
            pieces.append(p)
            pieces.append(p.model_copy(update={"id": p.id + "-image", "shape": mirror(p.shape, transform, mf.width, mf.height)}))
    zone1 = next(z for z in mf.deployment if z.side == 1)
    zone2 = zone1.model_copy(update={"side": 2, "points": [f(x, y) for x, y in zone1.points]})

    def markers(items):
        out = []
        on_line = [m for m in items if abs(side(*m.at)) <= TOLERANCE]
        for m in items:
            s = side(*m.at)
            if s > TOLERANCE:
                out += [m, m.model_copy(update={"id": m.id + "-image", "at": f(*m.at)})]
            elif abs(s) <= TOLERANCE:
                ix, iy = f(*m.at)   # kept when its image is itself or another marker on the line
                if any(abs(ix - o.at[0]) < 0.01 and abs(iy - o.at[1]) < 0.01 for o in on_line):
                    out.append(m)
        return out

    name = suffix or transform.replace("_", "-")
    return mf.model_copy(update={
        "id": f"{mf.id}-{name}", "name": f"{mf.name} ({transform.replace('_', ' ')} of its side-1 half)",
        "pieces": pieces, "deployment": [zone1, zone2], "objectives": markers(mf.objectives),
        "evac_points": markers(mf.evac_points)[:2] if mf.evac_points else []})


def _outline(shape):
    """Points whose being on one side puts the whole shape there (a circle's four extremes)."""
    from engine.data.maps import CircleShape, WallShape

    if isinstance(shape, CircleShape):
        (x, y), r = shape.center, shape.radius
        return [(x - r, y), (x + r, y), (x, y - r), (x, y + r)]
    if isinstance(shape, WallShape):
        t = shape.thickness
        return [(x + dx, y + dy) for x, y in vertices(shape) for dx in (-t, t) for dy in (-t, t)]
    return vertices(shape)
