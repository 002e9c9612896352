"""Positions, paths, climbing, walking, straight moves, distances, coverage (hand-computed)."""
import math

import pytest
from table_fixtures import box, circle, make_map, model, poly, table, wall

from engine.data.errors import DataError
from engine.table import Base, Table
from engine.table.movement import HARD

R = 12.5


def taut_length(start, corners, goal, r, left=False):
    """Length of a string from start round circles of radius r at ``corners`` to goal: tangents
    plus arcs. All turns clockwise (obstacle on the right), or all counter-clockwise if ``left``."""
    s = -1 if left else 1
    total = 0.0
    headings = []
    # start -> first circle (the circle is on the right: rotate the direction left by asin(r/d))
    c = corners[0]
    d = math.dist(start, c)
    total += math.sqrt(d * d - r * r)
    headings.append(math.atan2(c[1] - start[1], c[0] - start[0]) + s * math.asin(r / d))
    for c0, c1 in zip(corners, corners[1:]):          # equal circles: outer tangent is parallel
        total += math.dist(c0, c1)
        headings.append(math.atan2(c1[1] - c0[1], c1[0] - c0[0]))
    c = corners[-1]
    d = math.dist(goal, c)
    total += math.sqrt(d * d - r * r)
    headings.append(math.atan2(goal[1] - c[1], goal[0] - c[0]) - s * math.asin(r / d))
    for h0, h1 in zip(headings, headings[1:]):
        turn = (s * (h0 - h1)) % (2 * math.pi)
        total += r * turn
    return total


def assert_clear(t, path, r):
    for a, b in zip(path.points, path.points[1:]):
        assert t.space.segment_query_first(a[:2], b[:2], r - 0.05, HARD) is None


def test_load_and_units(tmp_path):
    t = table([box("b", "building", 1, 1, 3, 2, height=4)], width=48, height=36, unit="in")
    assert t.width == pytest.approx(48 * 25.4) and t.height == pytest.approx(36 * 25.4)
    p = t.pieces[0]
    assert p.height == pytest.approx(4 * 25.4)            # map unit, converted
    assert p.parts[0].bbox == pytest.approx((25.4, 25.4, 76.2, 50.8))
    t2 = table([box("b", "building", 1, 1, 3, 2)], unit="in", width=48, height=36)
    assert t2.pieces[0].height == 100.0                   # kind default, already mm
    assert t.to_mm(2, "in") == pytest.approx(50.8) and t.from_mm(50.8, "cm") == pytest.approx(5.08)
    f = tmp_path / "m.json"
    f.write_text(make_map([box("b", "building", 0, 0, 10, 10)]).model_dump_json())
    assert len(Table.load(f).pieces) == 1
    f.write_text("{}")
    with pytest.raises(DataError):
        Table.load(f)
    assert [q.id for q in t.pieces_at(50, 40)] == ["b"] and t.pieces_at(500, 500) == []


def test_path_round_an_L_shaped_building():
    L = [(300, 200), (700, 200), (700, 300), (400, 300), (400, 600), (300, 600)]
    t = table([poly("L", "building", L, name="Warehouse")])
    start, goal = (712.5, 100.0), (500.0, 312.5)
    # up along x = 712.5 (200 mm), round the corner (700, 300) (a quarter circle of radius 12.5),
    # then along y = 312.5 to the goal in the notch (200 mm)
    exact = 200 + math.pi / 2 * R + 200
    p = t.find_path(start, goal, R)
    assert p is not None
    assert p.points[0][:2] == start and p.points[-1][:2] == goal
    assert exact - 0.01 <= p.length <= exact + 1.0       # documented corner approximation (~2%)
    assert p.vertical == 0 and p.length == pytest.approx(p.horizontal)
    assert_clear(t, p, R)
    # from straight below the building: round both corners (700, 200) and (700, 300)
    start2 = (500.0, 100.0)
    exact2 = taut_length(start2, [(700, 200), (700, 300)], goal, R, left=True)
    assert exact2 == pytest.approx(557.43, abs=0.01)     # 223.26 + 100 + 200 + 12.5 * 156.64 deg
    p2 = t.find_path(start2, goal, R)
    assert exact2 - 0.01 <= p2.length <= exact2 + 1.5
    assert_clear(t, p2, R)
    # an impossible goal
    assert t.find_path(start, (350, 400), R) is None


