"""Write the hand-designed layouts in maps/ (deterministic: no randomness).

    python tools/mapgen/make_maps.py          # writes maps/town.json, outpost.json, ...

Layouts are written here top-down as on a plan (x right, y down from the top edge), then
flipped on output into the engine's frame (x right, y up, origin bottom-left), so the files
and the renderer agree with the engine's counter-clockwise angles.
Repetitive scenery (fence runs, barrel clusters, headstones) is written as loops here so the
JSON stays consistent; every landmark is placed by hand.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from geom import Layout, blob, box, circle, poly, rect, ribbon, rotate180, wall  # noqa: E402

ROOT = HERE.parent.parent
MAPS = ROOT / "maps"


def mapfile(id, name, description, unit, w, h, suits, layout, deployment, objectives=(), evac=()):
    return {
        "schema_version": 1,
        "id": id,
        "name": name,
        "description": description,
        "unit": unit,
        "width": w,
        "height": h,
        "suits": list(suits),
        "pieces": layout.pieces,
        "deployment": deployment,
        "objectives": [{"id": f"obj-{i + 1}", "name": n, "at": [x, y]} for i, (n, x, y) in enumerate(objectives)],
        "evac_points": [{"id": f"evac-{i + 1}", "name": n, "at": [x, y]} for i, (n, x, y) in enumerate(evac)],
    }


def to_y_up(data):
    """Flip a plan drawn with y down into the engine's y-up frame (y -> height - y)."""
    H = data["height"]
    f = lambda p: [p[0], round(H - p[1], 2)]  # noqa: E731
    for p in data["pieces"]:
        s = p["shape"]
        if s["type"] == "polygon":
            s["points"] = [f(q) for q in s["points"]][::-1]   # keep the winding's sense
        elif s["type"] == "circle":
            s["center"] = f(s["center"])
        else:
            s["a"], s["b"] = f(s["a"]), f(s["b"])
    for z in data["deployment"]:
        z["points"] = [f(q) for q in z["points"]][::-1]
    for m in data["objectives"] + data["evac_points"]:
        m["at"] = f(m["at"])
    return data


def zone(side, x0, y0, x1, y1):
    return {"side": side, "points": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]}


def point_symmetric(w, h):
    """A layout and its ``pair(kind, shape, names, **props)``: the piece and its twin turned half a
    turn about the table's centre (``names``: one name for both, or a tuple of two)."""
    L = Layout()

    def pair(kind, shape, names, **props):
        n1, n2 = names if isinstance(names, tuple) else (names, names)
        L.add(kind, shape, n1, **props)
        L.add(kind, rotate180(shape, w, h), n2, **props)
    return L, pair


# Counterblast's tables: 48x36", the crews deploy along the long edges, evac points at the short ones.
W, H = 48, 36


def counterblast_table(id, name, description, layout, objectives):
    deployment = [zone(1, 0, 0, W, 6), zone(2, 0, H - 6, W, H)]
    evac = [("Evac West", 1.5, H / 2), ("Evac East", W - 1.5, H / 2)]
    return mapfile(id, name, description, "in", W, H, ["counterblast"], layout, deployment, objectives, evac)


