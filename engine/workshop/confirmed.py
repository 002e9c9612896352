"""What a balanced map was confirmed under, and whether that still holds (issue 62).

A table balanced by simulated play is balanced for the game of its day: the rules, the agents,
how the forces deploy. Each balanced map carries a sidecar, ``<map>.confirmed.json`` (the
``Confirmation`` model below, validated by pydantic), recording the conditions of its confirming
experiment (ruleset and rules version, agents, rosters, deployment mode and options, commit,
experiment seed, games) and the interval it gave, with its verdict: "balanced" only when the
whole 95% interval lies inside 45-55%.

Two checks read it:

- ``changed(conf, map)`` (fast, a test runs it): the rules version and the deployment mode of
  today against the recorded ones, and a **sample** of the confirming games replayed on today's
  code: the first games' final state hashes must be the recorded ones. A change to the rules, to
  the agents' play or to the deployment that reaches this table changes a hash, even when no
  version was bumped.
- ``bench/balance_check.py`` plays the full confirmation again (the same number of games, on the
  recorded seed or a fresh one) and compares the intervals.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

SUFFIX = ".confirmed.json"
BAND = (0.45, 0.55)          # "balanced": the whole interval inside this band
FORMAT: Final = "skirmish-balance-confirmation"


class SampleGame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    index: int = Field(ge=0)
    seed: int
    rosters: tuple[str | None, str | None]
    agents: tuple[str, str]
    final_hash: str = Field(min_length=1, max_length=128)


class Confirmation(BaseModel):
    """The conditions a balanced map was confirmed under, and what the confirmation said."""
    model_config = ConfigDict(extra="forbid", strict=True)
    format: Literal["skirmish-balance-confirmation"] = FORMAT
    version: Literal[1] = 1
    map: str = Field(min_length=1, max_length=200, description="the map file, beside this one")
    ruleset: str = Field(min_length=1, max_length=40)
    rules_version: str = Field(min_length=1, max_length=40)
    agents: tuple[str, str]
    agent_budgets: str = Field("none", max_length=200,
                               description="the agents' budgets (easy has none: it plays one fixed policy)")
    rosters: tuple[str | None, str | None]
    deployment: str = Field(min_length=1, max_length=40, description="the deployment mode the games used")
    options: dict[str, str | int | float | bool] = Field(default_factory=dict)
    commit: str = Field(min_length=4, max_length=64)
    date: str = Field(max_length=40)
    experiment_seed: int
    games: int = Field(ge=1)
    decisive: int = Field(ge=0)
    share: float = Field(ge=0, le=1)
    low: float = Field(ge=0, le=1)
    high: float = Field(ge=0, le=1)
    verdict: Literal["balanced", "not balanced"]
    command: str = Field("", max_length=600, description="the command that reproduces the confirmation")
    sample: list[SampleGame] = Field(min_length=1, max_length=16)


def verdict(est: dict | None, band: tuple[float, float] = BAND) -> Literal["balanced", "not balanced"]:
    """"balanced" only when the interval lies inside the band (45-55% by default)."""
    if not est or est.get("low") is None or not all(math.isfinite(est[k]) for k in ("low", "high")):
        return "not balanced"
    return "balanced" if band[0] <= est["low"] and est["high"] <= band[1] else "not balanced"


def sidecar_of(map_path: str | Path) -> Path:
    p = Path(map_path)
    return p.with_name(p.name[:-len(".json")] + SUFFIX if p.name.endswith(".json") else p.name + SUFFIX)


class ConfirmationError(ValueError):
    """A sidecar that cannot be read: the file, the field and the reason."""


def load(path: str | Path) -> Confirmation:
    path = Path(path)
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as err:
        raise ConfirmationError(f"{path}: not a readable file ({err})") from None
    try:     # JSON mode: strict types, and a JSON array is a tuple
        return Confirmation.model_validate_json(text)
    except ValidationError as err:
        e = err.errors()[0]
        field = ".".join(str(x) for x in e["loc"]) or "(top)"
        raise ConfirmationError(f"{path}: field {field}: {e['msg']}") from None


def save(conf: Confirmation, path: str | Path) -> None:
    from engine.core.saves import write_atomic

    write_atomic(Path(path), conf.model_dump_json(indent=1) + "\n")


def deployment_mode(options: dict) -> str:
    from engine.rulesets.deployment import DeploymentOptions

    return str(options.get("deployment", DeploymentOptions().deployment))


def git_commit(root: str | Path | None = None) -> str:
    import subprocess

    root = root or Path(__file__).resolve().parents[2]
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=10", "HEAD"], capture_output=True,
                             text=True, timeout=10)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def from_records(map_name: str, ruleset: str, records: list[dict], est: dict, seed: int, options: dict,
                 command: str = "", sample_size: int = 2, commit: str | None = None) -> Confirmation:
    """The sidecar of a confirming experiment: its conditions, its interval and verdict, and its
    first ``sample_size`` games (by index) to replay."""
    import time

    from engine.core.saves import rules_version

    ok = sorted((r for r in records if not r.get("error") and r.get("final_hash")), key=lambda r: int(r["index"]))
    if not ok:
        raise ConfirmationError("no game of the confirmation finished: nothing to record")
    first = ok[0]
    agents = (first["agents"]["1"], first["agents"]["2"])
    rosters = (first["rosters"]["1"], first["rosters"]["2"])
    sample = [SampleGame(index=int(r["index"]), seed=int(r["seed"]), rosters=(r["rosters"]["1"], r["rosters"]["2"]),
                         agents=(r["agents"]["1"], r["agents"]["2"]), final_hash=str(r["final_hash"]))
              for r in ok[:sample_size]]
    return Confirmation(map=map_name, ruleset=ruleset, rules_version=rules_version(ruleset),
                        agents=agents,
                        rosters=rosters, deployment=deployment_mode(options),
                        options={str(k): v for k, v in options.items()}, commit=commit or git_commit(),
                        date=time.strftime("%Y-%m-%d"), experiment_seed=int(seed), games=len(ok),
                        decisive=int(est.get("games") or 0), share=float(est["share"]), low=float(est["low"]),
                        high=float(est["high"]), verdict=verdict(est), command=command, sample=sample)


def conditions_changed(conf: Confirmation) -> list[str]:
    """The recorded conditions that differ from today's (no game played)."""
    from engine.ai import agent_problem
    from engine.core.saves import rules_version

    why = []
    try:
        now = rules_version(conf.ruleset)
    except Exception as err:  # noqa: BLE001 - an unknown ruleset is a changed condition, said in words
        return [f"ruleset {conf.ruleset!r} is not known today ({err})"]
    if now != conf.rules_version:
        why.append(f"rules version: {conf.ruleset} was version {conf.rules_version}, today it is {now}")
    dep = deployment_mode(dict(conf.options))
    if dep != conf.deployment:
        why.append(f"deployment: the confirmation used {conf.deployment!r}, the same options give {dep!r} today")
    for a in set(conf.agents):
        bad = agent_problem(a)
        if bad:
            why.append(f"agent {a!r} cannot be made today: {bad}")
    return why


