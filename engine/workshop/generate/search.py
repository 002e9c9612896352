"""The layout generator's chains and search (the package note: ``__init__.py``): a chain on
the start map (``new_chain``) and its Metropolis moves at its temperature (``advance``), the
temperatures (``temperatures``), the parallel tempering run with its full-grid checks, learnt
corrections and CPU meter (``run``, ``_cpu_meter``), and the search as data
(``history_record``).
"""
from __future__ import annotations

import copy
import hashlib
import math
import random
import time
from dataclasses import dataclass, field, replace

from engine.data.maps import MapFile

from .. import edits as E
from ..corrections import clamp, merge_seen, note_seen, verdict
from ..reachability import reach_problems
from ..targets import meets
from .problem import (
    GenerateError,
    Problem,
    State,
    _counts,
    _instances,
    _score,
    coarse_figures,
    full_figures,
    lane_floors,
)
from .proposals import _fill, _place, _random_spot, _random_turn, _state, propose, try_edit


@dataclass
class Chain:
    index: int
    temp: float
    state: State
    rng: random.Random
    best: State
    steps: int = 0
    accepted: int = 0
    refused: dict = field(default_factory=dict)
    trace: list = field(default_factory=list)      # (step, current score, best score) of the last round
    seen: dict = field(default_factory=dict)       # each coarse figure's range over the layouts held