# --------------------------------------------------------------------------------------------
# Town: Dry Gulch, a frontier town on a 48x36" table. Main Street runs east-west (y 14-22),
# Church Road leaves it north between saloon and bank, Mill Lane south between hotel and
# undertaker. The posses deploy at the two ends of Main Street.
# --------------------------------------------------------------------------------------------
def town():
    L = Layout()
    B = "building"
    # North side of Main Street (fronts at y = 12.8)
    L.add(B, rect(7, 5.5, 12.5, 12.8), "Livery Stable", height=3.6)
    L.add(B, rect(13.5, 8, 17, 12.8), "Sheriff's Office", height=2.8)
    L.add(B, rect(13.5, 5, 16.8, 8), "Jailhouse", height=2.2)
    L.add(B, poly([(18.6, 12.8), (26, 12.8), (26, 8.2), (23.6, 8.2), (23.6, 4.4), (18.6, 4.4)]),
          "Last Chance Saloon", height=4.2)
    L.add(B, rect(30, 8, 34.2, 12.8), "Frontier Bank", height=3.4)
    L.add(B, rect(35.2, 7, 40.8, 12.8), "Miller's General Store", height=3.0)
    L.add(B, rect(36.2, 2.2, 39.6, 5.2), "Telegraph Office", height=2.4)
    L.add(B, rect(30.4, 3, 33.6, 6.2), "Doc's Surgery", height=2.6)
    # South side (fronts at y = 23.2)
    L.add(B, rect(7.4, 23.2, 11.6, 28), "Blacksmith", height=2.6)
    L.add(B, rect(12.6, 23.2, 18, 31), "Grand Hotel", height=4.6)
    L.add(B, rect(22, 23.2, 25.6, 28.2), "Undertaker", height=2.8)
    L.add(B, rect(26.4, 23.2, 29.8, 27.6), "Assay Office", height=2.4)
    L.add(B, rect(31.2, 25.6, 35.8, 33.2), "Church", height=4.0)
    L.add("tower", rect(32.4, 23.4, 34.6, 25.6), "Church Steeple", height=7.0)
    L.add(B, rect(22.4, 30.2, 26, 33.4), "Widow Parker's House", height=2.6)
    # Outhouses
    L.add(B, rect(24.6, 5.2, 25.6, 6.2), "Outhouse", height=1.8)
    L.add(B, rect(16.4, 32.4, 17.4, 33.4), "Outhouse", height=1.8)

    # Water tower on legs behind the blacksmith: you can walk and see under the tank, the legs block.
    L.add("tower", circle(9.6, 31.4, 1.7), "Water Tower", height=6.0, blocks_sight=False,
          impassable=False, cover="none")
    for dx, dy in ((-1.15, -1.15), (1.15, -1.15), (1.15, 1.15), (-1.15, 1.15)):
        L.add("tower", circle(9.6 + dx, 31.4 + dy, 0.22), "Water Tower leg", height=4.6, cover="light")

    # Boardwalks in front of the buildings: raised planks you walk on.
    bw = dict(height=0.3, blocks_sight=False, cover="none", impassable=False, climbable=True)
    for x0, x1 in ((7, 12.5), (13.5, 17), (18.6, 26), (30, 34.2), (35.2, 40.8)):
        L.add("platform", rect(x0, 12.8, x1, 13.9), "Boardwalk", **bw)
    for x0, x1 in ((7.4, 11.6), (12.6, 18), (22, 25.6), (26.4, 29.8)):
        L.add("platform", rect(x0, 22.1, x1, 23.2), "Boardwalk", **bw)
    # Saloon balcony over the boardwalk is not modelled; its porch steps are part of the walk.

    # Hitching posts (rails) along the street edge.
    rail = dict(height=1.0, blocks_sight=False, cover="light")
    for x in (8.2, 14.2, 19.6, 23.0, 31.0, 36.4):
        L.add("fence", wall(x, 14.4, x + 1.8, 14.4, 0.18), "Hitching Rail", **rail)
    for x in (8.6, 13.6, 22.8):
        L.add("fence", wall(x, 21.6, x + 1.8, 21.6, 0.18), "Hitching Rail", **rail)

    # Troughs
    L.add("trough", box(10.2, 15.0, 2.4, 0.7), "Horse Trough")
    L.add("trough", box(22.2, 15.0, 2.4, 0.7), "Horse Trough")
    L.add("trough", box(37.8, 21.0, 2.4, 0.7), "Horse Trough")
    L.add("trough", box(9.6, 3.2, 0.7, 2.2), "Corral Trough")

    # Wagons
    L.add("wagon", box(17.8, 17.0, 4.0, 1.8, 8), "Stagecoach", height=2.0)
    L.add("wagon", box(31.6, 19.2, 3.6, 1.7, -10), "Freight Wagon")
    L.add("wagon", box(3.6, 10.4, 1.7, 3.4, 12), "Hay Wagon")
    L.add("wagon", box(44.2, 25.4, 1.7, 3.4, -14), "Broken Wagon", height=1.2)
    L.add("wagon", box(27.6, 6.0, 1.5, 3.0, 4), "Buckboard")

    # Livery corral (split-rail): north, west and east runs, gate gap on the east side.
    corral = dict(height=1.1, blocks_sight=False, cover="light")
    L.add("fence", wall(7, 1.2, 12.5, 1.2, 0.2), "Corral Fence", **corral)
    L.add("fence", wall(7, 1.2, 7, 5.5, 0.2), "Corral Fence", **corral)
    L.add("fence", wall(12.5, 1.2, 12.5, 3.2, 0.2), "Corral Fence", **corral)
    # Backyard fences (plank, solid): behind the sheriff and along the hotel yard.
    L.add("fence", wall(13.5, 3.2, 18.6, 3.2, 0.2), "Backyard Fence")
    L.add("fence", wall(13.5, 3.2, 13.5, 5.0, 0.2), "Backyard Fence")
    L.add("fence", wall(12.6, 33.8, 18, 33.8, 0.2), "Hotel Yard Fence")
    L.add("fence", wall(18, 31, 18, 33.8, 0.2), "Hotel Yard Fence")
    L.add("fence", wall(34.2, 7.5, 34.2, 3.0, 0.2), "Backyard Fence")
    L.add("fence", wall(40.8, 7.0, 40.8, 4.0, 0.2), "Store Yard Fence")
    L.add("fence", wall(40.8, 4.0, 43.2, 4.0, 0.2), "Store Yard Fence")
    L.add("fence", wall(22.4, 29.4, 27.4, 29.4, 0.2), "Picket Fence", height=0.9, cover="light")
    L.add("fence", wall(27.4, 29.4, 27.4, 33.4, 0.2), "Picket Fence", height=0.9, cover="light")
    # Graveyard east of the church: low picket fence and headstones.
    L.add("fence", wall(36.6, 27.0, 41.6, 27.0, 0.18), "Graveyard Fence", height=0.8, cover="light")
    L.add("fence", wall(41.6, 27.0, 41.6, 33.4, 0.18), "Graveyard Fence", height=0.8, cover="light")
    L.add("fence", wall(36.6, 33.4, 41.6, 33.4, 0.18), "Graveyard Fence", height=0.8, cover="light")
    for i, (x, y) in enumerate([(37.6, 28.4), (39.0, 28.4), (40.4, 28.4), (37.6, 30.2), (39.0, 30.2),
                                (40.4, 30.2), (37.6, 32.0), (39.4, 32.0)]):
        L.add("rock", box(x, y, 0.7, 0.25), "Boot Hill" if i == 0 else "Headstone", height=0.7, cover="light")
    L.add("tree", circle(40.2, 31.9, 1.0), "Hanging Tree", height=5.0)

    # Barrels: clusters beside the saloon, the store, the blacksmith and in the street.
    barrels = [(26.6, 11.4), (27.4, 12.0), (26.6, 12.3), (18.0, 9.6), (18.0, 10.6),
               (41.4, 8.2), (41.4, 9.2), (42.2, 8.7),
               (12.1, 24.2), (12.1, 25.2), (21.4, 24.6), (21.4, 25.6),
               (30.6, 23.8), (35.0, 16.0), (35.8, 16.4), (12.6, 19.4), (13.3, 19.9),
               (5.2, 21.0), (5.2, 22.0), (4.4, 21.5), (43.4, 13.6), (44.2, 14.1), (43.4, 14.6),
               (30.0, 29.0), (29.2, 29.6)]
    for x, y in barrels:
        L.add("barrel", circle(x, y, 0.45))
    # Crates: stacks at the store, the livery yard, the stage depot and in the end zones.
    crates = [(41.4, 10.6, 0), (41.4, 11.8, 0), (42.6, 11.2, 10), (5.2, 6.4, 0), (6.3, 6.6, 8),
              (15.8, 20.2, 0), (27.4, 16.0, 15), (28.5, 16.3, 0), (1.8, 25.6, 0), (2.9, 25.4, 6),
              (1.8, 26.7, 0), (45.4, 7.2, 0), (46.4, 7.6, -8), (45.4, 8.3, 0), (20.6, 27.6, 0),
              (20.6, 28.7, 0), (34.6, 15.2, -6), (45.0, 30.6, 0), (46.1, 30.4, 0)]
    for x, y, a in crates:
        L.add("crate", box(x, y, 1.0, 1.0, a))
    L.add("crate", box(11.0, 29.6, 2.2, 1.0), "Woodpile", height=0.8)
    L.add("crate", box(27.2, 20.4, 1.0, 2.0, 0), "Mail Sacks", height=0.6, cover="light")

    # Outskirts: scrub, cacti and rocks beyond the town.
    L.add("scrub", blob(2.6, 2.8, 2.0, 1.6, [1, .8, 1.1, .9, 1.2, .85, 1, .9]), "Tumbleweed Scrub")
    L.add("scrub", blob(45.2, 33.0, 2.2, 1.6, [1, .9, 1.2, .8, 1.1, .9, 1, .8]), "Tumbleweed Scrub")
    L.add("scrub", blob(3.0, 31.6, 1.8, 1.5, [1, 1.2, .8, 1, .9, 1.1, .8]), "Sagebrush")
    L.add("scrub", blob(45.0, 2.8, 1.8, 1.5, [.9, 1.1, 1, .8, 1.2, .9, 1]), "Sagebrush")
    L.add("scrub", blob(21.2, 1.8, 2.2, 1.1, [1, .8, 1.1, 1, .9, 1.2, .8, 1]), "Sagebrush")
    L.add("tree", circle(1.6, 15.4, 0.45), "Saguaro", height=3.0)
    L.add("tree", circle(46.4, 20.6, 0.45), "Saguaro", height=3.0)
    L.add("tree", circle(28.8, 34.4, 0.45), "Saguaro", height=3.0)
    L.add("rock", blob(2.4, 18.8, 1.0, 0.8, [1, .8, 1.1, .9, 1.2, .8]), "Rocks")
    L.add("rock", blob(45.6, 17.2, 1.0, 0.8, [.9, 1.1, .8, 1.2, 1, .8]), "Rocks")
    L.add("rock", blob(5.6, 34.0, 1.2, 0.8, [1, .9, 1.1, .8, 1.1, .9]), "Rocks")
    L.add("rock", blob(42.6, 1.8, 1.2, 0.8, [1, .8, 1.2, .9, 1, .9]), "Rocks")

    deployment = [zone(1, 0, 0, 6, 36), zone(2, 42, 0, 48, 36)]
    objectives = [("Bank Vault", 32.1, 15.2), ("Stagecoach Strongbox", 20.0, 19.6), ("Telegraph", 38.0, 6.0)]
    return mapfile("town", "Dry Gulch", "A frontier town on a 48x36 inch table: Main Street runs "
                   "east-west between the saloon, bank and store to the north and the hotel, "
                   "undertaker and church to the south. Posses deploy at either end of the street.",
                   "in", 48, 36, ["frontier", "counterblast", "doubles"], L, deployment, objectives)


