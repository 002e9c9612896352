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
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from engine.data.maps import MapFile

# the parts, by what they hold; their names are also this module's (tests and the CLI read them here)
from .balance_layout import (  # noqa: F401
    OPS,
    SCREEN,
    BalanceError,
    change_size,
    change_words,
    choose,
    edit_from_json,
    edit_json,
    figures,
    footprint,
    held_pieces,
    infer_templates,
    make_problem,
    proposals,
    screen,
    screen_figure,
    step_rng,
    symmetry_of,
    walk_figure,
    with_locks,
)
from .balance_state import STATE, VERSION, load_state, save_state  # noqa: F401 - the run's state, read here too
from .balance_stats import (  # noqa: F401
    PRIOR,
    WEIGHT,
    _expit,
    _logit,
    confirm_seed,
    decide,
    decisive,
    gain_of,
    gain_z,
    paired_change,
    predict,
    search_seeds,
    slope,
    table_estimate,
    within,
)


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
    keep_z: float = 1.0                       # the old keep rule's threshold (keep_rule "z")
    keep_rule: str = "sprt"                   # "sprt" (sequential.py) or "z" (gain >= keep_z se, one batch)
    alpha: float = 0.05                       # the SPRT's false-keep rate per step (split among its candidates)
    beta: float = 0.2
    p1: float = 0.6                           # H1: the helpful share of discordant pairs
    stage_games: int = 0                      # games a candidate per stage (0: search_games // 2)
    max_games: int = 0                        # most games a candidate (0: 3 x search_games)
    near: float = 0.03                        # check when the estimate is this close to 50%
    half_width: float = 0.05                  # stop when the interval lies within 50% +- this
    max_steps: int = 40
    max_decisions: int = 50_000
    # sight constraints beside the played share (None: not held)
    hide_diff_max: float | None = 10.0
    obj_diff_max: float | None = 0.0
    # a second confirmation with another pairing: "agents=normal" or "rosters=A,B" (None: none)
    confirm2: str | None = None

    def limits(self) -> dict:
        return {"hide_diff": self.hide_diff_max, "obj_diff": self.obj_diff_max}

    def second(self) -> tuple[tuple, tuple] | None:
        """(rosters, agents) of the second confirmation, or None."""
        if not self.confirm2:
            return None
        key, _, val = self.confirm2.partition("=")
        vals = tuple(v.strip() for v in val.split(",") if v.strip())
        if len(vals) == 1:
            vals = vals * 2
        if key == "agents":
            return tuple(self.rosters), vals
        return vals, tuple(self.agents)

    def to_json(self) -> dict:
        d = asdict(self)
        d["rosters"], d["agents"] = list(self.rosters), list(self.agents)
        return d


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
    before: dict | None     # the start's table effect (search seeds)
    after: dict | None      # the confirmation's (fresh seeds)


