"""The balancer: change a layout until simulated games say the table is fair
(``skirmish balance``, ``docs/workshop.md``, "Balancing a layout").

**What it measures.** The table effect of ``stats.effects``: zone 1's share of decisive games with
the rosters and the first move pooled out, from a logistic model with cluster-robust errors by
seed block, on a crossed experiment (``experiment.py``: each roster from each zone).

**How it proposes.** The generator's own machinery (``generate.propose`` / ``try_edit``), limited
to moves, turns and swaps of unlocked pieces: the editor's edit commands on an ``EditStack`` with
the map's symmetry (a map symmetric under a mirror or a half turn keeps its twins in step), the
locks, the gaps and zones of ``constraints.py`` and reachability on foot (``reachability.py``).

**How it screens.** A step draws ``proposals`` candidates (a change that leaves the footprint as it
was is dropped) and reads two figures of each: the hide difference (zone 1's hideable share minus
zone 2's, coarse grid) and the walk difference (zone 1's mean walking distance to the objectives
minus zone 2's, on the easy agent's walk grid). A ridge fit of the paired changes measured so far
on the figures' changes, shrunk toward prior slopes (``PRIOR``), predicts each candidate's
log-odds; the ``tests - 1`` predicted nearest 0 are played (ties: the larger change first), plus
one drawn at random: a control that keeps the fit honest when the screen is wrong (in some
rulesets hiding helps, in others the side shut in behind cover loses).

**How it decides (paired).** Each tested candidate plays the same seeds as the incumbent (the same
experiment seed and game indices: common random numbers, which sharpen the comparison most when a
change touches few games), and one logistic model over both maps'
games, with a candidate indicator and clusters by seed block (a block's games on both maps are one
cluster), gives the change ``d`` of the table's log-odds and its standard error. The gain is
``|b| - |b + d|`` (how much nearer 50% on the log-odds scale); the best candidate is kept when its
gain is at least ``keep_z`` standard errors of ``d`` (default 1: a noisy hill climb that needed 1.96
would refuse most real improvements at a few hundred games; the confirmation on fresh seeds, not
the search, makes the final claim).

**When it stops.** When the incumbent's interval (search games) holds 50% and its estimate lies
within ``near`` of it, the incumbent is checked on ``check_games`` games of the search seeds (its
search games reused); the search stops when that interval lies within 50 +- ``half_width``. It
also stops when the budget (minutes of search) or ``max_steps`` run out.

**The confirmation** plays ``confirm_games`` games of the final map on an experiment seed whose
game seeds are disjoint from every seed of the search (``confirm_seed`` checks the sets and moves
on until they are).

**Resuming.** ``state.json`` is written after every step; the experiments append each game as it
finishes. A step's proposals are a pure function of the incumbent, the seed and the step number,
so ``resume`` replays the interrupted step exactly and its experiments play only missing games.
"""
from __future__ import annotations

import hashlib
import json
import math
import random
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Callable

from engine.data.maps import MapFile

from . import edits as E

STATE = "state.json"
VERSION = 1
OPS = (("move", 0.6), ("rotate", 0.2), ("swap", 0.2))     # never add or remove: the same terrain, moved
# The screen's figures and the prior slope of the table's log-odds on each: hiding helps the side
# that hides (50 points of difference ~ 73%); a longer walk to the objectives hurts the side that
# walks (5" ~ 56%). Each prior is worth WEIGHT squared units of evidence.
SCREEN = ("hide_diff", "walk_diff")
PRIOR = (0.02, -0.05)
WEIGHT = (400.0, 25.0)


class BalanceError(ValueError):
    """A request the balancer cannot start on (the reason in words)."""