# --------------------------------------------------------------------------------------------
# Outpost: Kessler Station. Point-symmetric about the table centre so neither long edge is
# favoured: every piece in the north half has its twin turned half a turn in the south half.
# --------------------------------------------------------------------------------------------
def outpost():
    L, pair = point_symmetric(W, H)

    # Big buildings on the flanks, each with a climbable gantry platform along one side.
    pair("building", poly([(3, 8), (12, 8), (12, 11), (10, 11), (10, 14.5), (3, 14.5)]),
         ("Hab Block Alpha", "Hab Block Beta"), height=3.2)
    pair("platform", rect(12, 11, 15, 14.5), ("Alpha Gantry", "Beta Gantry"), height=1.6)
    pair("building", rect(20, 8.5, 27, 12.5), ("Motor Pool", "Med Bay"), height=2.8)
    pair("platform", rect(27, 8.5, 29.5, 12.5), ("Motor Pool Ramp", "Med Bay Deck"), height=1.4)
    pair("tower", rect(40.5, 12.2, 43.5, 15.2), ("Comms Tower", "Sensor Mast"), height=7.0)
    pair("platform", rect(36.5, 12.2, 40.5, 15.2), ("Comms Deck", "Sensor Deck"), height=2.0)

    # Shipping containers (2.5 x 6"), some stacked two high.
    pair("container", box(16.5, 4.5, 6, 2.5, 0), "Container")
    pair("container", box(33.5, 7.2, 2.5, 6, 0), "Container Stack", height=5.0)
    pair("container", box(45.0, 5.0, 2.5, 6, 0), "Container")
    pair("container", box(17.0, 15.2, 6, 2.5, -12), "Container")

    # Storage tanks and the pipes that feed them.
    pair("tank", circle(7.5, 3.2, 2.2), ("Fuel Tank A", "Fuel Tank C"))
    pair("tank", circle(39.0, 4.0, 1.8), ("Water Tank", "Coolant Tank"))
    pair("pipe", wall(9.7, 3.2, 13.5, 3.2, 0.7), "Pipeline")
    pair("pipe", wall(29.5, 10.5, 36.5, 13.5, 0.7), "Pipeline")
    pair("pipe", wall(34.8, 4.0, 37.2, 4.0, 0.7), "Pipeline")

    # Objectives: west and east data points, the central uplink.
    # Cover around the uplink (the twin covers the other side).
    pair("barricade", wall(21.0, 15.6, 24.0, 15.0, 0.5), "Barricade")
    pair("barricade", wall(27.2, 15.6, 28.4, 17.0, 0.5), "Barricade")
    pair("console", box(24.0, 16.6, 1.4, 0.8), "Uplink Console")
    # Secure gates closing the uplink ring's north and south gaps (Counterblast: Hack opens them).
    pair("door", wall(24.0, 15.0, 27.2, 15.6, 0.5), "Security Gate")
    # West depot (its twin lands at the east depot).
    pair("barricade", wall(7.0, 16.2, 9.8, 16.2, 0.5), "Barricade")
    pair("barricade", wall(12.6, 17.0, 12.6, 19.6, 0.5), "Barricade")
    pair("console", box(10.0, 20.4, 1.4, 0.8), "Depot Console")
    pair("crate", box(4.8, 19.4, 1.2, 1.2), "Ammo Crate")
    pair("crate", box(5.6, 20.6, 1.2, 1.2, 15), "Ammo Crate")
    # Mid-table pieces breaking the long lanes.
    pair("barricade", wall(31.0, 17.0, 33.6, 17.0, 0.5), "Barricade")
    pair("crate", box(34.6, 17.6, 1.3, 1.3, 10), "Supply Crate")
    pair("ruin", poly([(0.5, 22.0), (3.8, 22.0), (3.8, 23.0), (1.6, 23.0), (1.6, 26.5), (0.5, 26.5)]),
         "Ruined Bunker", height=1.6)
    # Deployment-zone cover (low, so the zones are not fortresses).
    pair("barricade", wall(23.0, 3.6, 27.0, 3.6, 0.5), "Barricade")
    pair("crate", box(29.6, 2.6, 1.4, 1.4), "Supply Crate")
    pair("console", box(13.2, 6.8, 1.2, 0.8), "Power Relay")
    # More bulk, so the table is 30-40% terrain: a generator shed, cargo.
    pair("building", rect(37.6, 7.4, 41.6, 10.8), ("Generator Shed", "Pump House"), height=2.6)
    pair("container", box(21.0, 1.8, 6, 2.5, 0), "Container")
    pair("crate", box(15.5, 8.2, 2.4, 1.4, 0), "Cargo Pallet", height=1.0)
    pair("crate", box(28.5, 14.4, 1.6, 1.6, 20), "Supply Crate")

    objectives = [("West Depot", 10.0, 18.0), ("Uplink", 24.0, 18.0), ("East Depot", 38.0, 18.0)]
    return counterblast_table("outpost", "Kessler Station", "A sci-fi outpost on a 48x36 inch table, "
                              "point-symmetric so neither long edge is favoured: hab blocks with climbable "
                              "gantries, container stacks, tanks and pipelines, barricaded objectives along "
                              "the centre line, evac points at the short edges.", L, objectives)