def _est_json(e: dict) -> dict:
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in e.items()}


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
    # settings added since a run began take their defaults there (its steps held no constraint)
    diff = [k for k in new if k not in free and k in old and old.get(k) != new[k]]
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
    problem, held = make_problem(start, s.ruleset, catalog, s.limits())
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

    def inc_records(games: int | None = None) -> list[dict]:
        # the incumbent's experiment again: it resumes with nothing left to play (or plays on to
        # ``games`` for a sequential test) and gives its records
        inc = state["incumbent"]
        n = max(games or s.search_games, s.search_games)
        cfg = experiment_config(s, inc["paths"], inc["labels"], n, s.seed)
        recs = [r for r in play(cfg, out / inc["folder"], False) if r["map"] == inc["label"]]
        return [r for r in recs if int(r["index"]) < _planned(s, games or s.search_games)]

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
        state["sight_before"] = sight_of(problem, start)
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
            seed_recs = inc_records()        # read (and checked) before anything is written
            path = _write_map(inc_map(), folder / "map.json")
            cfg = experiment_config(s, [path], ["check"], s.check_games, s.seed)
            _seed_check_folder(folder, cfg, seed_recs, "check")
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
        _search_step(s, problem, state, step, out, play, inc_map(), inc_records, templates, say)
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
        # the verdict is the confirmation's, on seeds the search never saw: "balanced" only when
        # its whole interval lies inside 50 +- half_width (45-55%)
        from . import confirmed as C

        state["verdict"] = C.verdict(est, (0.5 - s.half_width, 0.5 + s.half_width))
        if est.get("share") is not None:
            state["confirmation"] = json.loads(C.from_records(
                "balanced.json", s.ruleset, recs, est, cs, {}).model_dump_json())
        state["history"].append({"step": state["step"], "kind": "confirm", "table": _est_json(est),
                                 "games": est["games"], "tested": [], "kept": None})
        state["sight_after"] = sight_of(problem, final)
        state["phase"] = "confirm2" if s.second() else "done"
        save_state(out, state)
        say(f"confirmation: table {_pct(est)} over {est['games']} decisive games on fresh seeds: "
            f"verdict {state['verdict']} (balanced only inside 50 +- {100 * s.half_width:g})")
    if state["phase"] == "confirm2":
        # the same fresh seeds, another pairing: does the balance hold beyond the forces or agents
        # it was found with?
        rosters2, agents2 = s.second()  # type: ignore[misc]  # phase confirm2 only when second() gave a pairing
        cs = state["confirm_seed"]
        say(f"second confirmation: {s.confirm_games} games, rosters {','.join(map(str, rosters2))}, "
            f"agents {' v '.join(agents2)} (experiment seed {cs})")
        path = _write_map(final, out / "after-2" / "balanced.json")
        s2 = replace(s, rosters=rosters2, agents=agents2)
        cfg = experiment_config(s2, [path], ["balanced"], s.confirm_games, cs)
        recs = play(cfg, out / "after-2", True)
        est = table_estimate(recs, rosters2, agents2)
        state["after2"] = _est_json(est)
        state["after2_pairing"] = {"rosters": list(rosters2), "agents": list(agents2)}
        state["history"].append({"step": state["step"], "kind": "confirm2", "table": _est_json(est),
                                 "games": est["games"], "tested": [], "kept": None})
        state["phase"] = "done"
        save_state(out, state)
        say(f"second confirmation: table {_pct(est)} over {est['games']} decisive games")
    return Outcome(state, start, final, state.get("before"), state.get("after"))


def sight_of(problem, m: MapFile) -> dict:
    """The sight figures held as constraints: each side's hideability and objective access and
    their differences on the coarse grid the search screens on, the same on the 1" grid of
    ``analyze-map`` (``full``), and the limits the 1" figures break outright."""
    from .balance_layout import full_figures, limits_met

    f = figures(problem, m)
    out: dict[str, Any] = {k: f.get(k) for k in ("hide", "hide_diff", "objectives", "obj_diff")}
    out["full"] = full_figures(m)
    out["limits_broken"] = limits_met(problem, out["full"])     # judged on the designer's grid
    return out


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
    words = [change_words(m, c.map, c.op, templates) for c, *_ in picked]
    for lab, w, (c, _, pred, how, _) in zip(labels, words, picked):
        say(f"step {step}, candidate {lab} ({how}, predicted {100 * _expit(pred):.0f}%): {'; '.join(w) or c.edit.describe()}")
    runs, paths, inc_recs, spent = _play_candidates(s, b, folder, [c.map for c, *_ in picked], labels, play,
                                                    inc_recs, say)
    tested = []
    for lab, w, (c, f, pred, how, phi) in zip(labels, words, picked):
        cr, verdict, h, u = runs[lab]
        n_c = {int(r["index"]) for r in cr}
        est = table_estimate(cr, tuple(s.rosters), tuple(s.agents))
        pc = paired_change([r for r in inc_recs if int(r["index"]) in n_c], cr, tuple(s.rosters), tuple(s.agents))
        d, se_d = pc if pc else (None, None)
        x = screen_figure(f)
        if d is not None:
            state["slope_data"].append([[a - a0 for a, a0 in zip(phi, phi0)], d])
        tested.append({"label": lab, "op": c.op, "how": how, "changes": w, "edit": edit_json(c.edit),
                       "hide_diff": f.get("hide_diff"), "obj_diff": f.get("obj_diff"),
                       "describe": c.edit.describe(), "x": x, "walk": phi[1], "predicted": _expit(pred), "table": _est_json(est),
                       "d": d, "se_d": se_d, "gain_z": gain_z(b, d, se_d), "games": len(cr),
                       "sprt": verdict, "helpful": h, "unhelpful": u})
        z = gain_z(b, d, se_d)
        say(f"  {lab}: table {_pct(est)} over {len(cr)} games" + ("; no paired estimate" if d is None else
            "; every game as before: no change" if not se_d else
            f"; paired change {d:+.2f} log-odds (se {se_d:.2f}), {z:+.1f} se toward 50%")
            + (f"; discordant pairs {h} toward 50%, {u} away: {verdict}" if verdict else ""))
    keep = decide(b, tested, s.keep_z) if s.keep_rule == "z" else decide_sprt(b, tested)
    if keep is not None:
        c = picked[keep][0]
        t = tested[keep]
        state["incumbent"] = {"map": json.loads(c.map.model_dump_json(exclude_none=True)),
                              "folder": str((folder / t["label"]).relative_to(out)), "label": t["label"],
                              "paths": [paths[keep]], "labels": [t["label"]], "table": t["table"],
                              "x": t["x"], "walk": t["walk"], "templates": dict(c.templates)}
        state["edits"].append(t["edit"])
        state["changes"].append({"step": step, "op": t["op"], "words": t["changes"], "describe": t["describe"],
                                 "edit": t["edit"], "table": t["table"]})
    state["history"].append({"step": step, "kind": "search", "table": state["incumbent"]["table"],
                             "tested": tested, "kept": None if keep is None else tested[keep]["label"],
                             "slope": list(k), "keep_z": s.keep_z, "keep_rule": s.keep_rule,
                             "candidates": len(tested), "games": spent})
    cur = state["incumbent"]["table"]
    say(f"step {step}: " + (f"kept {tested[keep]['label']}" if keep is not None else "kept nothing")
        + f"; current table {_pct(cur)}; the step cost {len(tested)} candidates and {spent} games")