def test_climbing_counts_up_and_down():
    low = table([wall("w", "wall", (500, 0), (500, 700), 10, name="Wall")])       # 25 mm, climbable
    p = low.find_path((400, 200), (600, 200), R)
    assert len(p.points) == 2                          # straight over
    assert p.horizontal == pytest.approx(200) and p.vertical == pytest.approx(50)
    assert p.length == pytest.approx(250)
    # a 300 mm climbable wall, 500 long: over would cost 200 + 600 = 800. Round its end: a base may
    # overlap a climbable piece while it moves (only its centre line pays the height), so the
    # shortest way round has the centre graze the two corners (495, 500) and (505, 500):
    # 2 * hypot(95, 300) + 10. (Keeping the whole base off the wall, 671.46, is 32 mm longer.)
    high = table([wall("w", "wall", (500, 0), (500, 500), 10, height=300)])
    around = 2 * math.hypot(95, 300) + 10
    assert around == pytest.approx(639.36, abs=0.01)
    assert taut_length((400, 200), [(495, 500), (505, 500)], (600, 200), R) == pytest.approx(671.46, abs=0.01)
    assert around < 800 and around > 200 + 300      # counting only the way up (500) would go over
    p = high.find_path((400, 200), (600, 200), R)
    assert p.vertical == 0 and around - 0.01 <= p.length <= around + 0.5


def test_walk_pays_for_climbs_and_backs_off():
    t = table([wall("w", "wall", (500, 0), (500, 700), 10, name="Wall")])
    p = t.find_path((400, 200), (600, 200), R)
    # 95 to the wall, 25 up, 10 across, 25 down, then horizontal
    assert t.walk(p, 220, R) == pytest.approx((570, 200, 0))
    assert t.walk(p, 125, R) == pytest.approx((500, 200, 25))        # standing on top of the wall
    # 110 cannot pay the climb: it would stop at the wall's foot, half over it: back off to contact
    x, y, z = t.walk(p, 110, R)
    assert x == pytest.approx(495 - R, abs=0.05) and y == 200 and z == 0
    assert t.walk(p, 1000, R) == pytest.approx((600, 200, 0))
    # a model standing on the path: back off to base contact
    blocker = model("m", 450, 200)
    q = t.path_of([(300, 200), (600, 200)])
    x, _, _ = t.walk(q, 140, R, others=[blocker])
    assert x == pytest.approx(450 - 2 * R, abs=0.05)
    assert t.walk(q, 140, R, others=[blocker], ignore=("m",))[0] == pytest.approx(440)


def test_paths_avoid_models():
    t = table([])
    m = model("m", 500, 400)
    p = t.find_path((300, 400), (700, 400), R, others=[m])
    # round a circle of radius 25 (centre to centre): two tangents + an arc
    d, rr = 200.0, 2 * R
    tang = math.sqrt(d * d - rr * rr)
    exact = 2 * tang + rr * 2 * math.asin(rr / d)
    assert exact - 0.01 <= p.length <= exact + 1.0
    assert t.find_path((300, 400), (700, 400), R, others=[m], ignore=["m"]).length == pytest.approx(400)
    assert t.find_path((300, 400), (500, 410), R, others=[m]) is None      # goal overlaps the model


def test_kept_paths_answer_only_the_same_question():
    """Table.find_path keeps its answers: asked again with the same arguments it hands back the
    same Path; a moved model, another radius, an ignore list or a length bound is another
    question, answered afresh as movement.find_path answers it."""
    from engine.table import movement

    t = table([box("b", "building", 450, 520, 550, 600)])
    m = model("m", 500, 400)                      # on the straight line: the path goes round it
    first = t.find_path((300, 400), (700, 400), R, others=[m])
    assert first.length > 400.5
    assert t.find_path((300.0, 400.0), [700, 400], R, others=(m,)) is first
    for args, kw in [(((300, 400), (700, 400), R), {"others": [model("m", 500, 700)]}),   # out of the way
                     (((300, 400), (700, 400), R + 5), {"others": [m]}),
                     (((300, 400), (700, 400), R), {"others": [m], "ignore": ["m"]}),
                     (((300, 400), (700, 400), R), {"others": [m], "max_length": 300.0})]:
        got = t.find_path(*args, **kw)
        want = movement.find_path(t, *args, **kw)
        assert (got is None and want is None) or got == want
    assert t.find_path((300, 400), (700, 400), R, others=[model("m", 500, 700)]).length == pytest.approx(400)
    assert t.find_path((300, 400), (700, 400), R, others=[m], max_length=300.0) is None   # too short a bound


