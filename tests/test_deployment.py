"""The deployment phase (ours, docs/rules/deployment.md; no seed says how models deploy): the
order of placement, where a model may stand (refusals with reasons, state unchanged), the hidden
mode's privacy and its reveal, the automatic placement's fairness on symmetric tables, and the
agents' placements."""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from engine.ai import make_agent
from engine.core import Game, Setup
from engine.core.errors import IllegalChoice, SetupError
from engine.core.saves import load_game, save_game
from engine.data.maps import MapFile, load_map
from engine.paths import resolve_map
from engine.rulesets.deployment import DeployRest, PlaceModel, placement_queue
from engine.rulesets.deployment.zones import base_inside, side_frames, zone_polys
from engine.workshop.symmetric_tables import swapping_transforms, symmetrized

HOME = {"counterblast": "outpost", "frontier": "town", "doubles": "prehistoric"}
SAME = {"counterblast": "dustjaw-raiders", "frontier": "sheriffs", "doubles": "ash_skulls"}
SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "layouts"


def new(ruleset, mode="alternate", seed=1, mapfile=None, rosters=(), **opts):
    mf = mapfile or load_map(resolve_map(HOME[ruleset]))
    return Game(Setup(ruleset, mf, tuple(rosters), {"deployment": mode, **opts}, seed))


def image(transform, w, h, x, y):
    return {"point": (w - x, h - y), "mirror_x": (w - x, y), "mirror_y": (x, h - y)}[transform]


# --- the order of placement ---------------------------------------------------------------
def test_placement_queue_by_hand():
    # seed: none; ours (docs/rules/deployment.md, "Who places when")
    assert placement_queue("alternate", 1, 2, {1: 3, 2: 2}) == [2, 1, 2, 1, 1]
    assert placement_queue("alternate", 1, 1, {1: 1, 2: 3}) == [1, 2, 2, 2]
    assert placement_queue("groups", 2, 1, {1: 5, 2: 3}) == [1, 1, 2, 2, 1, 1, 2, 1]
    assert placement_queue("hidden", 1, 2, {1: 2, 2: 3}) == [2, 2, 2, 1, 1]


@pytest.mark.parametrize("ruleset", sorted(HOME))
def test_alternate_placement_follows_the_queue_and_ends_in_turn_one(ruleset):
    g = new(ruleset)
    first = g.state.deploy["first"]
    seen = []
    while g.pending().kind == "deploy":
        d = g.pending()
        seen.append(d.player)
        sp = d.spaces[0]
        g.submit(d.player, sp.sample(__import__("random").Random(len(seen))))
    assert seen[0] == first
    # strictly alternating while both sides have models left
    n = min(seen.count(1), seen.count(2))
    assert all(seen[i] != seen[i + 1] for i in range(2 * n - 1))
    assert g.state.deploy is None
    assert g.pending().kind != "deploy"
    assert len(g.view(None)["pieces"]) == sum(len(g.rules.deploy_roster(p)) for p in (1, 2))


def test_frontier_side_without_priority_places_first():
    # ours: the side that moves second in turn 1 places first (docs/rules/frontier.md, "Deployment")
    for seed in range(1, 6):
        g = new("frontier", seed=seed)
        assert g.pending().player == 3 - g.state.priority
        assert any("places first" in line for line in g.view(1)["log"])


@pytest.mark.parametrize("ruleset,sides", [("counterblast", 10), ("doubles", 6)])
def test_roll_off_decides_who_places_first(ruleset, sides):
    g = new(ruleset, seed=5)
    # the roll-off is rolled in the set-up: read it back from the log
    line = next(t for t in g.view(1)["log"] if t.startswith("Deployment roll-off"))
    last = line.split(": ")[1].split(", then ")[-1]
    a, b = (int(v) for v in last.split(":")[0].split(" v "))
    assert a != b and 1 <= a <= sides and 1 <= b <= sides
    assert g.pending().player == (1 if a < b else 2)


# --- where a model may stand ----------------------------------------------------------------
def _refused(g, player, choice, words):
    h = g.state_hash()
    with pytest.raises(IllegalChoice) as err:
        g.submit(player, choice)
    assert words in str(err.value), str(err.value)
    assert g.state_hash() == h