# --------------------------------------------------------------------------------------------
# Prehistoric: the Ford of Bones, 120x90 cm. A stream meanders across the middle; a hut camp
# sits on one bank, a rocky ridge on the other; a mammoth skeleton lies by the ford.
# --------------------------------------------------------------------------------------------
def prehistoric():
    L = Layout()
    stream = [(0, 38), (12, 40), (24, 46), (36, 49), (48, 46), (58, 42), (68, 43), (78, 48),
              (90, 52), (102, 50), (112, 47), (120, 48)]
    L.add("water", ribbon(stream, [5, 5, 5.5, 6, 5, 4, 3.6, 4.5, 5.5, 6, 5, 5], clamp=(120, 90)), "Bone Creek")
    L.add("water", blob(92, 57, 9, 5, [1, .9, 1.1, 1.2, 1, .8, .9, 1.1, 1, .9], 10), "Still Pool",
          height=0.0)
    # Stepping stones across the ford
    for i, (x, y) in enumerate([(60, 38.5), (62, 42), (63.5, 45.5)]):
        L.add("rock", blob(x, y, 1.6, 1.2, [1, .9, 1.1, .85, 1, 1.1]), "Stepping Stones" if i == 0 else "",
              height=1.0, cover="none")

    # Rocky outcrops (climbable) and boulders
    rocks = [(18, 22, 9, 5, 20, "Ridge of the Old Ones"), (42, 66, 8, 5, -15, "Flint Scarp"),
             (96, 28, 8, 5, 30, "Eagle Rock"), (75, 70, 7, 4, 0, "Low Crag"),
             (8, 62, 5, 4, 0, ""), (112, 26, 4, 5, 0, "")]
    bumps = [[1, .8, 1.15, .9, 1.2, .85, 1.05, .9, 1.1, .8],
             [1.1, .9, 1, .8, 1.2, 1, .85, 1.1, .9, 1]]
    for i, (x, y, rx, ry, a, n) in enumerate(rocks):
        L.add("rock", blob(x, y, rx, ry, bumps[i % 2], a), n, height=5.0 if rx > 6 else 3.5)
    for i, (x, y, r) in enumerate([(32, 28, 3.5), (35, 31.5, 2.5), (70, 24, 3.2), (88, 72, 3.6),
                                   (52, 58, 3.0), (104, 66, 2.8), (24, 56, 2.6)]):
        L.add("boulder", blob(x, y, r, r * .85, [1, .92, 1.05, .95, 1.02, .9, 1, .96]),
              "Standing Stone" if i == 2 else "")

    # Hut camp on the north bank, west
    L.add("hut", circle(52, 20, 6.0), "Chief's Hut", height=8.0)
    L.add("hut", circle(40, 14, 4.5), "Hut")
    L.add("hut", circle(64, 13, 4.5), "Hut")
    L.add("fence", wall(32, 6, 46, 4, 1.0), "Thorn Fence", height=2.0, cover="light")
    L.add("fence", wall(58, 4, 72, 6, 1.0), "Thorn Fence", height=2.0, cover="light")
    L.add("rock", circle(52, 30, 1.6), "Fire Pit", height=0.8, cover="light", blocks_sight=False)
    # South bank camp
    L.add("hut", circle(62, 76, 4.5), "Hunters' Hut")
    L.add("hut", circle(84, 84, 3.6), "Drying Hut", height=5.0)

    # Mammoth skeleton by the ford: ribcage, skull and tusks.
    L.add("bones", blob(74, 34, 7, 3.4, [1, .9, 1, .95, 1, .9, 1, .95], 12), "Mammoth Skeleton")
    L.add("bones", blob(82.5, 37, 2.6, 2.2, [1, .9, 1, .9, 1, .9]), "Mammoth Skull", height=3.0,
          impassable=True, blocks_sight=True, cover="light", difficult=False, climbable=True)
    L.add("bones", wall(84, 39, 87, 44, 0.9), "Tusk", height=1.5)
    L.add("bones", wall(81, 39.5, 82, 45, 0.9), "Tusk", height=1.5)
    L.add("bones", blob(30, 76, 3, 2, [1, .8, 1, .9, 1, .8]), "Bone Pile")
    L.add("bones", blob(100, 14, 3, 2, [1, .9, .8, 1, .9, 1]), "Bone Pile")

    # Trees and scrub
    for x, y, r, n in [(8, 8, 3.5, "Old Pine"), (112, 82, 3.5, "Old Pine"), (28, 40, 2.6, ""),
                       (86, 60, 2.6, ""), (106, 40, 3.0, ""), (12, 50, 3.0, ""), (58, 64, 2.4, "")]:
        L.add("tree", circle(x, y, r), n)
    scrub = [(6, 28, 7, 5, "Fern Brake"), (114, 60, 6, 5, "Fern Brake"), (44, 82, 9, 5, "Thicket"),
             (80, 10, 9, 4.5, "Thicket"), (100, 76, 5, 4, ""), (22, 12, 5, 3.5, ""), (36, 58, 5, 4, ""),
             (86, 46, 5, 3, "Reeds"), (16, 44, 5, 2.6, "Reeds")]
    for x, y, rx, ry, n in scrub:
        L.add("scrub", blob(x, y, rx, ry, [1, .85, 1.1, .9, 1.2, .8, 1.05, .9, 1.1, .85]), n)

    deployment = [zone(1, 0, 0, 120, 15), zone(2, 0, 75, 120, 90)]
    objectives = [("Sacred Flint", 60, 45), ("Mammoth Tusks", 78, 41), ("Ancestor Stone", 36, 48)]
    return mapfile("prehistoric", "The Ford of Bones", "Rocky prehistoric ground, 120x90 cm: "
                   "a creek meanders across the middle past a mammoth skeleton; a hut camp "
                   "stands on the north bank, crags and boulders on both.", "cm", 120, 90,
                   ["doubles"], L, deployment, objectives)