def test_straight_move_stops_at_walls_models_and_edges():
    t = table([wall("w", "wall", (505, 0), (505, 800), 10, name="Garden wall"),
               box("b", "barrel", 700, 380, 740, 420, name="Barrel")])
    b = model("a", 300, 400)
    m = t.straight_move(b, 0, 500)
    assert m.stopped_by == "Garden wall"
    assert m.x == pytest.approx(500 - R, abs=0.02) and m.travelled == pytest.approx(200 - R, abs=0.02)
    # allowed to jump 30 mm: over the wall (25 mm) and the barrel (28 mm)
    m = t.straight_move(b, 0, 500, max_climb=30)
    assert m.stopped_by is None and m.x == pytest.approx(800) and m.travelled == pytest.approx(500)
    # ending on the barrel (not climbable): back off to a legal spot in front of it
    m = t.straight_move(b, 0, 420, max_climb=30)
    assert 700 - R - 0.5 <= m.x <= 700 - R and t.position_problem(m.x, m.y, R) is None
    # a model in the way
    m = t.straight_move(b, 0, 500, others=[model("x", 400, 400)])
    assert m.stopped_by == "x" and m.x == pytest.approx(400 - 2 * R, abs=0.02)
    # the table edge
    m = t.straight_move(b, 180, 500)
    assert m.stopped_by == "the table edge" and m.x == pytest.approx(R)
    # backwards away from a wall it touches
    c = model("c", 500 - R, 400)
    assert t.straight_move(c, 180, 100).travelled == pytest.approx(100)
    assert t.straight_move(c, 0, 100).travelled == 0


def test_position_problems():
    t = table([box("s", "building", 100, 100, 300, 300, name="General Store"),
               wall("w", "wall", (500, 0), (500, 400), 20),
               circle("wd", "woods", (800, 600), 80)])
    assert t.position_problem(500, 500, R) is None
    assert t.position_problem(5, 500, R) == "off the table"
    assert t.position_problem(995, 400, R) == "off the table"
    assert t.position_problem(R, R, R) is None
    assert t.position_problem(310, 200, R) == "overlaps the General Store"
    assert t.position_problem(300 + R, 200, R) is None                   # touching is fine
    assert t.position_problem(500, 200, R) is None                       # on top of the wall
    assert t.position_problem(515, 200, R) == "overlaps the wall w"      # half over it
    assert t.position_problem(800, 600, R) is None                       # in the woods
    others = [model("m1", 520, 500)]
    assert t.position_problem(500, 500, R, others) == "overlaps m1"
    assert t.position_problem(500, 500, R, others, ignore=["m1"]) is None
    assert t.position_problem(520 - 2 * R, 500, R, others) is None


def _nearest_clear(t, x, y, r, others=()):
    ok = [q for q in t.clearance_candidates(x, y, r, others, reach=200)
          if t.position_problem(*q, r, others) is None]
    return min(ok, key=lambda q: math.hypot(q[0] - x, q[1] - y)) if ok else None


def test_clearance_candidates_give_the_exact_nearest_clear_point():
    """Hand-computed: the nearest point where a 12.5 mm base stops overlapping a building, a
    base, two bases, a table edge."""
    t = table([box("s", "building", 100, 100, 300, 300)])
    # 10 mm inside the building's east face: 22.5 mm east, to x = 300 + 12.5
    q = _nearest_clear(t, 290, 200, R)
    assert q == pytest.approx((300 + R, 200), abs=0.01)
    # near a corner, outside the box but within R of it: straight away from the corner
    q = _nearest_clear(t, 305, 305, R)
    d = R / math.sqrt(2)
    assert q == pytest.approx((300 + d, 300 + d), abs=0.01)
    # one base (radius 12.5) 10 mm east: 15 mm further west
    q = _nearest_clear(t, 600, 500, R, [model("m", 610, 500)])
    assert q == pytest.approx((585, 500), abs=0.01)
    # between two bases 40 mm apart: where the 25 mm circles round them cross, sqrt(25^2 - 20^2) = 15
    two = [model("a", 580, 500), model("b", 620, 500)]
    q = _nearest_clear(t, 600, 500, R, two)
    assert q[0] == pytest.approx(600, abs=0.01) and abs(q[1] - 500) == pytest.approx(15, abs=0.01)
    # 5 mm from the west edge: clamped to x = R
    assert _nearest_clear(t, 5, 500, R) == pytest.approx((R, 500), abs=0.01)