def chain_seed(seed: int, index: int) -> int:
    h = hashlib.blake2b(f"generate:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(h, "big")


def new_chain(problem: Problem, index: int, temp: float, seed: int, pre_edits: tuple = (), tries: int = 400) -> Chain:
    """A chain on the start map with each template's minimum placed."""
    rng = random.Random(chain_seed(seed, index))
    from engine.table import Table

    m = problem.start
    bad = reach_problems(Table(m), problem.base_mm, limit=1)
    if bad:
        raise GenerateError(f"the start layout breaks a constraint: {bad[0]}")
    table, figs = coarse_figures(problem, m)
    st = State(m, tuple(sorted(problem.start_templates)), tuple(pre_edits), figs,
               _score(figs, problem))
    for e in problem.entries:
        n = 0
        while _counts(st.map, st.template_of()).get(e.template, 0) < e.min:
            n += 1
            if n > tries:
                raise GenerateError(f"cannot place {e.min} of {e.template} with the gaps and zones asked "
                                    "(fewer, or smaller gaps)")
            pieces = _place(problem, st.map, e.template, _random_spot(problem, st.map, rng), _random_turn(rng))
            cand, _ = try_edit(problem, st, "add", E.AddPieces(pieces), e.template)
            if cand is None:
                continue
            nxt, table = _state(problem, cand, st, None)
            if not reach_problems(table, problem.base_mm, limit=1):
                st = nxt
    st = _fill(problem, st, rng)
    chain = Chain(index, temp, st, rng, st)
    note_seen(chain.seen, st.figures)
    return chain


def advance(problem: Problem, chain: Chain, steps: int, bias: dict | None = None) -> Chain:
    """``steps`` Metropolis moves of one chain at its temperature (a pure function of its
    arguments: the dask task of a round). Reachability, the dearest check, is asked only of a
    move the Metropolis rule would accept: a refused move needs no verdict, and every state
    the chain holds has passed it."""
    chain = replace(chain, rng=_copy_rng(chain.rng), refused=dict(chain.refused), trace=[],
                    seen=copy.deepcopy(chain.seen))
    st, best = chain.state, chain.best
    for _ in range(steps):
        chain.steps += 1
        cand, why = propose(problem, st, chain.rng)
        if cand is not None:
            nxt, table = _state(problem, cand, st, bias)
            delta = nxt.score - st.score
            if delta <= 0 or chain.rng.random() < math.exp(-delta / chain.temp):
                bad = reach_problems(table, problem.base_mm, limit=1)
                if bad:
                    why = "reach: " + bad[0]
                else:
                    st = nxt
                    chain.accepted += 1
                    note_seen(chain.seen, st.figures)
                    if st.score < best.score:
                        best = st
            else:
                why = "worse"
        if why:
            kind = why.split(":", 1)[0]
            chain.refused[kind] = chain.refused.get(kind, 0) + 1
        chain.trace.append((chain.steps, st.score, best.score))
    chain.state, chain.best = st, best
    return chain


def _copy_rng(rng: random.Random) -> random.Random:
    r = random.Random()
    r.setstate(rng.getstate())
    return r


def temperatures(n: int, cold: float = 0.03, hot: float = 1.0) -> list[float]:
    """``n`` temperatures spaced geometrically from ``cold`` to ``hot`` (score units: a miss of
    one tolerance step of line of sight is 1)."""
    if n == 1:
        return [cold]
    return [cold * (hot / cold) ** (i / (n - 1)) for i in range(n)]


def map_digest(m: MapFile) -> str:
    return hashlib.blake2b(m.model_dump_json().encode(), digest_size=12).hexdigest()


CHECK_EVERY = 3        # rounds: a layout is measured on the full grid at least this often


@dataclass
class Result:
    state: State                 # the layout chosen
    full: dict                   # its figures on the full grid
    met: bool                    # whether they meet every target
    rounds: int
    steps: int                   # moves tried over all chains
    seconds: float               # wall time of the search
    cpu_seconds: float           # CPU time of the search: this process's, and the workers' on a cluster
    met_seconds: float | None    # wall time until the targets were met on the full grid
    history: list                # per round: {"round", "chains": [[(step, score, best), ...], ...], "swaps"}
    checks: list                 # full-grid checks: {"round", "coarse", "full", "met", "why"}
    bias: dict                   # the corrections in force at the end (clamped)
    chains: list                 # the chains at the end (temperatures, acceptance, refusals)
    stopped: str                 # "targets met", "rounds", "CPU budget", "time limit"
    verdict: list = field(default_factory=list)    # per target missed: by how much and why
    learnt: dict = field(default_factory=dict)     # the corrections as learnt, before clamping
    seen: dict = field(default_factory=dict)       # each coarse figure's range over the layouts held


def _cpu_meter(client):
    """CPU seconds spent since the call: this process's, and with ``client`` its workers' too."""
    def workers() -> float:
        return 0.0 if client is None else float(sum(client.run(time.process_time).values()))

    c0, w0 = time.process_time(), workers()
    return lambda: time.process_time() - c0 + (workers() - w0 if client is not None else 0.0)


def run(problem: Problem, seed: int = 1, chains: int = 4, rounds: int = 60, steps: int = 20,
        pre_edits: tuple = (), client=None, time_limit: float | None = None, on_round=None,
        cpu_limit: float | None = None) -> Result:
    """Parallel tempering until the full grid says the targets are met, ``rounds`` rounds of
    ``steps`` moves per chain, or ``cpu_limit`` seconds of CPU (see the module note).
    ``client``: a dask client to run each round's chains on; ``on_round(round, chains,
    best_score, bias)`` reports progress."""
    t0, cpu = time.perf_counter(), _cpu_meter(client)
    temps = temperatures(chains)
    if client is None:
        pool = [new_chain(problem, i, temps[i], seed, pre_edits) for i in range(chains)]
    else:
        futs = [client.submit(new_chain, problem, i, temps[i], seed, pre_edits, pure=False) for i in range(chains)]
        pool = client.gather(futs)
    swap_rng = random.Random(chain_seed(seed, -1))
    bias: dict = {}
    learnt: dict = {}
    biases: dict = {}
    checked: dict = {}
    history, checks = [], []
    chosen = None
    met_at = None
    stopped = "rounds"
    last_check = 0
    r = 0
    check_cost = 0.0
    for r in range(1, rounds + 1):
        round_start = cpu()
        if client is None:
            pool = [advance(problem, c, steps, bias) for c in pool]
        else:
            futs = [client.submit(advance, problem, c, steps, bias, pure=False) for c in pool]
            pool = client.gather(futs)
        swaps = _swap(pool, swap_rng)
        seen = merge_seen(c.seen for c in pool)
        bias = _set_bias(pool, problem, bias, clamp(learnt, seen, problem.targets))
        cand = _best_candidate(pool, problem, bias)
        history.append({"round": r, "chains": [list(c.trace) for c in pool], "swaps": swaps,
                        "temps": [c.temp for c in pool], "best_figures": cand.figures if cand else None})
        if on_round:
            on_round(r, pool, cand.score if cand else None, bias)
        why = None
        passing = _best_unchecked(pool, problem, bias, checked, passing=True)
        if passing is not None:        # the best layout the coarse grid passes (not only the best score)
            cand, why = passing, "met on the coarse grid"
        elif r - last_check >= CHECK_EVERY:
            # none passes (or the one that does was measured): measure the best unchecked layout,
            # so that a correction is always learnt again and can never stop every check
            cand = _best_unchecked(pool, problem, bias, checked)
            why = f"no check in {CHECK_EVERY} rounds" if cand is not None else None
        if why is not None and cand is not None:   # a reason to check is given only with a layout
            c0 = cpu()
            full = full_figures(problem, cand.map)
            check_cost = max(check_cost, cpu() - c0)
            ok = meets(full, problem.targets)
            checked[map_digest(cand.map)] = (cand, full)
            checks.append({"round": r, "coarse": cand.figures, "full": full, "met": ok, "why": why})
            last_check = r
            _learn_bias(biases, cand.figures, full, problem.targets, lane_floors(problem))
            learnt = _mean_bias(biases)
            bias = _set_bias(pool, problem, bias, clamp(learnt, seen, problem.targets))
            if ok:
                chosen, met_at, stopped = (cand, full), time.perf_counter() - t0, "targets met"
                break
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            stopped = "time limit"
            break
        # stop before a round (and the closing measurement) that would not fit in the budget
        if cpu_limit is not None and cpu() + (cpu() - round_start) + check_cost > cpu_limit:
            stopped = "CPU budget"
            break
    seen = merge_seen(c.seen for c in pool)
    if chosen is None:
        # the best layout the search holds, measured on the full grid (or the best checked one)
        best = _best_candidate(pool, problem, bias)
        assert best is not None, "a run always holds at least one chain"
        cand = best
        key = map_digest(cand.map)
        full = checked[key][1] if key in checked else full_figures(problem, cand.map)
        chosen = (cand, full)
        for c2, f2 in checked.values():
            if _score(f2, problem) < _score(chosen[1], problem):
                chosen = (c2, f2)
    state, full = chosen
    ok = meets(full, problem.targets)
    if ok and met_at is None:       # the last round's best, measured at the end, meets them
        met_at, stopped = time.perf_counter() - t0, "targets met"
    reasons = [] if ok else verdict(problem.targets, full, state.figures, bias, seen, problem.start.unit)
    return Result(state, full, ok, r, sum(c.steps for c in pool), time.perf_counter() - t0, cpu(), met_at,
                  history, checks, bias, pool, stopped, reasons, learnt, seen)


def _set_bias(pool, problem: Problem, old: dict, new: dict) -> dict:
    """``new`` in force: the chains' scores follow it."""
    if new != old:
        for c in pool:
            c.state = _rescored(c.state, problem, new)
            c.best = _rescored(c.best, problem, new)
    return new


def _best_unchecked(pool, problem: Problem, bias: dict, checked: dict, passing: bool = False) -> State | None:
    """The best-scoring layout the chains hold (their current and best) not yet measured on the
    full grid; with ``passing``, only one whose corrected coarse figures meet every target."""
    states = sorted([c.best for c in pool] + [c.state for c in pool],
                    key=lambda s: (_score(s.figures, problem, bias), map_digest(s.map)))
    return next((s for s in states if map_digest(s.map) not in checked
                 and (not passing or meets(s.figures, problem.targets, bias))), None)


def _rescored(st: State, problem: Problem, bias: dict) -> State:
    return replace(st, score=_score(st.figures, problem, bias))


def _best_candidate(pool, problem: Problem, bias: dict) -> State | None:
    states = [c.best for c in pool] + [c.state for c in pool]
    if not states:
        return None
    return min(states, key=lambda s: (_score(s.figures, problem, bias), map_digest(s.map)))


def _learn_bias(biases: dict, coarse: dict, full: dict, targets, exact=()) -> None:
    """Full minus coarse for each figure a target reads: a per-side figure per side (the hides
    too when the hide difference is a target: the difference is then read from the biased hides,
    ``targets.with_bias``; a difference is never biased itself, it is |h1 - h2| >= 0). Not the
    figures of ``exact``, which the search already reads as the full grid does."""
    metrics = {t.metric for t in targets} - set(exact)
    if "hide_diff" in metrics:
        metrics = (metrics - {"hide_diff"}) | {"hide"}
    # no other difference (the objective access's) is biased either: |a - b| is never below 0, so
    # a correction learnt from one layout (coarse 0, full 5.3) kept every later reading above target
    metrics = {m for m in metrics if not m.endswith("_diff")}
    for metric in sorted(metrics):
        a, b = coarse.get(metric), full.get(metric)
        if a is None or b is None:
            continue
        if isinstance(a, dict):
            for side, x in a.items():
                if x is not None and b.get(side) is not None:
                    biases.setdefault(metric, {}).setdefault(side, []).append(b[side] - x)
        else:
            biases.setdefault(metric, []).append(b - a)


def _mean_bias(biases: dict) -> dict:
    """The running mean of each figure's learnt difference (per side for a per-side figure)."""
    return {k: ({s: sum(d) / len(d) for s, d in v.items()} if isinstance(v, dict) else sum(v) / len(v))
            for k, v in biases.items()}


def _swap(pool: list, rng: random.Random) -> list:
    """Offer each neighbouring pair of temperatures to swap layouts (the tempering step)."""
    out = []
    for i in range(len(pool) - 1):
        a, b = pool[i], pool[i + 1]
        x = (a.state.score - b.state.score) * (1 / a.temp - 1 / b.temp)
        ok = x >= 0 or rng.random() < math.exp(x)
        if ok:
            a.state, b.state = b.state, a.state
        out.append(bool(ok))
    return out


def instances(state: State) -> list[dict]:
    """The generated instances of a layout: group, template, pieces and centre (map units)."""
    tmpl = state.template_of()
    out = []
    for g, ids in _instances(state.map).items():
        x0, y0, x1, y1 = E.selection_bounds(state.map, [("piece", i) for i in ids])
        out.append({"group": g, "template": tmpl.get(g), "pieces": ids,
                    "centre": [round((x0 + x1) / 2, 3), round((y0 + y1) / 2, 3)]})
    return out


def history_record(result: Result, problem: Problem, seed: int, extra: dict | None = None) -> dict:
    """The search as data (``history.json``): what was asked, how it ended, the edits of the
    layout chosen, in words, and the score of every chain at every move."""
    unit = problem.start.unit
    rounds = []
    for h in result.history:
        last = [c[-1] for c in h["chains"] if c]
        bf = h.get("best_figures") or {}
        rounds.append({"round": h["round"], "end_step": last[0][0] if last else None,
                       "best": min((b for _, _, b in last), default=None), "swaps": h["swaps"],
                       **{k: bf.get(k) for k in ("los", "hide_diff", "cover", "lane") if k in bf}})
    return {
        **(extra or {}),
        "seed": seed,
        "symmetry": problem.symmetry,
        "targets": [t.text() for t in problem.targets],
        "base_mm": problem.base_mm,
        "piece_gap": problem.rules.piece_gap, "edge_gap": problem.rules.edge_gap, "unit": unit,
        "catalog": [{"template": e.template, "min": e.min, "max": e.max, "in_zones": e.in_zones} for e in problem.entries],
        "stopped": result.stopped, "met": result.met, "verdict": result.verdict,
        "seconds": round(result.seconds, 2), "cpu_seconds": round(result.cpu_seconds, 2),
        "met_seconds": None if result.met_seconds is None else round(result.met_seconds, 2),
        "rounds_run": result.rounds, "moves": result.steps,
        "full": result.full, "coarse": result.state.figures, "bias": result.bias, "bias_learnt": result.learnt,
        "coarse_ranges": result.seen,
        "checks": [{"round": c["round"], "met": c["met"], "why": c.get("why"),
                    "full_score": round(_score(c["full"], problem), 4),
                    "coarse": c["coarse"], "full": c["full"]} for c in result.checks],
        "chains": [{"index": c.index, "temp": c.temp, "moves": c.steps, "accepted": c.accepted, "refused": c.refused}
                   for c in result.chains],
        "edits": [e.describe() for e in result.state.edits],
        "instances": instances(result.state),
        "rounds": rounds,
        "trace": [{"round": h["round"], "chains": h["chains"]} for h in result.history],
    }
