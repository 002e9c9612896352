"""Counterblast test helpers: the outpost map and staged games (models placed by hand)."""
import json
from pathlib import Path

from engine.core import Game, Setup
from engine.data.maps import Zone, load_map

MAPS = Path(__file__).resolve().parents[1] / "maps"
OUTPOST = load_map(MAPS / "outpost.json")
# The outpost with the deployment zones 8" apart, so random crews meet within a few turns.
CLOSE = OUTPOST.model_copy(update={"id": "outpost-close", "deployment": [
    Zone(side=1, points=[(4, 22), (44, 22), (44, 27), (4, 27)]),
    Zone(side=2, points=[(4, 9), (44, 9), (44, 14), (4, 14)])]})
IN = 25.4
# Staged (hand-placed) games use the crews as they were before the default crews were balanced
# (issue 32): their scripted shots, ranges and odds were worked out for those weapons, and a rule
# test should not change when the launcher's crews are re-tuned. Same ids as the shipped crews.
TEST_CREWS = {c["id"]: c for c in (json.loads(p.read_text()) for p in
                                   sorted((Path(__file__).parent / "data" / "counterblast_crews").glob("*.json")))}
STAGED_DEFAULT = ("reach-rangers", "iron-choir")


def new_game(seed=0, mapfile=OUTPOST, rosters=(), **options):
    """A game past its deployment (the automatic placement) unless ``deployment`` is given:
    the rule tests start from models on the table (tests/test_deployment.py plays the phase)."""
    return Game(Setup("counterblast", mapfile, tuple(rosters), {"deployment": "automatic", **options}, seed))


def staged(positions, *, active=1, moxie=(3, 0), seed=0, keep=(), rosters=(), **options):
    """A game in an Activation phase with only the models in ``positions`` ({id: (x", y")}) and
    ``keep`` (left where they deployed) on the table, player ``active`` Active and the given
    Moxie pools. ``rosters``: crew ids (default: Reach Rangers v Iron Choir), taken from
    ``TEST_CREWS`` (the pre-balance crews) when they are there."""
    crews = tuple(TEST_CREWS.get(r, r) if isinstance(r, str) else r for r in (rosters or STAGED_DEFAULT))
    g = new_game(seed, rosters=crews, **options)
    st = g.state
    for mid, m in st.models.items():
        if mid in keep:
            continue
        if mid in positions:
            x, y = positions[mid]
            m.x, m.y = x * IN, y * IN
            m.z = g.rules.table.surface_height(m.x, m.y)
        else:
            m.casualty = True
    st.queue, st.passed, st.phase, st.active = [], [], "activate", active
    st.moxie = {1: moxie[0], 2: moxie[1]}
    g._pending_ok = False
    return g


def submit(g, choice):
    """Submit ``choice`` for the player to decide. (A move ends standing unless it is a
    ``MoveProne``: since rules version 3 nothing is asked after it.)"""
    d = g.pending()
    return list(g.submit(d.player, choice))


def texts(events):
    return [e.text for e in events]