def test_distances():
    t = table([])
    a, b = Base("a", 0, 0, 12.5, 30), Base("b", 100, 0, 20, 30)
    assert t.distance(a, b) == pytest.approx(67.5) == t.distance(b, a)
    assert t.distance(a, a.moved(10, 0)) == 0.0
    c = Base("c", 30, 40, 12.5, 30)
    assert t.distance(a, c) == pytest.approx(25.0)
    assert t.distance_to_point(a, 30, 40) == pytest.approx(37.5)
    assert t.distance_to_point(a, 1, 1) == 0.0
    assert a.moved(1, 2, z=3).z == 3 and a.moved(1, 2).facing == a.facing


def test_coverage_of_a_known_layout():
    t = table([box("a", "building", 100, 100, 200, 200),
               box("b", "building", 150, 150, 250, 250),          # overlaps a by 50 x 50
               circle("c", "woods", (600, 400), 50),
               box("d", "crate", -50, 500, 50, 600),               # half off the table
               poly("L", "ruin", [(700, 100), (900, 100), (900, 150), (750, 150), (750, 300), (700, 300)])])
    expected = (100 * 100 * 2 - 50 * 50) + math.pi * 50 ** 2 + 50 * 100 + (200 * 50 + 50 * 150)
    assert t.coverage() == pytest.approx(expected / (1000 * 800), rel=1e-4)
    assert table([]).coverage() == 0.0


def test_table_never_imports_pygame():
    import subprocess
    import sys
    code = "import sys, engine.table; assert 'pygame' not in sys.modules"
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_table_is_shared_not_copied():
    import copy
    import pickle
    t = table([box("b", "building", 0, 0, 100, 100)])
    assert copy.deepcopy(t) is t and copy.copy(t) is t
    t2 = pickle.loads(pickle.dumps(t))
    assert t2.mapfile == t.mapfile and t2.pieces == t.pieces


def test_max_length_prunes_but_keeps_the_same_shortest_path():
    """find_path with max_length gives the same path as without when it is short enough,
    and None when the shortest path is longer than max_length."""
    import random

    from engine.paths import MAPS_DIR
    from engine.table import Base, Table

    t = Table.load(MAPS_DIR / "town.json")
    rng = random.Random(4)
    bases = []
    while len(bases) < 12:
        x, y = rng.uniform(0, t.width), rng.uniform(0, t.height)
        if t.position_problem(x, y, 12.5, bases) is None:
            bases.append(Base(f"m{len(bases)}", x, y, 12.5, 30.0))
    checked = 0
    for i in range(150):
        a = bases[i % 12]
        others = [b for b in bases if b is not a]
        gx, gy = a.x + rng.uniform(-200, 200), a.y + rng.uniform(-200, 200)
        full = t.find_path((a.x, a.y), (gx, gy), a.radius, others)
        if full is None:
            continue
        checked += 1
        same = t.find_path((a.x, a.y), (gx, gy), a.radius, others, max_length=full.length + 1.0)
        assert same is not None and abs(same.length - full.length) < 1e-6
        assert t.find_path((a.x, a.y), (gx, gy), a.radius, others, max_length=full.length - 1.0) is None
    assert checked >= 20


def test_a_base_cannot_squeeze_through_a_gap_narrower_than_itself():
    """Two crates 20 mm apart: a 25 mm base may not pass between them, even though its centre
    line crosses neither crate's bounding box (Chipmunk's radius segment queries miss exactly
    this case, so the table queries pieces grown by the radius instead)."""
    t = table([box("a", "building", 300, 380, 490, 420, name="Left crate"),
               box("b", "building", 510, 380, 700, 420, name="Right crate")])
    start, goal = (500, 300), (500, 500)
    p = t.find_path(start, goal, R)
    assert p is not None and p.length > 200 + 50  # it had to go round
    m = t.straight_move(model("m", 500, 300), 90, 200)
    # it touches the crates' inner corners (490, 380) and (510, 380) when its centre is
    # sqrt(12.5^2 - 10^2) = 7.5 mm below them
    assert m.stopped_by in ("Left crate", "Right crate") and m.y == pytest.approx(372.5, abs=0.02)
    # a 8 mm base fits through the 20 mm gap: straight through
    p = t.find_path(start, goal, 8.0)
    assert p.length == pytest.approx(200)


