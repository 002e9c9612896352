"""Plane geometry of map items for the editor's commands: move, turn, scale and mirror a piece's
shape, a marker or a zone, in the map's own unit and frame (x right, y up, angles counter-clockwise).

Every function returns a new value and never changes its argument (shapes are frozen pydantic
models). Turns by a multiple of 90 degrees use exact sines and cosines, so turning a piece four
times by 90 degrees gives back its very coordinates; other angles round as floats do.
"""
from __future__ import annotations

import math

from engine.data.maps import CircleShape, PolygonShape, WallShape, shape_bounds

MODES = ("mirror_x", "mirror_y", "point")      # the symmetries of a rectangle the editor keeps


def cos_sin(degrees: float) -> tuple[float, float]:
    q, r = divmod(degrees, 90.0)
    if r == 0.0:
        return [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][int(q) % 4]
    a = math.radians(degrees)
    return math.cos(a), math.sin(a)


def map_point(p, f) -> tuple[float, float]:
    x, y = f(float(p[0]), float(p[1]))
    return (x, y)


def transform_shape(shape, f, radius_factor: float = 1.0, thickness_factor: float = 1.0):
    """``shape`` with every point sent through ``f(x, y) -> (x, y)``; a circle's radius and a
    wall's thickness are multiplied by the factors given."""
    if isinstance(shape, PolygonShape):
        return PolygonShape.model_construct(type="polygon", points=[map_point(p, f) for p in shape.points])
    if isinstance(shape, CircleShape):
        return CircleShape.model_construct(type="circle", center=map_point(shape.center, f),
                                           radius=shape.radius * radius_factor)
    return WallShape.model_construct(type="wall", a=map_point(shape.a, f), b=map_point(shape.b, f),
                                     thickness=shape.thickness * thickness_factor)


def translate(shape, dx: float, dy: float):
    return transform_shape(shape, lambda x, y: (x + dx, y + dy))


def rotate(shape, degrees: float, about: tuple[float, float]):
    c, s = cos_sin(degrees)
    ax, ay = about

    def f(x, y):
        u, v = x - ax, y - ay
        return (ax + u * c - v * s, ay + u * s + v * c)
    return transform_shape(shape, f)


def scale(shape, sx: float, sy: float, about: tuple[float, float]):
    """Scaled about ``about`` (a circle's radius by the mean factor; a wall keeps its
    thickness: scaling a fence run makes it longer, not fatter)."""
    ax, ay = about
    return transform_shape(shape, lambda x, y: (ax + (x - ax) * sx, ay + (y - ay) * sy),
                           radius_factor=(abs(sx) + abs(sy)) / 2)


def mirror_fn(mode: str, width: float, height: float):
    """The point map of a symmetry of the ``width`` x ``height`` table."""
    if mode == "mirror_x":
        return lambda x, y: (width - x, y)
    if mode == "mirror_y":
        return lambda x, y: (x, height - y)
    if mode == "point":
        return lambda x, y: (width - x, height - y)
    raise ValueError(f"unknown symmetry {mode!r} (one of {', '.join(MODES)})")


def mirror(shape, mode: str, width: float, height: float):
    return transform_shape(shape, mirror_fn(mode, width, height))


def bounds(shape) -> tuple[float, float, float, float]:
    return shape_bounds(shape)


def centre(shape) -> tuple[float, float]:
    """The centre of the shape's bounding box: where it turns and scales about."""
    x0, y0, x1, y1 = shape_bounds(shape)
    return ((x0 + x1) / 2, (y0 + y1) / 2)


def vertices(shape) -> list[tuple[float, float]]:
    """The points a user can drag: a polygon's corners, a wall's two ends, a circle's centre."""
    if isinstance(shape, PolygonShape):
        return [(x, y) for x, y in shape.points]
    if isinstance(shape, WallShape):
        return [(shape.a[0], shape.a[1]), (shape.b[0], shape.b[1])]
    return [tuple(shape.center)]


def with_vertex(shape, index: int, to: tuple[float, float]):
    """The shape with vertex ``index`` moved to ``to`` (see ``vertices``)."""
    to = (float(to[0]), float(to[1]))
    if isinstance(shape, PolygonShape):
        pts = [(x, y) for x, y in shape.points]
        pts[index] = to
        return PolygonShape.model_construct(type="polygon", points=pts)
    if isinstance(shape, WallShape):
        if index not in (0, 1):
            raise IndexError(index)
        return WallShape.model_construct(type="wall", a=to if index == 0 else (shape.a[0], shape.a[1]),
                                         b=to if index == 1 else (shape.b[0], shape.b[1]), thickness=shape.thickness)
    if index != 0:
        raise IndexError(index)
    return CircleShape.model_construct(type="circle", center=to, radius=shape.radius)


def bounds_of(boxes) -> tuple[float, float, float, float] | None:
    boxes = list(boxes)
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def points_bounds(pts) -> tuple[float, float, float, float]:
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def rect(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    """A rectangle's corners, counter-clockwise from the lower left."""
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def same_shape(a, b, tol: float) -> bool:
    """Whether two shapes cover the same ground within ``tol`` (a polygon's vertices in any
    order and from any start; a wall's ends either way round)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, CircleShape):
        return (abs(a.radius - b.radius) <= tol and abs(a.center[0] - b.center[0]) <= tol
                and abs(a.center[1] - b.center[1]) <= tol)
    if isinstance(a, WallShape):
        if abs(a.thickness - b.thickness) > tol:
            return False
        ends = ((a.a, a.b), (a.b, a.a))
        return any(_close(p, b.a, tol) and _close(q, b.b, tol) for p, q in ends)
    if len(a.points) != len(b.points):
        return False
    pa = sorted((float(x), float(y)) for x, y in a.points)
    pb = sorted((float(x), float(y)) for x, y in b.points)
    if all(_close(p, q, tol) for p, q in zip(pa, pb)):
        return True
    # points that differ by less than tol in x can sort either way: match greedily instead
    left = list(pb)
    for p in pa:
        k = next((i for i, q in enumerate(left) if _close(p, q, tol)), None)
        if k is None:
            return False
        left.pop(k)
    return True


def _close(p, q, tol: float) -> bool:
    return abs(p[0] - q[0]) <= tol and abs(p[1] - q[1]) <= tol
