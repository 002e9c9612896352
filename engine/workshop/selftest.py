"""The fairness self-test: each ruleset played on exactly symmetric tables, easy v easy, on the
experiment's crossed design, with each deployment mode asked for. On such a table nothing can
favour a zone but chance, the deployment and the agents, so the table effect's interval must hold
50% on every table; one that does not is a defect of the code (docs/workshop.md, "The fairness
self-test"). The intervals are family-wise (``stats.family_z``): a run of 18 tables keeps its
chance of a false alarm at 5% in all, not 5% a table (60% that one of 18 cries wolf). The tables are made from the shipped maps (``symmetric_tables.py``: each
map's side-1 half and its image under every symmetry that swaps the zones) plus an empty table,
and any map given that is itself exactly symmetric; a ruleset plays those it accepts (Counterblast
wants a 3'x4' table 25-50% covered).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from engine.data.maps import MapFile

MODES = ("automatic", "alternate")
RULESETS = ("counterblast", "frontier", "doubles")
SHIPPED = ("outpost", "town", "prehistoric", "field")
EXACT_PCT = 0.5        # unmatched covered area (%) still counted as exact (raster noise at edges)


@dataclass
class TableResult:
    ruleset: str
    mode: str
    table: str
    symmetry: str
    games: int
    decisive: int
    share: float | None
    low: float | None
    high: float | None
    errors: int
    fam_low: float | None = None     # the family-wise interval (``finish``); the verdict's
    fam_high: float | None = None
    effect: dict | None = None       # the table effect as the experiment measured it

    @property
    def holds_half(self) -> bool:
        return self.fam_low is not None and self.fam_high is not None and self.fam_low <= 0.5 <= self.fam_high


def finish(results: list[TableResult], alpha: float = 0.05) -> float:
    """Give every result its family-wise interval over the whole run; returns the z used."""
    from .stats import family_z, widened

    z = family_z(len(results), alpha)
    for r in results:
        r.fam_low, r.fam_high = widened(r.effect, z)
    return z


def symmetric_tables(extra: dict[str, MapFile] | None = None) -> list[tuple[str, MapFile, str]]:
    """(label, map, transform) of every candidate self-test table: the shipped maps made
    symmetric, an empty table, and the ``extra`` maps (label -> map) that are exactly symmetric
    already (``pick`` chooses a ruleset's)."""
    from engine.core.tables import table_for
    from engine.data.maps import load_map
    from engine.paths import resolve_map

    from .symmetric_tables import swapping_transforms, symmetrized
    from .symmetry import symmetry_report

    out = []
    for m in SHIPPED:
        mf = load_map(resolve_map(m))
        for t in swapping_transforms(mf):
            made = MapFile.model_validate(symmetrized(mf, t).model_dump())
            if m == "field":        # the field's few pieces dropped: the empty table
                if t != "mirror_y":
                    continue
                made = made.model_copy(update={"id": "empty", "name": "Empty table (48x36\")", "pieces": []})
                out.append(("empty", made, t))
                continue
            out.append((made.id, made, t))
    for label, mf in (extra or {}).items():
        rep = symmetry_report(table_for(mf))
        if rep["fair_symmetry"] is None or rep["unmatched_pct"] > EXACT_PCT:
            raise ValueError(f"{label} is not symmetric under a transform that swaps its zones "
                             f"({rep['unmatched_pct']}% of its terrain has no image): not a self-test table")
        out.append((label, mf, rep["fair_symmetry"]))
    return out


def pick(ruleset: str, tables, limit: int) -> tuple[list[tuple[str, str]], list[str]]:
    """A ruleset's tables, at most ``limit``: every extra map given, then its home map under each
    of its symmetries, the empty table, the others' half turns, then the rest, each only when the
    ruleset accepts it; (chosen (label, transform), refusals in words)."""
    from engine.core.rules import get_rules

    home = get_rules(ruleset).home_map
    shipped_ids = {f"{m}-{t.replace('_', '-')}" for m in SHIPPED for t in ("point", "mirror_x", "mirror_y")} | {"empty"}

    def rank(item):
        label, _, t = item
        if label not in shipped_ids:
            return (0, label)
        if label.startswith(f"{home}-"):
            return (1, label)
        if label == "empty":
            return (2, label)
        return (3 if t == "point" else 4, label)

    chosen: list = []
    refused: list = []
    for label, mf, t in sorted(tables, key=rank):
        if len(chosen) >= limit:
            break
        why = accepts(ruleset, mf)
        if why:
            refused.append(f"{ruleset} on {label}: {why}")
        else:
            chosen.append((label, t))
    return chosen, refused


def accepts(ruleset: str, mf: MapFile) -> str | None:
    """None when ``ruleset`` sets up a game on ``mf``, else its reason."""
    from engine.core import Game, Setup
    from engine.core.errors import SetupError

    try:
        Game(Setup(ruleset, mf, (), {"deployment": "automatic"}, 1))
    except SetupError as err:
        return str(err)
    return None


def run_selftest(out: str | Path, rulesets=RULESETS, modes=MODES, games: int = 400, seed: int = 1,
                 workers: int = 2, scheduler: str | None = None, extra: dict[str, MapFile] | None = None,
                 progress: bool = True, log=print, tables_per_ruleset: int = 3) -> list[TableResult]:
    """Play the self-test into ``out`` (one experiment folder per ruleset and mode, resumable)
    and write ``report.md`` and ``selftest.json``; returns one result per ruleset, mode and table."""
    from engine.simulate import default_rosters

    from .experiment import Config, run

    out = Path(out)
    (out / "maps").mkdir(parents=True, exist_ok=True)
    tables = symmetric_tables(extra)
    for label, mf, _ in tables:
        (out / "maps" / f"{label}.json").write_text(json.dumps(mf.model_dump(mode="json"), indent=1) + "\n")
    results: list[TableResult] = []
    skipped: list[str] = []
    for rs in rulesets:
        mine, refused = pick(rs, tables, tables_per_ruleset)
        skipped += refused
        if not mine:
            continue
        for mode in modes:
            folder = out / f"{rs}-{mode}"
            cfg = Config(rs, tuple(str((out / "maps" / f"{lb}.json").resolve()) for lb, _ in mine), games, "easy",
                         "easy", tuple(default_rosters(rs)), seed, labels=tuple(lb for lb, _ in mine), any_map=True,
                         options=(("deployment", mode),))
            log(f"{rs}, deployment {mode}: {len(mine)} tables x {cfg.planned} games -> {folder}")
            info = run(cfg, folder, workers=workers, scheduler=scheduler, resume=folder.exists(), progress=progress)
            from .stats import summarize
            summary = summarize(info.records, cfg)
            for label, t in mine:
                s = summary.get(label, {})
                tb = s.get("table") or {}
                results.append(TableResult(rs, mode, label, t, s.get("distinct_games", 0), s.get("decisive", 0),
                                           tb.get("share"), tb.get("low"), tb.get("high"), s.get("errors", 0),
                                           effect=tb or None))
    z = finish(results)
    rows = [{k: v for k, v in r.__dict__.items() if k != "effect"} | {"holds_half": r.holds_half} for r in results]
    (out / "selftest.json").write_text(json.dumps(
        {"games_per_table": games, "seed": seed, "family_z": round(z, 4), "results": rows, "skipped": skipped},
        indent=1) + "\n")
    (out / "report.md").write_text(report(results, skipped, games, seed, z))
    return results


def _pct(v) -> str:
    return "–" if v is None else f"{100 * v:.0f}%"


def _iv(lo, hi) -> str:
    return f"[{_pct(lo)[:-1]}–{_pct(hi)[:-1]}]"


def report(results: list[TableResult], skipped: list[str], games: int, seed: int, z: float) -> str:
    ok = all(r.holds_half and not r.errors for r in results)
    lines = ["# Fairness self-test", "",
             f"Easy v easy on exactly symmetric tables, {games} crossed games a table (seed {seed}): the table "
             "effect (zone 1's share of decisive games, other things even) must hold 50% within its family-wise "
             f"interval: {len(results)} tables at z = {z:.2f}, so that all of them hold 50% with 95% confidence "
             "when the code is fair (the usual 95% interval of each table is shown beside it).", "",
             f"**{'PASS' if ok else 'FAIL'}**: " + (
                 "every table's family-wise interval holds 50%." if ok else
                 "a symmetric table favours a zone: a bias in the deployment or the agents (or errors)."), "",
             "| ruleset | deployment | table | symmetry | distinct games (decisive) | zone 1 wins [95%] | "
             "family-wise | holds 50% | errors |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r.ruleset} | {r.mode} | {r.table} | {r.symmetry.replace('_', ' ')} | {r.games} ({r.decisive}) | "
                     f"{_pct(r.share)} {_iv(r.low, r.high)} | {_iv(r.fam_low, r.fam_high)} | "
                     f"{'yes' if r.holds_half else '**no**'} | {r.errors} |")
    if skipped:
        lines += ["", "Tables a ruleset refuses (not played):", ""] + [f"- {s}" for s in skipped]
    return "\n".join(lines) + "\n"
