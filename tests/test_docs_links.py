"""The README and the docs (issue 60): every relative link resolves, the README fits a screen or
two, and docs/ holds prose and pictures (under 2 MB, no raw game lines; those live compressed
under data/experiments/); a fresh checkout's data files stay under 5 MB."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
# the data files of a checkout, as docs/experiments/LOG.md counts them (its `find ... du` command)
DATA_FILES = (".json", ".jsonl", ".gz", ".csv", ".png", ".ttf", ".wav", ".log", ".diff", ".txt")
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _targets(page: Path):
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)   # code blocks hold no links
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue                                             # a web address, a mail, an anchor
        yield target.split("#", 1)[0]


def test_every_relative_link_in_the_readme_and_docs_resolves():
    broken = [f"{page.relative_to(ROOT)}: {t}" for page in PAGES if page.exists() for t in _targets(page)
              if not (page.parent / t).exists()]
    assert broken == []


def test_the_readme_fits_about_two_screens():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 120


def test_docs_hold_prose_and_pictures_only():
    files = [p for p in (ROOT / "docs").rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in files) < 2 * 1024 ** 2
    raw = [p for p in [*files, *(ROOT / "bench").rglob("*")] if ".jsonl" in p.name or p.suffix in (".gz", ".log")]
    assert raw == []


def test_a_fresh_checkouts_data_files_stay_under_5_mb():
    """Issue 60: the tracked data files (maps, manifests, raw lines, pictures, fonts, sounds) of a
    fresh checkout under 5 MB (5,000,000 bytes, as the LOG's command counts them)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: no list of tracked files")
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    files = [ROOT / f for f in tracked.decode().split("\0") if f.endswith(DATA_FILES)]
    total = sum(p.stat().st_size for p in files if p.is_file())
    assert total < 5_000_000, f"{total:,} bytes of data files in {len(files)} tracked files"