@dataclass(frozen=True)
class Settings:
    ruleset: str
    map: str                                  # the start map as given (file or shipped id)
    rosters: tuple = (None, None)
    agents: tuple = ("easy", "easy")
    seed: int = 1
    budget_minutes: float = 30.0              # of search (the confirmation comes after)
    search_games: int = 200                   # per candidate, on the search seeds
    check_games: int = 600                    # the incumbent's stop check, on the search seeds
    confirm_games: int = 800                  # on fresh seeds
    proposals: int = 24                       # drawn and screened per step
    tests: int = 3                            # played per step (one of them unscreened)
    keep_z: float = 1.0
    near: float = 0.03                        # check when the estimate is this close to 50%
    half_width: float = 0.05                  # stop when the interval lies within 50% +- this
    max_steps: int = 40
    max_decisions: int = 50_000

    def to_json(self) -> dict:
        d = asdict(self)
        d["rosters"], d["agents"] = list(self.rosters), list(self.agents)
        return d


# ----------------------------------------------------------------------------- statistics

def _logit(p: float) -> float:
    p = min(max(p, 1e-3), 1 - 1e-3)
    return math.log(p / (1 - p))


def _expit(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x >= 0 else math.exp(x) / (1 + math.exp(x))


def decisive(records: list[dict]) -> list[dict]:
    from .stats import unique_games

    ok, _ = unique_games([r for r in records if not r.get("error")])
    return [r for r in ok if r["winner"] is not None]


def table_estimate(records: list[dict], rosters: tuple, agents: tuple) -> dict:
    """The table effect of these games: share, 95% interval, log-odds and its standard error."""
    from .stats import Z95, effects

    dec = decisive(records)
    if not dec:
        return {"share": None, "low": None, "high": None, "coef": 0.0, "se": math.inf, "games": 0, "method": "none"}
    t = effects(dec, tuple(rosters), tuple(agents))["table"]
    coef, se = t.get("coef"), t.get("se")
    if coef is None:                 # the plain share: its log-odds, an se from the interval's width
        coef = _logit(t["share"])
        se = max((_logit(t["high"]) - _logit(t["low"])) / (2 * Z95), 1e-6)
    return {"share": t["share"], "low": t["low"], "high": t["high"], "coef": coef, "se": se,
            "games": len(dec), "method": t.get("method", "shares")}


def paired_change(incumbent: list[dict], candidate: list[dict], rosters: tuple, agents: tuple) -> tuple | None:
    """(d, se): the change of the table's log-odds from the incumbent's games to the candidate's,
    on the same seeds: one logistic model over both (a candidate indicator, the roster and first
    player factors), cluster-robust by seed block, so a block's games on both maps are one cluster.
    None when the model cannot be fitted."""
    import numpy as np

    from .stats import logistic_effects

    rows = [(r, 0.0) for r in decisive(incumbent)] + [(r, 1.0) for r in decisive(candidate)]
    if not rows:
        return None
    if _outcomes(incumbent) == _outcomes(candidate):
        return 0.0, 0.0      # every game ended the same (the change never came into play): no change
    y = [1 if r["winner"] == 1 else 0 for r, _ in rows]
    fac = {"candidate": [c for _, c in rows]}
    if rosters[0] != rosters[1]:
        fac["roster"] = [0.5 if r["rosters"]["1"] == rosters[0] else -0.5 for r, _ in rows]
    if agents[0] != agents[1]:
        fac["agent"] = [0.5 if r["agents"]["1"] == agents[0] else -0.5 for r, _ in rows]
    fp = [0.5 if r.get("first_player") == 1 else -0.5 for r, _ in rows]
    if len(set(fp)) > 1:
        X = np.column_stack([np.ones(len(rows))] + [np.asarray(v) for v in fac.values()] + [np.asarray(fp)])
        if np.linalg.matrix_rank(X) == X.shape[1]:
            fac["first_player"] = fp
    groups = [r.get("block", r.get("index")) for r, _ in rows]
    fit = logistic_effects(y, fac, groups)
    if fit is None or "candidate" not in fit:
        return None
    return fit["candidate"]


def _outcomes(records: list[dict]) -> dict:
    return {int(r["index"]): r.get("winner") for r in records if not r.get("error")}


def gain_z(b: float, d: float | None, se_d: float | None) -> float | None:
    """The gain toward 50% in standard errors of the paired change (None: no estimate or no spread)."""
    if d is None or not se_d or not math.isfinite(se_d):
        return None
    return gain_of(b, d) / se_d


def gain_of(b: float, d: float) -> float:
    """How much nearer 0 (50%) the log-odds ``b`` come with the change ``d``."""
    return abs(b) - abs(b + d)


def decide(b: float, tested: list[dict], keep_z: float) -> int | None:
    """The index of the tested candidate to keep, or None. ``tested``: dicts with ``d`` and
    ``se_d`` (None when no paired estimate). Keep the candidate with the largest gain in standard
    errors when that is at least ``keep_z`` (and the gain is positive)."""
    best, best_z = None, -math.inf
    for i, t in enumerate(tested):
        if t.get("d") is None or not t.get("se_d") or not math.isfinite(t["se_d"]):
            continue
        g = gain_of(b, t["d"])
        z = g / t["se_d"]
        if g > 0 and z >= keep_z and z > best_z:
            best, best_z = i, z
    return best


def within(est: dict, half_width: float) -> bool:
    """The interval lies within 50% +- half_width (and so holds 50% only if it is that narrow)."""
    return est.get("low") is not None and est["low"] >= 0.5 - half_width and est["high"] <= 0.5 + half_width


def slope(data: list, prior=PRIOR, weight=WEIGHT):
    """Log-odds per unit of each screen figure: a ridge fit through the origin of the
    (figure changes, paired change of log-odds) of the candidates played, shrunk toward ``prior``
    with ``weight`` squared units of pseudo-evidence per figure."""
    import numpy as np

    n = len(prior)
    A = np.diag(np.asarray(weight, float))
    v = A @ np.asarray(prior, float)
    for dphi, d in data:
        x = np.zeros(n)
        x[:len(dphi)] = dphi
        A += np.outer(x, x)
        v += x * d
    return tuple(float(k) for k in np.linalg.solve(A, v))


def predict(b: float, k, phi, phi0) -> float:
    return b + sum(kj * (a - a0) for kj, a, a0 in zip(k, phi, phi0))


# ----------------------------------------------------------------------------- seeds

def search_seeds(seed: int, blocks: int) -> set[int]:
    from engine.simulate import game_seed

    return {game_seed(seed, b) for b in range(blocks)}


def confirm_seed(search_seed: int, search_blocks: int, confirm_blocks: int, first: int | None = None) -> int:
    """An experiment seed whose first ``confirm_blocks`` game seeds share none with the first
    ``search_blocks`` of ``search_seed`` (agents are seeded from the game seed, so they differ
    too). Starts from ``first`` (default: a seed far from the search's) and moves on until the
    sets are disjoint."""
    used = search_seeds(search_seed, search_blocks)
    s = search_seed + 1_000_003 if first is None else first
    while search_seeds(s, confirm_blocks) & used:
        s += 1
    return s


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


def make_problem(start: MapFile, ruleset: str, catalog=None):
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
        problem, _ = G.make_problem(work, mode or "none", entries, (), rules, base, catalog)
    except G.GenerateError as err:
        raise BalanceError(str(err)) from None
    return replace(problem, ops=OPS, start_templates=tuple(sorted(tmpl.items()))), held


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
    out, seen = [], set()
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

    out = Counter()
    for p in m.pieces:
        g = E.geometry(m, ("piece", p.id))
        pts = []
        E.map_geometry(("piece", p.id), g, lambda x, y: pts.append((round(x, 3), round(y, 3))) or (x, y))
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
    fp0 = footprint(base)
    scored = []
    for c in cands:
        if footprint(c.map) == fp0:
            continue
        phi, f = screen(problem, c.map)
        scored.append((round(abs(predict(b, k, phi, phi0)), 2), -change_size(f0, f, base, c.map), phi, f, c))
    order = sorted(range(len(scored)), key=lambda i: (scored[i][0], scored[i][1], i))
    picked: list[tuple] = []
    used = set()

    def ok(i):
        return not reach_problems(Table(scored[i][4].map), problem.base_mm, limit=1)

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
        shape = TypeAdapter(Shape)
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


# ----------------------------------------------------------------------------- experiments

def experiment_config(s: Settings, maps: list[str], labels: list[str], games: int, seed: int):
    from .experiment import Config

    return Config(s.ruleset, tuple(maps), games, s.agents[0], s.agents[1], tuple(s.rosters), seed,
                  max_decisions=s.max_decisions, labels=tuple(labels), any_map=True)


# play(cfg, folder, outputs) -> records of every game of cfg (resuming what the folder holds)
Play = Callable[..., list]


def real_play(workers: int = 1, scheduler: str | None = None) -> Play:
    from . import experiment

    def play(cfg, folder: Path, outputs: bool) -> list[dict]:
        return experiment.run(cfg, folder, workers=workers, scheduler=scheduler, resume=True,
                              progress=False, write_outputs=outputs).records

    return play


def _write_map(m: MapFile, path: Path) -> str:
    from engine.core.saves import write_atomic

    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, m.model_dump_json(exclude_none=True, indent=1) + "\n")
    return str(path.resolve())


