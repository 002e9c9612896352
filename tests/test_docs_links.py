"""The README and the docs (issue 60): every relative link resolves, the README fits a screen or
two, and docs/ holds prose and pictures (under 2 MB, no raw game lines; those live compressed
under data/experiments/)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
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
