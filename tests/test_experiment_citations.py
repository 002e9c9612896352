"""Every experiment a doc cites replays (issue 60): a manifest cited from docs/ (or the README) is
either played again by its seeds (a sample checked by hash), or marked ``historical`` with the
reason and cited only from the experiment log. A search agent's manifest (a CPU budget a
decision, so its seeds alone do not replay it) replays by the answers its raw lines keep; the 15
hard-v-hard ones of before 2026-12-07 keep none, so they are historical. No third way: a cited
manifest that is not historical must play again."""
from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.manifest import (
    NAMES,
    ReplayError,
    load_manifest,
    manifest_in,
    manifest_text,
    manifests_under,
    recorded_answers,
    sample_keys,
    thinks_for_time,
)

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "docs" / "experiments" / "LOG.md"
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
MANIFESTS = manifests_under(ROOT / "data" / "experiments")
# a cited path: in a link or a code span; "<ruleset>" and "*" stand for any folder
CITED = re.compile(r"data/experiments/[A-Za-z0-9_.*<>/-]*")
FORMER_REFUSED = ROOT / "data/experiments/balance-layout/frontier/before/manifest.json.gz"


def _manifests_cited_by(page: Path) -> set[Path]:
    """The manifests a page cites: a manifest itself, every manifest at or below a cited folder,
    the manifest beside a cited file (a report, a picture)."""
    out: set[Path] = set()
    text = re.sub(r"/\s*\n\s*", "/", page.read_text(encoding="utf-8"))   # a path broken over two lines
    for cited in CITED.findall(text):
        pattern = re.sub(r"<[^>]*>", "*", cited.rstrip(".,;:"))
        if pattern.rstrip("/") == "data/experiments" or "**" in pattern:
            continue                                  # the folder itself, every manifest: no one experiment
        targets = list(ROOT.glob(pattern)) if "*" in pattern else [ROOT / pattern]
        for t in targets:
            if t.name in NAMES:
                out.add(t)
            elif t.is_dir():
                out.update(manifests_under(t))
            elif manifest_in(t.parent):
                out.add(manifest_in(t.parent))
    return out


def _history_has(commit: str) -> bool:
    if shutil.which("git") is None:
        return False
    return subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{commit}^{{commit}}"],
                          capture_output=True).returncode == 0