def test_town_path_past_the_climbable_end_of_a_fence():
    """The town map: from (936.6, 301.6) to (873.1, 54.0) a 12.5 mm base goes down past the west
    ends of two fences (fence-22, fence-24) and round the corner of building-13. Between the
    building and fence-24's end there is 20.3 mm: the base overlaps the fence's end as it passes,
    which is legal mid-move (only the centre line pays a climbable piece's height), so the
    shortest route keeps its centre just off the fences' corners. The path finder used to keep
    the whole base off climbable pieces at its turning points and answered 424.8 mm; the route
    through (923.9, 47.6) named in the issue is 346.2 mm."""
    from engine.paths import MAPS_DIR

    t = Table.load(MAPS_DIR / "town.json")
    s, g = (936.6, 301.6), (873.1, 54.0)
    issue_route = [s, (923.9, 47.6), g]
    assert all(t.segment_clear(a, b, R) for a, b in zip(issue_route, issue_route[1:]))
    assert t.path_of(issue_route).length == pytest.approx(346.16, abs=0.01)
    # exact: straight to fence-22's corner (929.64, 230.886), then the taut string round the
    # building's corner (909.32, 71.12) grown by R
    fence22 = t.piece("fence-22").outline[3]
    assert fence22 == pytest.approx((929.64, 230.886))
    building = t.piece("building-13").outline
    corner = max(building, key=lambda q: (q[0], -q[1]))        # the south-east corner
    assert corner == pytest.approx((909.32, 71.12), abs=0.01)
    exact = math.dist(s, fence22) + taut_length(fence22, [corner], g, R)
    assert exact == pytest.approx(287.16, abs=0.01)
    p = t.find_path(s, g, R)
    assert exact - 0.01 <= p.length <= exact + 1.0
    assert p.vertical == 0
    assert all(t.segment_clear(a[:2], b[:2], R) for a, b in zip(p.points, p.points[1:]))
    # where it passes fence-24's west end, the base overlaps the fence but its centre does not
    fence24 = t.piece("fence-24")
    x_at = [a[0] + (b[0] - a[0]) * (66.0 - a[1]) / (b[1] - a[1])
            for a, b in zip(p.points, p.points[1:]) if min(a[1], b[1]) <= 66.0 <= max(a[1], b[1])]
    assert x_at and fence24.bbox[0] - R < x_at[0] < fence24.bbox[0]
    # with an allowance the answer is the same path
    assert t.find_path(s, g, R, max_length=p.length + 0.5).length == pytest.approx(p.length)
    assert t.find_path(s, g, R, max_length=p.length - 0.5) is None


def test_lazy_builds_are_safe_in_any_order():
    """The path graph asks for the swept space while the table's lock is held: asking for the graph
    first (before any find_path) used to deadlock on the non-reentrant lock."""
    import threading

    def run(fn):
        th = threading.Thread(target=fn, daemon=True)
        th.start()
        th.join(60)
        assert not th.is_alive(), "deadlock"

    pieces = [box("b", "building", 300, 300, 500, 400), wall("w", "wall", (600, 100), (600, 600), 10)]
    t = table(pieces)
    run(lambda: t._nav_graph(R))
    assert t.find_path((250, 350), (550, 350), R) is not None
    t2 = table(pieces)
    run(lambda: (t2._swept_space(R), t2._nav_graph(R), t2._swept_space(R - 0.01), t2._nav_graph(R)))
    # several threads at once, each building in a different order: one graph per radius
    t3 = table(pieces)
    out = []
    ths = [threading.Thread(target=lambda k=k: out.append(
        t3._nav_graph(R) if k % 2 else (t3._swept_space(R), t3._nav_graph(R))[1])) for k in range(6)]
    for th in ths:
        th.start()
    for th in ths:
        th.join(60)
    assert len(out) == 6 and all(g is out[0] for g in out)