def _seed_check_folder(folder: Path, cfg, records: list[dict], label: str) -> None:
    """Start the check's experiment with the incumbent's search games (the same seeds, so the
    same games: a game is a pure function of its job), relabelled; it plays only the rest."""
    from .experiment import CONFIG, RECORDS

    if (folder / CONFIG).exists():
        return
    folder.mkdir(parents=True, exist_ok=True)
    (folder / CONFIG).write_text(json.dumps(cfg.to_json(), indent=1) + "\n")
    with open(folder / RECORDS, "w") as fh:
        for r in records:
            fh.write(json.dumps({**r, "map": label}, sort_keys=True) + "\n")


# ----------------------------------------------------------------------------- the run

@dataclass
class Outcome:
    state: dict
    start: MapFile
    final: MapFile
    before: dict            # the start's table effect (search seeds)
    after: dict | None      # the confirmation's (fresh seeds)


def _est_json(e: dict) -> dict:
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in e.items()}


def save_state(out: Path, state: dict) -> None:
    tmp = out / (STATE + ".tmp")
    tmp.write_text(json.dumps(state, indent=1) + "\n")
    tmp.replace(out / STATE)


def load_state(out: Path) -> dict | None:
    p = Path(out) / STATE
    if not p.exists():
        return None
    return json.loads(p.read_text())


