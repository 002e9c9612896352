"""Kept experiments (issue 60): every manifest under data/experiments reads, and a sample of one
is played again at its commit and ends in the recorded states (``skirmish experiment --check``)."""
from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.data.errors import DataError
from engine.manifest import load_manifest, manifest_text, manifests_under, write_manifest

ROOT = Path(__file__).resolve().parents[1]
MANIFESTS = manifests_under(ROOT / "data" / "experiments")
SAMPLE = ROOT / "data/experiments/doubles-easy/manifest.json.gz"  # easy v easy: half a second a game; gzip


def _check(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "game.cli", "experiment", "--check", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def _history_has(commit: str) -> bool:
    if shutil.which("git") is None:
        return False
    return subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{commit}^{{commit}}"],
                          capture_output=True).returncode == 0


def test_every_manifest_reads_and_keeps_its_games_hashes_and_summary():
    assert len(MANIFESTS) >= 79
    for path in MANIFESTS:
        m = load_manifest(path)
        assert set(m.final_hashes.digest) == set(m.games), path
        assert all(m.final_hashes.sample.values()), path
        assert m.summary, path


def test_a_sample_of_a_kept_experiment_plays_again_to_the_recorded_hashes(tmp_path):
    m = load_manifest(SAMPLE)
    if not _history_has(m.commit):
        pytest.skip(f"no git history with {m.commit[:10]} (a plain export): nothing to replay from")
    p = _check(str(SAMPLE), "--sample", "2")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "OK: 2 of 2 games end in the recorded state" in p.stdout

    # the same manifest with one recorded hash changed: the check finds it, exit 1
    data = json.loads(gzip.decompress(SAMPLE.read_bytes()))
    label = next(iter(data["final_hashes"]["sample"]))
    data["final_hashes"]["sample"][label]["0"] = "0" * 32
    bad = tmp_path / "manifest.json"
    bad.write_text(json.dumps(data))
    p = _check(str(bad), "--sample", "1")
    assert p.returncode == 1 and f"{label}:0: DIFFERS" in p.stdout, p.stdout + p.stderr


def test_a_manifest_that_is_not_one_is_refused_with_its_field(tmp_path):
    data = json.loads(gzip.decompress(SAMPLE.read_bytes()))
    data["commit"] = "not a commit"
    bad = tmp_path / "manifest.json"
    bad.write_text(json.dumps(data))
    p = _check(str(bad))
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert "commit" in p.stderr and str(bad) in p.stderr


def test_a_gzipped_manifest_reads_as_its_plain_text_and_is_written_the_same(tmp_path):
    """The kept manifests are gzip-compressed (a fresh checkout stays small): one reads as its plain
    text does, and writing it again gives the same bytes (mtime 0, indent 1)."""
    assert all(p.name == "manifest.json.gz" for p in MANIFESTS)
    m = load_manifest(SAMPLE)
    plain = tmp_path / "manifest.json"
    plain.write_text(gzip.decompress(SAMPLE.read_bytes()).decode())
    assert load_manifest(plain) == m and plain.read_text() == manifest_text(m)
    out = tmp_path / "again"
    out.mkdir()
    assert write_manifest(m, out).read_bytes() == SAMPLE.read_bytes()


def test_a_damaged_gzipped_manifest_is_refused_with_the_file_and_the_reason(tmp_path):
    cut = tmp_path / "manifest.json.gz"
    cut.write_bytes(SAMPLE.read_bytes()[:200])                   # cut short
    with pytest.raises(DataError, match="does not unpack"):
        load_manifest(cut)
    p = _check(str(cut))
    assert p.returncode == 1 and "Traceback" not in p.stderr and str(cut) in p.stderr and "does not unpack" in p.stderr
    notgz = tmp_path / "x" / "manifest.json.gz"
    notgz.parent.mkdir()
    notgz.write_text("{}")
    with pytest.raises(DataError, match="does not unpack"):
        load_manifest(notgz)
    (tmp_path / "folder.json.gz").mkdir()
    with pytest.raises(DataError, match="is not a regular file"):
        load_manifest(tmp_path / "folder.json.gz")                 # refused, not read
