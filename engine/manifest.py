"""An experiment's manifest: what it takes to play its games again and check them by hash.

A balance experiment (``skirmish experiment``) is deterministic: its configuration and the code
it ran on fix every game. So instead of its raw game lines, the project keeps for each experiment
a small manifest (``data/experiments/**/manifest.json.gz``): the command, the commit whose code
played the games, the configuration, the agents, the seeds, the games' final state hashes (a
digest of all of them per map, and the full hash of a sample of games) and the summary with its
intervals. ``skirmish experiment --check MANIFEST`` plays a sample again and compares the hashes:
at the manifest's commit (its code exported from the project's git history into a temporary
folder), or with the running code (``--here``: does today's code still play those games the same).

The kept manifests are gzip-compressed (``manifest.json.gz``: a fresh checkout stays small); a
plain ``manifest.json`` reads the same. The raw lines of a manifest's games stay in the project's history: ``raw`` names the commit and
the path (``git show COMMIT:PATH``). A manifest whose games cannot be played again (they ran on code
that was never committed as it ran, or a search agent's answers were not kept) says why in ``historical``; its figures are history only.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import stat
import subprocess
import sys
import tarfile
import tempfile
import zlib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from engine.data.errors import (
    MAX_FILE_BYTES,
    DataError,
    open_regular_file,
    parse_data,
    parse_json_text,
    read_text_file,
)

FORMAT = 1
ROOT = Path(__file__).resolve().parent.parent
HEX = r"^[0-9a-f]{7,64}$"
NAMES = ("manifest.json.gz", "manifest.json")     # kept gzip-compressed; a plain one reads the same


class RawLines(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    commit: str = Field(pattern=HEX, description="a commit whose tree holds the raw game lines")
    path: str = Field(min_length=1, max_length=1000, description="their path in that commit's tree")


class Hashes(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    digest: dict[str, str] = Field(description="per map: sha256 of its games' final hashes, in index order, one a line")
    sample: dict[str, dict[str, str]] = Field(description="per map: game index -> its final state hash")


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    manifest: int = Field(ge=FORMAT, le=FORMAT, description="the manifest format")
    name: str = Field(min_length=1, max_length=300)
    command: str = Field(min_length=1, max_length=4000, description="the command that played the games")
    commit: str = Field(pattern=HEX, description="the commit whose code played the games")
    config: dict[str, Any] = Field(description="the experiment's config.json")
    agents: list[str] = Field(min_length=2, max_length=2)
    seeds: dict[str, list[int]] = Field(description="per map: the seed of each seed block, in block order")
    games: dict[str, int] = Field(description="per map: the games played")
    final_hashes: Hashes
    summary: dict[str, Any] = Field(description="the summary (summary.json's per-map figures, with intervals)")
    raw: RawLines | None = None
    figures: list[str] = Field(default_factory=list, max_length=100,
                               description="the experiment's pictures, at raw.commit beside raw.path")
    map_files: dict[str, str] = Field(default_factory=dict, description="a map file as the config names it "
                                      "(a path outside the history) -> its path in raw.commit's tree")
    note: str | None = Field(None, max_length=4000, description="what a reader of the check should know")
    historical: str | None = Field(None, min_length=1, max_length=4000,
                                   description="why these games can no longer be played again (code never "
                                   "committed as it ran, a change never shipped, a search's answers not kept): their figures are history, "
                                   "cited only from docs/experiments/LOG.md, and --check does not play them")


SEEDED_AGENTS = ("random", "easy")     # agents whose every choice follows from the game and their seed


def thinks_for_time(agents) -> bool:
    """Whether one of ``agents`` (names, parameters included) searches for a budget of time: its
    choices depend on the machine and its load, so its games replay by their recorded answers
    (an experiment's raw lines keep them, ``answers``), not by their seeds."""
    return any(str(a).split(":", 1)[0] not in SEEDED_AGENTS for a in agents)


def digest(hashes: list[str]) -> str:
    return hashlib.sha256("".join(h + "\n" for h in hashes).encode()).hexdigest()


def read_text(path: Path) -> str:
    """A manifest's text, gunzipped when its name ends in ``.gz``; ``DataError`` (the file, the
    reason) when it cannot be read. The compressed file is opened as ``read_text_file`` opens any
    data file (a pipe or a device refused, not waited on), and its text held to the same bound."""
    if path.suffix != ".gz":
        return read_text_file(path)
    fd = open_regular_file(path)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise DataError(path, [("", "is not a regular file")])
    with os.fdopen(fd, "rb") as f:
        try:
            data = gzip.GzipFile(fileobj=f).read(MAX_FILE_BYTES + 1)
        except (OSError, EOFError, zlib.error) as err:          # not gzip, or cut short
            raise DataError(path, [("", f"does not unpack (gzip): {err}")]) from None
    if len(data) > MAX_FILE_BYTES:
        raise DataError(path, [("", f"unpacks to more than any data file ({MAX_FILE_BYTES:,} bytes)")])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise DataError(path, [("", f"cannot read: {err}")]) from None


def load_manifest(path: str | Path) -> Manifest:
    """The manifest at ``path`` (``.json``, or ``.json.gz`` compressed); ``DataError`` with the
    file, the field and the reason if it is not one."""
    path = Path(path)
    return parse_data(Manifest, parse_json_text(read_text(path), path), path)


def manifest_text(m: Manifest) -> str:
    """A manifest as the project writes it: indent 1, ASCII escapes (a rewrite keeps diffs small)."""
    return json.dumps(m.model_dump(exclude_defaults=True), indent=1) + "\n"


def write_manifest(m: Manifest, folder: Path) -> Path:
    """``folder/manifest.json.gz``, written atomically (a temporary file beside it, then renamed);
    ``mtime=0`` so the same manifest gives the same bytes."""
    path = Path(folder) / NAMES[0]
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(gzip.compress(manifest_text(m).encode(), 9, mtime=0))
    tmp.replace(path)
    return path


def manifests_under(folder: str | Path) -> list[Path]:
    """Every manifest at or below ``folder`` (either name), sorted."""
    return sorted(p for name in NAMES for p in Path(folder).rglob(name))


def manifest_in(folder: str | Path) -> Path | None:
    """The manifest of one experiment folder, if it holds one."""
    return next((Path(folder) / n for n in NAMES if (Path(folder) / n).is_file()), None)


# Played in a child process from the folder the code was exported to (or the running code's), the
# start of both scripts below: ``jobs_of(raw)`` builds that code's experiment Config from the
# manifest's (only the fields it knows) and gives its jobs.
_JOBS = r"""
import dataclasses, json, sys
from engine.workshop.experiment import Config, jobs


def jobs_of(raw):
    names = {f.name for f in dataclasses.fields(Config)}
    c = {k: v for k, v in raw.items() if k in names}
    for k in ("maps", "rosters", "labels"):
        if k in c:
            c[k] = tuple(c[k])
    if "options" in c:
        c["options"] = tuple(sorted((c["options"] or {}).items()))
    return jobs(Config(**c))
"""

# Plays the asked games; prints {"label:index": final_hash}.
_REPLAY = _JOBS + r"""
from engine.workshop.experiment import run_game
raw, keys = json.loads(sys.argv[1]), set(json.loads(sys.argv[2]))
out = {}
for job in jobs_of(raw):
    key = f"{job.map}:{job.index}"
    if key in keys:
        rec = run_game(job)
        out[key] = rec.get("final_hash") or ("error: " + str(rec.get("error")))
print(json.dumps(out))
"""


# The same, for games played by their recorded answers (a search agent's): each game set up from its
# job as the experiment set it up, then its answers submitted in order; prints {"label:index": hash}.
_REPLAY_ANSWERS = _JOBS + r"""
from engine.core.protocol import Choice
from engine.simulate import GamePlan, new_game
from engine.workshop.experiment import _load
raw, answers = json.loads(sys.stdin.read())
out = {}
for job in jobs_of(raw):
    key = f"{job.map}:{job.index}"
    if key in answers:
        plan = GamePlan(job.index, job.block, job.seed, tuple(job.rosters), tuple(job.agents))
        game = new_game(job.ruleset, _load(job.path or job.map), plan, dict(job.options))
        try:
            for player, choice in answers[key]:
                game.submit(int(player), Choice.from_json(choice))
            out[key] = game.state_hash()
        except Exception as err:
            out[key] = f"error: answer {len(game.decisions)}: {type(err).__name__}: {err}"
print(json.dumps(out))
"""


class ReplayError(RuntimeError):
    """The games could not be played again (no git history, a commit not there, a crash): why."""


def _git(*args: str) -> bytes:
    try:
        p = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise ReplayError(f"git {' '.join(args)}: {err}") from err
    if p.returncode != 0:
        raise ReplayError(f"git {' '.join(args)}: {p.stderr.decode(errors='replace').strip()}")
    return p.stdout


def _export(commit: str, paths: list[str], into: Path) -> None:
    """``paths`` (those the commit's tree holds) of ``commit`` written under ``into``."""
    listed = _git("ls-tree", "--name-only", commit, *paths).decode().split()
    if not listed:
        return
    with tempfile.TemporaryFile() as tar:
        tar.write(_git("archive", "--format=tar", commit, *listed))
        tar.seek(0)
        with tarfile.open(fileobj=tar) as t:
            t.extractall(into, filter="data")


def replay(m: Manifest, keys: list[str], here: bool = False, timeout: float = 3600,
           answers: dict[str, list] | None = None) -> dict[str, str]:
    """Play the games ``keys`` ("label:index") of ``m`` again: {key: final hash}. At the
    manifest's commit, or with the running code when ``here``; by their seeds, or, given
    ``answers`` ({key: [[player, choice], ...]}), by those answers. ``ReplayError`` says why not."""
    maps = [str(x) for x in m.config.get("maps", [])]
    lost = [p for p in maps if Path(p).is_absolute() and p not in m.map_files]
    if lost:
        raise ReplayError(f"the map file {lost[0]} was not kept (a path outside the project): these games "
                          "cannot be played again")
    config = dict(m.config)
    with tempfile.TemporaryDirectory(prefix="skirmish-replay-") as tmp:
        work = Path(tmp)
        files = [p for p in maps if p.endswith(".json") and p not in m.map_files]   # relative to where it ran
        if files:
            _export(m.commit, files, work)
        if m.map_files and m.raw:
            _export(m.raw.commit, sorted(set(m.map_files.values())), work)
            config["maps"] = [m.map_files.get(p, p) for p in maps]
            config["labels"] = list(config.get("labels") or [Path(p).stem for p in maps])
        if here:
            code = ROOT
        else:
            _export(m.commit, ["engine", "maps", "skirmish_maps", "skirmish_assets"], work)
            code = work
        env = {**os.environ, "PYTHONPATH": str(code)}
        if answers is None:
            cmd, stdin = [sys.executable, "-c", _REPLAY, json.dumps(config), json.dumps(keys)], None
        else:
            cmd, stdin = [sys.executable, "-c", _REPLAY_ANSWERS], json.dumps([config, {k: answers[k] for k in keys}])
        try:
            p = subprocess.run(cmd, cwd=work, env=env, input=stdin, capture_output=True, text=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired as err:
            raise ReplayError(f"the replay took longer than {timeout:.0f} s") from err
        if p.returncode != 0:
            tail = (p.stderr.strip().splitlines() or ["(no output)"])[-1]
            raise ReplayError(f"the replay at {'the running code' if here else m.commit[:10]} failed: {tail}")
        try:
            return {str(k): str(v) for k, v in json.loads(p.stdout.strip().splitlines()[-1]).items()}
        except (ValueError, IndexError, AttributeError) as err:
            raise ReplayError(f"the replay printed no result: {p.stdout[-200:]!r}") from err


def answers_in(lines, keys: list[str]) -> dict[str, list]:
    """The recorded answers of the games ``keys`` among an experiment's raw lines; ``ReplayError``
    when a game's line keeps none (experiments before 2026-12-07 did not record them)."""
    want, out = set(keys), {}
    for line in lines:
        try:
            rec = json.loads(line)
        except ValueError:
            continue                    # a line cut short by a kill: the experiment drops it too
        key = f"{rec.get('map')}:{rec.get('index')}" if isinstance(rec, dict) else None
        if key in want and isinstance(rec.get("answers"), list):
            out[key] = rec["answers"]
    missing = [k for k in keys if k not in out]
    if missing:
        raise ReplayError(f"the raw lines keep no answers for {missing[0]} ({len(missing)} of {len(keys)} games): "
                          "a search agent thinks for a CPU budget, so its games replay only by their recorded "
                          "answers, and these were played before experiments recorded them")
    return out


def recorded_answers(m: Manifest, keys: list[str]) -> dict[str, list]:
    """The answers of the games ``keys``, read from the raw lines in the history (``raw``)."""
    if m.raw is None:
        raise ReplayError("the manifest names no raw lines, so no recorded answers to play")
    data = _git("show", f"{m.raw.commit}:{m.raw.path}")
    if m.raw.path.endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as err:      # not gzip, or cut short
            raise ReplayError(f"the raw lines {m.raw.path} at {m.raw.commit[:10]} do not unpack: {err}") from err
    return answers_in(data.decode(errors="replace").splitlines(), keys)


def sample_keys(m: Manifest, n: int | None) -> list[str]:
    """Up to ``n`` of the manifest's sampled games, taken in turn from each map (all when None)."""
    per_map = [[f"{label}:{i}" for i in sorted(s, key=int)] for label, s in m.final_hashes.sample.items()]
    out: list[str] = []
    while any(per_map) and (n is None or len(out) < n):
        for keys in per_map:
            if keys and (n is None or len(out) < n):
                out.append(keys.pop(0))
    return out


def expected(m: Manifest, key: str) -> str:
    label, _, i = key.rpartition(":")
    return m.final_hashes.sample[label][i]
