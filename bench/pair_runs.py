"""Resumable runs of paired games written as JSON lines, and reading them back: the two points
benches (``bench/doubles_values.py``, ``bench/counterblast_values.py``) share these."""
from __future__ import annotations

import json
import time
from pathlib import Path


def run_pairs(jobs: list[tuple], out: Path, play_pair, workers: int, chunksize: int, every: int) -> tuple[int, float]:
    """Play the ``jobs`` (each a tuple whose first item is its pair number) that ``out`` does not
    hold yet, ``play_pair(job) -> [records]`` on a pool of ``workers``, appending each record as a
    line as it comes (an interrupted run resumes); a line every ``every`` pairs. Returns the pairs
    played and the seconds taken."""
    from multiprocessing import Pool

    done = set()
    if out.exists():
        done = {json.loads(line)["pair"] for line in out.read_text().splitlines() if line.strip()}
    todo = [j for j in jobs if j[0] not in done]
    out.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    with Pool(workers) as pool, open(out, "a") as fh:
        for n, recs in enumerate(pool.imap_unordered(play_pair, todo, chunksize=chunksize), 1):
            for r in recs:
                fh.write(json.dumps(r, sort_keys=True) + "\n")
            fh.flush()
            if n % every == 0:
                print(f"{n + len(done)} of {len(jobs)} pairs, {time.time() - t0:.0f} s", flush=True)
    return len(todo), time.time() - t0


def _lines(path: Path) -> list[str]:
    if path.suffix == ".gz":
        import gzip

        return gzip.decompress(path.read_bytes()).decode().splitlines()
    return path.read_text().splitlines()


def load(paths) -> list[dict]:
    """Game records from JSONL files (``.jsonl.gz`` too: the kept runs are compressed), a game
    written twice (the same seed, pair and cell) read once; records of games that failed kept."""
    recs, seen = [], set()
    for p in paths:
        for line in _lines(Path(p)):
            if not line.strip():
                continue
            r = json.loads(line)
            key = (r["seed"], r["pair"], r["cell"])
            if key not in seen:
                seen.add(key)
                recs.append(r)
    return recs