def check_resume(out: Path, s: Settings, resume: bool) -> dict | None:
    """The saved state when resuming (refused if it is another run's), None for a fresh run."""
    state = load_state(out)
    if state is None:
        if resume and Path(out).exists() and any(Path(out).iterdir()):
            raise BalanceError(f"{out} holds no {STATE}: nothing to resume")
        return None
    if not resume:
        raise BalanceError(f"{out} already holds a balance run: pass --resume to continue it, or choose another --out")
    old = dict(state["settings"])
    new = s.to_json()
    # the budget may always change; the check and confirmation sizes and the keep rule until the
    # confirmation starts (each step records the rule it used)
    # (the confirmation seed is then chosen again, clear of the check's larger set of seeds)
    free = {"budget_minutes"} | ({"check_games", "confirm_games", "keep_z"} if state["phase"] in ("start", "search")
                                 else set())
    diff = [k for k in new if k not in free and old.get(k) != new[k]]
    if diff:
        raise BalanceError(f"{out}/{STATE} differs from these arguments in {', '.join(diff)}: "
                           + "; ".join(f"{k}: {old.get(k)} there, {new[k]} here" for k in diff)
                           + ("" if state["phase"] in ("start", "search") else
                              " (the confirmation has begun: only --budget may change)"))
    if old.get("check_games") != s.check_games:
        state["checked"] = []         # a larger check may be asked of the incumbent again
    if old.get("check_games") != s.check_games or old.get("confirm_games") != s.confirm_games:
        state["confirm_seed"] = confirm_seed(s.seed, *_blocks(s))
    state["settings"] = new
    return state