def replay_changed(conf: Confirmation, mapfile, limit: int | None = None) -> list[str]:
    """Replay the recorded sample games on today's code: a game whose final state differs says
    the game on this table has changed since the confirmation (rules, agents or deployment)."""
    from engine.simulate import GamePlan, play_planned

    why = []
    for g in conf.sample[:limit]:
        plan = GamePlan(g.index, 0, g.seed, tuple(g.rosters), (g.agents[0], g.agents[1]))
        rec, _ = play_planned(conf.ruleset, mapfile, plan, dict(conf.options))
        if rec.get("error"):
            why.append(f"sample game {g.index} (seed {g.seed}) fails today: {rec['error']}")
        elif rec["final_hash"] != g.final_hash:
            why.append(f"sample game {g.index} (seed {g.seed}) ends differently today "
                       f"(final state {rec['final_hash'][:10]}, recorded {g.final_hash[:10]})")
    return why


def changed(conf: Confirmation, mapfile, replay: bool = True, limit: int | None = None) -> list[str]:
    """Why the confirmation may no longer hold (empty: the conditions and the sample, or its first
    ``limit`` games, are as recorded)."""
    why = conditions_changed(conf)
    if replay and not why:
        why += replay_changed(conf, mapfile, limit)
    return why


def summary_line(conf: Confirmation) -> str:
    return (f"{conf.ruleset} (rules v{conf.rules_version}), {' v '.join(conf.agents)} (budgets: {conf.agent_budgets}), "
            f"deployment {conf.deployment}, commit {conf.commit}: zone 1 wins {100 * conf.share:.0f}% "
            f"[{100 * conf.low:.0f}-{100 * conf.high:.0f}] over {conf.decisive} decisive of {conf.games} games "
            f"(seed {conf.experiment_seed}): {conf.verdict}")