def _play_candidates(s, b, folder, maps, labels, play, inc_records, say):
    """Play each candidate map in its own experiment on the incumbent's seeds. The SPRT rule plays
    in stages and stops a candidate as soon as the test decides (``sequential.py``); the z rule
    plays one batch of ``search_games``. The candidates' maps are written only after the first
    read of the incumbent's games, so a damaged incumbent experiment is refused before this step
    writes anything. Returns ({label: (records, verdict, helpful, unhelpful)}, the candidates' map
    paths, the incumbent's records over the most games played, the games this step played)."""
    from .sequential import Sprt, pairs, toward

    if s.keep_rule == "z":
        stage = top = s.search_games
    else:
        stage = s.stage_games or max(1, s.search_games // 2)
        top = max(s.max_games or 3 * s.search_games, stage)
    test, zone = Sprt(s.alpha, s.beta, s.p1), toward(b)
    runs = {lab: ([], None, 0, 0) for lab in labels}
    open_, n, inc_recs, spent, paths = list(labels), 0, [], 0, []
    while open_ and n < top:
        n = min(top, n + stage)
        inc_recs = inc_records(n)
        if not paths:
            paths = [_write_map(m, folder / f"{lab}.json") for lab, m in zip(labels, maps)]
        for lab in list(open_):
            path = paths[labels.index(lab)]
            recs = play(experiment_config(s, [path], [lab], n, s.seed), folder / lab, False)
            recs = [r for r in recs if r["map"] == lab and int(r["index"]) < _planned(s, n)]
            spent += len(recs) - len(runs[lab][0])
            if s.keep_rule == "z":
                runs[lab] = (recs, None, 0, 0)
                continue
            h, u, _ = pairs(inc_recs, recs, zone)
            # no game came out otherwise: the change never came into play, and no number of
            # games would decide it (it used to play on to max_games)
            v = "no change" if h + u == 0 else test.decide(h, u, len(labels))
            runs[lab] = (recs, v or ("undecided" if n >= top else None), h, u)
            if v:
                open_.remove(lab)
    return runs, paths, inc_recs, spent


def decide_sprt(b: float, tested: list[dict]) -> int | None:
    """The candidate to keep under the SPRT rule: one the test kept whose paired change brings the
    table nearer 50% (no overshoot past it); of several, the largest gain in standard errors."""
    best, best_z = None, -math.inf
    for i, t in enumerate(tested):
        if t.get("sprt") != "keep" or t.get("d") is None or gain_of(b, t["d"]) <= 0:
            continue
        z = t["gain_z"] if t.get("gain_z") is not None else math.inf
        if z > best_z:
            best, best_z = i, z
    return best


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