def _blocks(s: Settings) -> tuple[int, int]:
    """Seed blocks of the search (its candidates and checks) and of the confirmation."""
    k = len(_cells(s))
    return -(-max(s.search_games, s.check_games) // k), -(-s.confirm_games // k)


def run(s: Settings, start: MapFile, out: str | Path, play: Play, resume: bool = False,
        say: Callable[[str], None] = print, clock: Callable[[], float] = time.monotonic,
        catalog=None) -> Outcome:
    """Balance ``start`` (see the module note); every step's state is in ``out/state.json``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    problem, held = make_problem(start, s.ruleset, catalog)
    if held:
        say(f"{len(held)} piece{'s' * (len(held) > 1)} that break a layout rule in the start map stay where "
            f"they are: {', '.join(held[:8])}{' ...' if len(held) > 8 else ''}")
    templates = dict(problem.start_templates)
    state = check_resume(out, s, resume)
    search_blocks, confirm_blocks = _blocks(s)
    if state is None:
        state = {"version": VERSION, "settings": s.to_json(), "phase": "start", "step": 0,
                 "symmetry": problem.symmetry, "incumbent": None, "edits": [], "changes": [], "history": [],
                 "slope_data": [], "search_seconds": 0.0, "checked": [], "stopped": None,
                 "confirm_seed": confirm_seed(s.seed, search_blocks, confirm_blocks), "held": held,
                 "started": time.strftime("%Y-%m-%d %H:%M:%S")}
        _write_map(start, out / "start.json")
        save_state(out, state)
    rosters, agents = tuple(s.rosters), tuple(s.agents)

    def inc_map() -> MapFile:     # the working map: the held pieces carry a lock
        return with_locks(MapFile.model_validate(state["incumbent"]["map"]), held)

    def inc_records() -> list[dict]:
        # the incumbent's experiment again: it resumes with nothing left to play and gives its records
        inc = state["incumbent"]
        cfg = experiment_config(s, inc["paths"], inc["labels"], s.search_games, s.seed)
        recs = [r for r in play(cfg, out / inc["folder"], False) if r["map"] == inc["label"]]
        return [r for r in recs if int(r["index"]) < _planned(s, s.search_games)]

    # --- the start
    if state["phase"] == "start":
        say(f"measuring the start map: {s.search_games} games, {' v '.join(agents)}, seed {s.seed}")
        t0 = clock()
        path = _write_map(start, out / "before" / "start.json")
        cfg = experiment_config(s, [path], ["start"], s.search_games, s.seed)
        recs = play(cfg, out / "before", True)
        est = table_estimate(recs, rosters, agents)
        state["search_seconds"] += clock() - t0
        state["incumbent"] = {"map": json.loads(start.model_dump_json(exclude_none=True)), "folder": "before",
                              "label": "start", "paths": [path], "labels": ["start"], "table": _est_json(est),
                              "x": screen_figure(figures(problem, start)),
                              "walk": walk_figure(start, problem.base_mm)}
        state["before"] = _est_json(est)
        state["history"].append({"step": 0, "kind": "start", "table": _est_json(est), "tested": [], "kept": None})
        state["phase"] = "search"
        save_state(out, state)
        say(f"start: table {_pct(est)} (zone 1's share of decisive games, rosters and first move pooled out)")

    # --- the search
    while state["phase"] == "search":
        inc = state["incumbent"]
        est = inc["table"]
        digest = _digest(inc_map())
        if _near(est, s) and digest not in state["checked"]:
            t0 = clock()
            n = len(state["checked"]) + 1
            folder = out / "search" / f"check-{n:03d}"
            path = _write_map(inc_map(), folder / "map.json")
            cfg = experiment_config(s, [path], ["check"], s.check_games, s.seed)
            _seed_check_folder(folder, cfg, inc_records(), "check")
            say(f"check: the incumbent looks balanced ({_pct(est)}); {s.check_games} games on the search seeds")
            recs = play(cfg, folder, False)
            chk = table_estimate(recs, rosters, agents)
            state["search_seconds"] += clock() - t0
            state["checked"].append(digest)
            inc["check"] = _est_json(chk)       # the sharper estimate now sets which way is toward 50%
            state["history"].append({"step": state["step"], "kind": "check", "table": _est_json(chk),
                                     "games": chk["games"], "tested": [], "kept": None})
            ok = within(chk, s.half_width)
            say(f"check: table {_pct(chk)} over {chk['games']} decisive games: "
                + ("within 50 +- %g: the search stops" % (100 * s.half_width) if ok else "not yet within 50 +- %g" % (100 * s.half_width)))
            if ok:
                state["stopped"], state["phase"] = "balanced", "confirm"
            save_state(out, state)
            continue
        if state["search_seconds"] >= s.budget_minutes * 60:
            state["stopped"], state["phase"] = "budget", "confirm"
            save_state(out, state)
            say(f"budget of {s.budget_minutes:g} min of search spent")
            break
        if state["step"] >= s.max_steps:
            state["stopped"], state["phase"] = "steps", "confirm"
            save_state(out, state)
            say(f"{s.max_steps} steps done")
            break
        t0 = clock()
        step = state["step"] + 1
        _search_step(s, problem, state, step, out, play, inc_map(), inc_records(), templates, say)
        state["step"] = step
        state["search_seconds"] += clock() - t0
        save_state(out, state)

    # --- the confirmation
    final = with_locks(inc_map(), held, on=False)       # the held pieces as they were: unlocked
    if state["phase"] == "confirm":
        cs = state["confirm_seed"]
        say(f"confirmation: {s.confirm_games} games on fresh seeds (experiment seed {cs})")
        path = _write_map(final, out / "after" / "balanced.json")
        cfg = experiment_config(s, [path], ["balanced"], s.confirm_games, cs)
        recs = play(cfg, out / "after", True)
        est = table_estimate(recs, rosters, agents)
        state["after"] = _est_json(est)
        state["history"].append({"step": state["step"], "kind": "confirm", "table": _est_json(est),
                                 "games": est["games"], "tested": [], "kept": None})
        state["phase"] = "done"
        save_state(out, state)
        say(f"confirmation: table {_pct(est)} over {est['games']} decisive games"
            + (" - within 50 +- %g" % (100 * s.half_width) if within(est, s.half_width) else ""))
    return Outcome(state, start, final, state.get("before"), state.get("after"))


def _search_step(s, problem, state, step, out, play, m, inc_recs, templates, say) -> None:
    from . import generate as G

    inc = state["incumbent"]
    b = (inc.get("check") or inc["table"])["coef"]
    phi0, _ = screen(problem, m)
    k = slope([(_phi(dphi), d) for dphi, d in state["slope_data"]])
    st = G.State(m, tuple(sorted(_templates_of(state, templates).items())), (), {}, 0.0)
    cands = proposals(problem, st, s.seed, step, s.proposals)
    picked = choose(problem, cands, m, phi0, b, k, s.tests, step_rng(s.seed, -step))
    if not picked:
        state["history"].append({"step": step, "kind": "search", "table": inc["table"], "tested": [], "kept": None,
                                 "note": "no candidate passed the constraints"})
        say(f"step {step}: no candidate passed the constraints")
        return
    # the folder is named by the candidates too: a resumed step that proposed other maps (after a
    # change of the code) can never take the games of the old ones for its own
    tag = hashlib.blake2b("".join(_digest(p[0].map) for p in picked).encode(), digest_size=3).hexdigest()
    folder = out / "search" / f"step-{step:03d}-{tag}"
    labels = [f"c{i + 1}" for i in range(len(picked))]
    paths = [_write_map(c.map, folder / f"{lab}.json") for lab, (c, *_) in zip(labels, picked)]
    words = [change_words(m, c.map, c.op, templates) for c, *_ in picked]
    for lab, w, (c, f, pred, how, phi) in zip(labels, words, picked):
        say(f"step {step}, candidate {lab} ({how}, predicted {100 * _expit(pred):.0f}%): {'; '.join(w) or c.edit.describe()}")
    cfg = experiment_config(s, paths, labels, s.search_games, s.seed)
    recs = play(cfg, folder, False)
    tested = []
    for lab, w, (c, f, pred, how, phi) in zip(labels, words, picked):
        cr = [r for r in recs if r["map"] == lab]
        est = table_estimate(cr, tuple(s.rosters), tuple(s.agents))
        pc = paired_change(inc_recs, cr, tuple(s.rosters), tuple(s.agents))
        d, se_d = pc if pc else (None, None)
        x = screen_figure(f)
        if d is not None:
            state["slope_data"].append([[a - a0 for a, a0 in zip(phi, phi0)], d])
        tested.append({"label": lab, "op": c.op, "how": how, "changes": w, "edit": edit_json(c.edit),
                       "describe": c.edit.describe(), "x": x, "walk": phi[1], "predicted": _expit(pred), "table": _est_json(est),
                       "d": d, "se_d": se_d, "gain_z": gain_z(b, d, se_d)})
        z = gain_z(b, d, se_d)
        say(f"  {lab}: table {_pct(est)}" + ("; no paired estimate" if d is None else
            "; every game as before: no change" if not se_d else
            f"; paired change {d:+.2f} log-odds (se {se_d:.2f}), {z:+.1f} se toward 50%"))
    keep = decide(b, tested, s.keep_z)
    if keep is not None:
        c = picked[keep][0]
        t = tested[keep]
        state["incumbent"] = {"map": json.loads(c.map.model_dump_json(exclude_none=True)),
                              "folder": str(folder.relative_to(out)), "label": t["label"], "paths": paths,
                              "labels": labels, "table": t["table"],
                              "x": t["x"], "walk": t["walk"], "templates": dict(c.templates)}
        state["edits"].append(t["edit"])
        state["changes"].append({"step": step, "op": t["op"], "words": t["changes"], "describe": t["describe"],
                                 "edit": t["edit"], "table": t["table"]})
    state["history"].append({"step": step, "kind": "search", "table": state["incumbent"]["table"],
                             "tested": tested, "kept": None if keep is None else tested[keep]["label"],
                             "slope": list(k), "keep_z": s.keep_z})
    cur = state["incumbent"]["table"]
    say(f"step {step}: " + (f"kept {tested[keep]['label']}" if keep is not None else "kept nothing")
        + f"; current table {_pct(cur)}")


def _phi(dphi) -> list:
    """A screen change as a list (a state written before the walk figure holds the hide change alone)."""
    return list(dphi) if isinstance(dphi, (list, tuple)) else [dphi]


def _templates_of(state, templates):
    t = state["incumbent"].get("templates")
    return dict(t) if t is not None else dict(templates)


def _cells(s: Settings):
    from engine.simulate import cells

    return cells(tuple(s.rosters), tuple(s.agents))


def _planned(s: Settings, games: int) -> int:
    k = len(_cells(s))
    return -(-games // k) * k


def _near(est: dict, s: Settings) -> bool:
    return (est.get("low") is not None and est["low"] <= 0.5 <= est["high"]
            and abs(est["share"] - 0.5) <= s.near)


def _digest(m: MapFile) -> str:
    return hashlib.blake2b(m.model_dump_json().encode(), digest_size=12).hexdigest()


def _pct(e: dict | None) -> str:
    if not e or e.get("share") is None:
        return "-"
    return f"{100 * e['share']:.0f}% [{100 * e['low']:.0f}-{100 * e['high']:.0f}]"


def seeds_of(records: list[dict]) -> set[int]:
    return {int(r["seed"]) for r in records}