# --------------------------------------------------------------------------------------------
# Field: almost empty, for learning the rules and for tests.
# --------------------------------------------------------------------------------------------
def field():
    L = Layout()
    L.add("hedge", wall(10, 14, 20, 14.5, 0.8), "Hedgerow")
    L.add("tree", circle(32, 22, 1.6), "Oak")
    L.add("rock", blob(18, 25, 1.6, 1.2, [1, .85, 1.1, .9, 1.15, .9]), "Rock")
    L.add("scrub", blob(36, 10, 3.0, 2.0, [1, .85, 1.1, .9, 1.15, .9, 1.05, .85]), "Bramble")
    deployment = [zone(1, 0, 0, 48, 6), zone(2, 0, 30, 48, 36)]
    return mapfile("field", "Open Field", "An open 48x36 inch field with a hedgerow, an oak, a "
                   "rock and a bramble patch: for learning the rules.", "in", 48, 36,
                   ["frontier", "counterblast", "doubles"], L, deployment, [("Centre", 24, 18)])


# --------------------------------------------------------------------------------------------
# Quarry: Redrock Quarry, Counterblast's second table (48x36", 25-50% covered, as the ruleset
# asks). Point-symmetric like the outpost, but a different game: two big mesas and a spoil ridge
# break the middle into three lanes, the objectives sit in the open between them, and the
# buildings stand back near the deployment zones instead of along the centre line.
# --------------------------------------------------------------------------------------------
def quarry():
    L, pair = point_symmetric(W, H)

    bumps = [1, .85, 1.1, .9, 1.15, .88, 1.05, .92, 1.1, .86]
    # Mesas: climbable red rock, tall enough to hide behind, flat enough to stand on.
    pair("rock", blob(15.5, 14.5, 5.8, 3.4, bumps, -8), ("West Mesa", "East Mesa"), height=2.4)
    pair("rock", blob(33.0, 11.5, 2.6, 1.9, bumps[::-1], 20), "Red Knoll", height=1.8)
    # The spoil ridge across the middle, cut by the haul road: low rock, climbable.
    pair("rock", poly([(20.5, 16.2), (23.2, 15.6), (23.6, 16.8), (21.0, 17.6)]), "Spoil Heap", height=1.2)
    # Buildings set back toward the zones.
    pair("building", rect(4.0, 7.5, 10.0, 11.5), ("Bunkhouse", "Mess Hall"), height=3.0)
    pair("building", rect(24.5, 6.8, 30.5, 9.8), ("Assay Office", "Pump Station"), height=2.6)
    pair("building", rect(18.5, 7.2, 22.5, 10.4), ("Machine Shop", "Tool Store"), height=2.8)
    pair("building", rect(1.0, 25.5, 4.0, 29.0), ("Fuel Depot", "Powder Store"), height=2.4)
    pair("platform", rect(30.5, 6.8, 33.0, 9.8), ("Assay Loading Dock", "Pump Deck"), height=1.2)
    pair("tower", rect(41.0, 8.0, 43.6, 10.6), ("Drill Rig", "Winch Tower"), height=6.5)
    # Conveyor gantry from the rig toward the centre: climbable, low enough to shoot over prone.
    pair("platform", rect(35.8, 14.2, 41.2, 15.4), "Conveyor Gantry", height=1.6)
    # Ore carts on the haul road, containers and tanks.
    pair("wagon", box(27.5, 15.0, 3.2, 1.6, -6), "Ore Cart", height=1.3)
    pair("wagon", box(8.5, 17.0, 1.6, 3.2, 10), "Ore Cart", height=1.3)
    pair("wagon", box(25.5, 24.0, 4.0, 2.0, 10), "Haul Truck", height=2.0)
    pair("boulder", blob(5.0, 22.5, 1.3, 1.1, bumps), "Boulder")
    pair("container", box(20.0, 3.6, 6.0, 2.5, 0), "Container")
    pair("container", box(45.6, 14.0, 2.5, 6.0, 0), "Container")
    pair("tank", circle(36.8, 3.2, 1.9), ("Water Tank", "Fuel Tank"))
    pair("tank", circle(1.9, 14.8, 1.5), ("Slurry Tank", "Slurry Tank"))
    # Cover at the objectives: crates and barricades, none blocking the objective itself.
    pair("barricade", wall(9.0, 20.2, 11.8, 20.2, 0.5), "Barricade")
    pair("barricade", wall(22.2, 14.2, 25.6, 13.6, 0.5), "Barricade")
    pair("crate", box(13.0, 19.6, 1.3, 1.3, 12), "Explosives Crate")
    pair("crate", box(29.4, 17.2, 1.2, 1.2, 0), "Core Samples", height=0.9)
    pair("crate", box(36.2, 19.4, 1.4, 1.4, -10), "Supply Crate")
    # Deployment-zone cover: low crates only, so the zones are not fortresses.
    pair("crate", box(14.0, 3.2, 1.4, 1.4, 0), "Supply Crate")
    pair("crate", box(30.0, 2.8, 2.4, 1.2, 0), "Cargo Pallet", height=0.9)
    pair("barricade", wall(6.0, 3.4, 9.0, 3.4, 0.5), "Barricade")

    objectives = [("West Pump", 11.0, 18.0), ("Haul Road", 24.0, 18.0), ("East Pump", 37.0, 18.0)]
    return counterblast_table("quarry", "Redrock Quarry", "A mining camp on a 48x36 inch table, point-symmetric: "
                              "two climbable mesas and a spoil ridge split the middle into three lanes, objectives "
                              "in the open between them, buildings and a drill rig back near the zones, evac "
                              "points at the short edges. Counterblast's second table.", L, objectives)


ALL = {"town": town, "outpost": outpost, "prehistoric": prehistoric, "field": field, "quarry": quarry}


def main(argv=None) -> int:
    MAPS.mkdir(exist_ok=True)
    for name, make in ALL.items():
        data = to_y_up(make())
        path = MAPS / f"{name}.json"
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"{path.relative_to(ROOT)}: {len(data['pieces'])} pieces")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
