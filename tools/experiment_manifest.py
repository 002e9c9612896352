"""Write an experiment folder's manifest (``engine/manifest.py``) from its games and config.

    python tools/experiment_manifest.py SRC_FOLDER DEST_FOLDER [--raw-commit C] [--sample N]

SRC_FOLDER holds an experiment's ``config.json``, ``games.jsonl`` (or ``.gz``) and, usually,
``summary.json``; DEST_FOLDER gets ``manifest.json.gz`` (gzip; and a copy of ``report.md``). The commit
whose code played the games is the one that last wrote ``games.jsonl`` (``git log -1``); ``--raw-commit`` names a commit whose tree keeps the raw lines (default HEAD).
"""
from __future__ import annotations

import argparse
import gzip
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.manifest import (  # noqa: E402 - the project's root on the path first
    FORMAT,
    Manifest,
    digest,
    thinks_for_time,
    write_manifest,
)


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=True).stdout.strip()


def command_of(cfg: dict, out: str) -> str:
    parts = ["skirmish", "experiment", "--ruleset", cfg["ruleset"], "--maps", *cfg["maps"]]
    if cfg.get("labels") and list(cfg["labels"]) != [Path(m).stem for m in cfg["maps"]]:
        parts += ["--label", *cfg["labels"]]
    parts += ["--games", str(cfg["games"]), "--p1", cfg["p1"], "--p2", cfg["p2"]]
    if any(cfg.get("rosters") or ()):
        parts += ["--rosters", ",".join(str(r) for r in cfg["rosters"])]
    parts += ["--seed", str(cfg.get("seed", 1))]
    if cfg.get("any_map"):
        parts.append("--any-map")
    for k, v in sorted((cfg.get("options") or {}).items()):
        parts += ["--option", f"{k}={json.dumps(v) if not isinstance(v, str) else v}"]
    return shlex.join(parts + ["--out", out])


def _records(src: Path) -> tuple[list[dict], str]:
    plain, packed = src / "games.jsonl", src / "games.jsonl.gz"
    f = plain if plain.exists() else packed
    with (open(f) if f == plain else gzip.open(f, "rt")) as fh:
        return [json.loads(line) for line in fh if line.strip()], f.name


def build(src: Path, raw_commit: str, sample: int, rel: str | None = None) -> Manifest:
    cfg = json.loads((src / "config.json").read_text())
    recs, raw_name = _records(src)
    rel = rel or src.resolve().relative_to(ROOT).as_posix()
    # the commit that last wrote the raw lines: its code played them (a resumed or replayed run
    # rewrote the file)
    commit = _git("log", "-1", "--format=%H", "--", f"{rel}/{raw_name}") or raw_commit
    by_map: dict[str, dict[int, dict]] = {}
    for r in recs:
        by_map.setdefault(r["map"], {})[int(r["index"])] = r      # a resumed game's last record counts
    seeds, games, dig, samp = {}, {}, {}, {}
    for label, rs in by_map.items():
        idx = sorted(rs)
        blocks: dict[int, int] = {}
        for i in idx:
            blocks.setdefault(int(rs[i]["block"]), int(rs[i]["seed"]))
        seeds[label] = [blocks[b] for b in sorted(blocks)]
        games[label] = len(idx)
        dig[label] = digest([str(rs[i].get("final_hash")) for i in idx])
        samp[label] = {str(i): str(rs[i].get("final_hash")) for i in idx[:sample]}
    map_files = {}
    for p in cfg["maps"]:
        if p.endswith(".json") and (Path(p).is_absolute() or not _git("ls-tree", "--name-only", commit, p)):
            beside = [f for f in src.iterdir() if f.name == Path(p).name]
            above = [f for f in src.parent.iterdir() if f.name == Path(p).name]
            if beside:
                map_files[p] = f"{rel}/{beside[0].name}"
            elif above:                         # a map shared by the runs of a folder, kept in it
                map_files[p] = f"{rel.rpartition('/')[0]}/{above[0].name}"
            elif Path(p).name == "balanced.json" and list(src.parent.glob("*-balanced.json")):
                # a balance run's result, kept beside the run's other files
                name = sorted(src.parent.glob("*-balanced.json"))[0].name
                map_files[p] = f"{rel.rpartition('/')[0]}/{name}"
    missing = [p for p in cfg["maps"] if Path(p).is_absolute() and p not in map_files]
    note = (f"the map file {missing[0]} was not kept: these games cannot be played again" if missing else None)
    if thinks_for_time([cfg["p1"], cfg["p2"]]) and not all("answers" in r for r in recs if not r.get("error")):
        note = "; ".join(filter(None, [note, "the search agents think for a CPU budget, and these raw lines keep no "
                                       "answers: --check cannot play them again"]))
    summary_file = src / "summary.json"
    summary = json.loads(summary_file.read_text()).get("maps", {}) if summary_file.exists() else {}
    return Manifest(manifest=FORMAT, name=rel.removeprefix("docs/").removeprefix("bench/"),
                    command=command_of(cfg, src.name), commit=commit, config=cfg,
                    agents=[cfg["p1"], cfg["p2"]], seeds=seeds, games=games,
                    final_hashes={"digest": dig, "sample": samp}, summary=summary,
                    raw={"commit": raw_commit, "path": f"{rel}/{raw_name}"},
                    figures=sorted(p.name for p in src.glob("*.png")), map_files=map_files, note=note)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src")
    ap.add_argument("dest")
    ap.add_argument("--raw-commit", default=None)
    ap.add_argument("--path", help="SRC's path in the project's tree (default: SRC's own, under the project)")
    ap.add_argument("--sample", type=int, default=8, help="games per map whose full hash is kept")
    a = ap.parse_args(argv)
    m = build(Path(a.src), a.raw_commit or _git("rev-parse", "HEAD"), a.sample, a.path)
    dest = Path(a.dest)
    dest.mkdir(parents=True, exist_ok=True)
    path = write_manifest(m, dest)
    if (Path(a.src) / "report.md").exists():
        shutil.copyfile(Path(a.src) / "report.md", dest / "report.md")
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