def test_refusals_say_why_and_change_nothing():
    g = new("counterblast", seed=2)
    d = g.pending()
    p, sp = d.player, d.spaces[0]
    polys = zone_polys(g.table.mapfile, p)
    other = zone_polys(g.table.mapfile, 3 - p)[0]
    ox = sum(x for x, _ in other) / len(other)
    oy = sum(y for _, y in other) / len(other)
    _refused(g, p, PlaceModel(sp.model, ox, oy), "wholly inside your deployment zone")
    # a base on the zone's edge pokes out of it
    x0 = min(x for x, _ in polys[0])
    y_mid = sum(y for _, y in polys[0]) / len(polys[0])
    _refused(g, p, PlaceModel(sp.model, x0 + sp.radius - 1.0, y_mid), "wholly inside")
    # Counterblast has no facing
    good = sp.sample(__import__("random").Random(1))
    _refused(g, p, PlaceModel(sp.model, good.x, good.y, 90.0), "no facing")
    _refused(g, p, PlaceModel(sp.model, float("nan"), good.y), "not a finite number")
    # someone else's model, or one the other player must place
    _refused(g, 3 - p, good, "player")
    # over impassable terrain inside the zone: a lattice point the table refuses
    bad = None
    for x in range(0, 1220, 10):
        for y in range(0, 920, 10):
            if base_inside(x, y, sp.radius, polys) and g.table.position_problem(x, y, sp.radius, []):
                bad = (float(x), float(y))
                break
        if bad:
            break
    assert bad is not None, "the outpost's zones hold terrain"
    _refused(g, p, PlaceModel(sp.model, *bad), g.table.position_problem(*bad, sp.radius, []))
    g.submit(p, good)
    # the next model of the same side may not overlap the first
    while g.pending().player != p:
        q = g.pending()
        g.submit(q.player, q.spaces[0].sample(__import__("random").Random(3)))
    sp2 = g.pending().spaces[0]
    _refused(g, p, PlaceModel(sp2.model, good.x, good.y), "overlaps")


def test_doubles_takes_a_facing_and_defaults_toward_the_middle():
    g = new("doubles", seed=3)
    d = g.pending()
    sp = d.spaces[0]
    c = sp.sample(__import__("random").Random(4))
    g.submit(d.player, PlaceModel(c.model, c.x, c.y, 45.0))
    assert g.state.fighters[c.model].facing == 45.0
    d = g.pending()
    c = d.spaces[0].sample(__import__("random").Random(5))
    g.submit(d.player, c)
    heading = side_frames(g.table)[d.player].heading()
    assert g.state.fighters[c.model].facing == round(heading / 90) * 90 % 360


def test_deploy_rest_places_every_model_left_and_the_other_side_goes_on():
    g = new("frontier", seed=2)
    p = g.pending().player
    g.submit(p, DeployRest())
    assert not g.state.deploy["left"][p]
    assert all(q == 3 - p for q in g.state.deploy["queue"])
    assert g.pending().player == 3 - p


def test_hidden_mode_is_refused_when_the_zones_overlap():
    mf = load_map(resolve_map("field"))
    z = mf.deployment
    wide = z[1].model_copy(update={"points": [(0.0, 0.0), (48.0, 0.0), (48.0, 31.0), (0.0, 31.0)]})
    bad = mf.model_copy(update={"deployment": [z[0], wide]})
    with pytest.raises(SetupError, match="do not overlap"):
        new("frontier", "hidden", mapfile=bad)


# --- the hidden mode: nothing shows before the reveal ------------------------------------------
@pytest.mark.parametrize("ruleset", sorted(HOME))
def test_hidden_placements_are_not_in_the_other_players_view_until_revealed(ruleset):
    g = new(ruleset, "hidden", seed=4)
    rng = __import__("random").Random(9)
    first = g.pending().player
    other = 3 - first
    spots = []
    while g.pending().player == first:
        c = g.pending().spaces[0].sample(rng)
        g.submit(first, c)
        spots.append(c)
        v = g.view(other)            # with drawing: the data the client draws
        text = repr(v)
        for s in spots:
            assert s.model not in {p["id"] for p in v["pieces"]}
            assert f"{s.x}" not in text and f"{s.y}" not in text
        assert not any("placed" in line for line in v["log"])
        assert [e["id"] for e in v["deployment"]["left"][first]] == [d.id for d in g.rules.deploy_roster(first)]
        assert v["deployment"]["mine"] == []
        mine = g.view(first)
        assert {s.model for s in spots} <= {p["id"] for p in mine["pieces"]}
    # the other side may take back nothing of the first's; the first may take back its own
    assert g.undo_point(first) < len(g.decisions)
    while g.pending().kind == "deploy":
        d = g.pending()
        g.submit(d.player, d.spaces[0].sample(rng) if d.spaces else d.options[0])
    assert g.revealed[-1], "the decision that revealed both deployments cannot be taken back"
    assert g.undo_point(other) == len(g.decisions)
    placed = {p["id"]: p for p in g.view(other)["pieces"]}
    for s in spots:
        assert (placed[s.model]["x"], placed[s.model]["y"]) == (s.x, s.y)


@pytest.mark.parametrize("ruleset", sorted(HOME))
def test_an_agent_deploys_the_same_whatever_the_other_sides_unseen_placements(ruleset):
    """The second side's easy agent, in two games that differ only in where the first side put
    its unseen models, makes the same placements: it cannot read them."""
    answers = []
    for variant in (1, 2):
        g = new(ruleset, "hidden", seed=6)
        rng = __import__("random").Random(variant)
        first = g.pending().player
        while g.pending().player == first:
            g.submit(first, g.pending().spaces[0].sample(rng))
        agent = make_agent("easy", 3 - first, 11)
        agent.attach(g.table, g.rules)
        got = []
        while g.pending().kind == "deploy":
            d = g.pending()
            c = agent.choose(d, g.view(d.player, drawing=False))
            got.append(c)
            g.submit(d.player, c)
        answers.append(got)
    assert answers[0] == answers[1]