def _check(path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "game.cli", "experiment", "--check", str(path), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def _historical_cited_outside_the_log(pages: list[Path]) -> list[tuple[Path, Path]]:
    """(page, manifest) for each historical manifest a page other than the experiment log cites."""
    historical = {p for p in MANIFESTS if load_manifest(p).historical}
    return [(page, p) for page in pages if page != LOG for p in sorted(_manifests_cited_by(page) & historical)]


def _why_not_playable(path: Path) -> str | None:
    """Why a manifest's sample could not be played again, as far as it shows without playing (the
    history holds its commit, its maps were kept, a search agent's raw lines keep its answers)."""
    m = load_manifest(path)
    if m.historical:
        return f"historical: {m.historical}"
    if not _history_has(m.commit):
        return f"its commit {m.commit[:10]} is not in the history"
    lost = [x for x in map(str, m.config.get("maps", [])) if Path(x).is_absolute() and x not in m.map_files]
    if lost:
        return f"the map file {lost[0]} was not kept"
    if thinks_for_time(m.agents):                 # a CPU budget a decision: it replays by its answers only
        try:
            recorded_answers(m, sample_keys(m, 1))
        except ReplayError as err:
            return str(err)
    return None


def test_the_citations_are_found():
    cited = _manifests_cited_by(ROOT / "docs" / "rules" / "doubles.md")
    assert ROOT / "data/experiments/balance/doubles-easy/ash_skulls--bone_hunters/manifest.json.gz" in cited
    assert ROOT / "data/experiments/doubles-easy/manifest.json.gz" in _manifests_cited_by(ROOT / "README.md")


def test_every_manifest_replays_by_its_seeds_or_says_why_not():
    for path in MANIFESTS:
        m = load_manifest(path)
        if thinks_for_time(m.agents) and not m.historical:
            assert m.raw is not None, f"{path}: a search agent's games replay by the answers of their raw lines"
        if m.historical is None:
            assert not any(word in (m.note or "") for word in ("not kept", "never committed", "not committed")), \
                f"{path}: its note says it cannot be played again, but it is not marked historical"


def test_a_historical_manifest_is_cited_only_from_the_experiment_log():
    assert any(load_manifest(p).historical for p in MANIFESTS), "the manifests of code never committed as it ran"
    wrong = [f"{page.relative_to(ROOT)} cites {p.relative_to(ROOT)}" for page, p in _historical_cited_outside_the_log(PAGES)]
    assert wrong == []


def test_a_rules_page_citing_a_historical_experiment_is_caught(tmp_path):
    """The check above would fail if a rules page cited the hard-v-hard games (historical) as a figure."""
    page = tmp_path / "doubles.md"
    page.write_text("`hard` v `hard`: 42% [26-59] (`data/experiments/balance/doubles-hard/`).\n", encoding="utf-8")
    hard = set(manifests_under(ROOT / "data/experiments/balance/doubles-hard"))
    assert len(hard) == 3 and {p for _, p in _historical_cited_outside_the_log([page])} == hard
    assert _historical_cited_outside_the_log([LOG]) == []           # the log may tell their story


def test_every_cited_manifest_that_is_not_historical_can_be_played():
    """No escape by a note: a manifest a page cites is historical (and cited only from the log) or
    plays again (its sample is played under ``-m long`` and for one manifest in
    tests/test_experiment_manifest.py); here, what shows without playing."""
    if shutil.which("git") is None or not _history_has("HEAD"):
        pytest.skip("no git history: nothing to replay from")
    cited = sorted({p for page in PAGES for p in _manifests_cited_by(page)})
    assert len(cited) > 20, "the citations are found"
    why = {str(p.relative_to(ROOT)): _why_not_playable(p) for p in cited if not load_manifest(p).historical}
    assert {k: v for k, v in why.items() if v} == {}


def test_a_historical_manifest_is_not_played_and_says_why():
    path = next(p for p in MANIFESTS if load_manifest(p).historical)
    p = _check(path, "--sample", "1")
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert "historical, not played again" in p.stderr and load_manifest(path).historical in p.stderr


def test_a_start_map_kept_beside_the_history_plays_again():
    """The balance command's start maps were copies of files the history keeps: once named in
    map_files, the games that were refused ("the map file was not kept") play again."""
    m = load_manifest(FORMER_REFUSED)
    if not _history_has(m.commit):
        pytest.skip(f"no git history with {m.commit[:10]}: nothing to replay from")
    p = _check(FORMER_REFUSED, "--sample", "1")
    assert p.returncode == 0 and "OK: 1 of 1 games end in the recorded state" in p.stdout, p.stdout + p.stderr


@pytest.mark.long
@pytest.mark.parametrize("path", sorted({p for page in PAGES for p in _manifests_cited_by(page)}),
                         ids=lambda p: str(p.relative_to(ROOT / "data/experiments").parent))
def test_every_cited_manifest_plays_a_sample_again(path: Path):
    if load_manifest(path).historical:
        pytest.skip("historical: cited only from the experiment log, not played again")
    m = load_manifest(path)
    if not _history_has(m.commit):
        pytest.skip(f"no git history with {m.commit[:10]}")
    p = _check(path, "--sample", "1")
    assert p.returncode == 0, p.stdout + p.stderr


def test_the_manifest_json_keeps_its_format():
    # the manifests are written with indent 1 and ASCII escapes: a rewrite keeps diffs small
    text = gzip.decompress(FORMER_REFUSED.read_bytes()).decode()
    assert text == json.dumps(json.loads(text), indent=1) + "\n" == manifest_text(load_manifest(FORMER_REFUSED))