def test_a_sampled_world_redraws_the_other_sides_unseen_placements():
    g = new("doubles", "hidden", seed=7)
    rng = __import__("random").Random(1)
    first = g.pending().player
    while g.pending().player == first:
        g.submit(first, g.pending().spaces[0].sample(rng))
    truth = dict(g.state.deploy["hidden"][first])
    w = g.sample_world(3 - first, __import__("random").Random(2))
    redrawn = w.state.deploy["hidden"][first]
    assert set(redrawn) == set(truth) and redrawn != truth
    assert w.view(3 - first) == g.view(3 - first) | {"log": w.view(3 - first)["log"]}


# --- saves and replays -----------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["alternate", "groups", "hidden"])
def test_a_saved_deployment_loads_to_the_same_hash(tmp_path, mode):
    g = new("frontier", mode, seed=8)
    rng = __import__("random").Random(3)
    for _ in range(5):
        d = g.pending()
        g.submit(d.player, d.spaces[0].sample(rng))
    save_game(g, tmp_path / "s.json")
    back = load_game(tmp_path / "s.json")
    assert back.state_hash() == g.state_hash()
    assert back.pending().kind == "deploy"


# --- fair automatic placement ------------------------------------------------------------------
def _symmetric_tables():
    out = []
    for m in ("town", "outpost", "prehistoric", "field"):
        mf = load_map(resolve_map(m))
        for t in swapping_transforms(mf):
            out.append((f"{m}-{t}", MapFile.model_validate(symmetrized(mf, t).model_dump()), t))
    if SHARED.is_dir():       # the shared tournament layouts that are exactly point-symmetric
        from engine.core.tables import table_for
        from engine.workshop.symmetry import symmetry_report

        for f in sorted(SHARED.glob("*.json")):
            mf = load_map(f)
            if symmetry_report(table_for(mf))["transforms"]["point"]["unmatched_pct"] == 0:
                out.append((f.stem, mf, "point"))
    return out


TABLES = _symmetric_tables()


def _fits(ruleset, mf) -> bool:
    try:
        new(ruleset, "automatic", mapfile=mf, rosters=(SAME[ruleset], SAME[ruleset]))
    except SetupError:
        return False
    return True


@pytest.mark.parametrize("name,mf,transform", TABLES, ids=[t[0] for t in TABLES])
def test_automatic_placement_is_the_image_of_the_other_side(name, mf, transform):
    """On an exactly symmetric table, with the same force on both sides, side 2's automatic
    placement is side 1's under the table's symmetry, model for model (Doubles' facings too)."""
    from engine.core.tables import table_for
    from engine.workshop.symmetry import symmetry_report

    assert symmetry_report(table_for(mf))["transforms"][transform]["unmatched_pct"] < 0.01
    tried = 0
    for ruleset in sorted(HOME):
        if not _fits(ruleset, mf):
            continue
        tried += 1
        g = new(ruleset, "automatic", mapfile=mf, rosters=(SAME[ruleset], SAME[ruleset]))
        w, h = g.table.width, g.table.height
        pcs = g.view(None)["pieces"]
        one = [p for p in pcs if p["player"] == 1]
        two = [p for p in pcs if p["player"] == 2]
        assert len(one) == len(two)
        for a, b in zip(one, two):
            ix, iy = image(transform, w, h, a["x"], a["y"])
            assert math.hypot(ix - b["x"], iy - b["y"]) < 0.05, (ruleset, a["id"], (ix, iy), (b["x"], b["y"]))
            if a["facing"] is not None:
                fx, fy = math.cos(math.radians(a["facing"])), math.sin(math.radians(a["facing"]))
                gx, gy = image(transform, 0, 0, fx, fy)
                assert math.isclose(math.degrees(math.atan2(gy, gx)) % 360, b["facing"] % 360, abs_tol=1e-6)
    assert tried, f"no ruleset accepts {name}"


@pytest.mark.parametrize("name,mf,transform", TABLES[:6], ids=[t[0] for t in TABLES[:6]])
def test_easy_agents_deploy_as_each_others_image(name, mf, transform):
    for ruleset in sorted(HOME):
        if not _fits(ruleset, mf):
            continue
        g = new(ruleset, "alternate", mapfile=mf, rosters=(SAME[ruleset], SAME[ruleset]), seed=3)
        agents = {p: make_agent("easy", p, p) for p in (1, 2)}
        for a in agents.values():
            a.attach(g.table, g.rules)
        while g.pending().kind == "deploy":
            d = g.pending()
            g.submit(d.player, agents[d.player].choose(d, g.view(d.player, drawing=False)))
        w, h = g.table.width, g.table.height
        pcs = g.view(None)["pieces"]
        one = {p["id"].replace("1", "#", 1): p for p in pcs if p["player"] == 1}
        two = {p["id"].replace("2", "#", 1): p for p in pcs if p["player"] == 2}
        for k, a in one.items():
            ix, iy = image(transform, w, h, a["x"], a["y"])
            b = two[k]
            assert math.hypot(ix - b["x"], iy - b["y"]) < 0.05, (ruleset, k)
