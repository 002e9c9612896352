"""``skirmish experiment --check MANIFEST``: a kept experiment's games played again, compared by hash
(``engine/manifest.py``)."""
from __future__ import annotations

from game.cli.args import fail


def cmd_check(args) -> int:
    from engine.data.errors import DataError
    from engine.manifest import (
        ReplayError,
        expected,
        load_manifest,
        recorded_answers,
        replay,
        sample_keys,
        thinks_for_time,
    )

    if args.sample < 0:
        return fail("skirmish experiment: --sample must be 0 or more", 2)
    try:
        m = load_manifest(args.check)
    except DataError as e:
        return fail(str(e), 1)
    if m.historical:           # nothing to play: its code is not in the history (the reason says why)
        return fail(f"skirmish experiment: --check {args.check}: historical, not played again: {m.historical}", 1)
    keys = sample_keys(m, args.sample or None)
    if m.note:
        print(f"note: {m.note}")
    where = "the running code" if args.here else f"commit {m.commit[:10]}"
    by_answers = thinks_for_time(m.agents)     # a search agent's clock: its games replay by their answers
    print(f"{m.name}: {len(keys)} of {sum(m.games.values())} games played again at {where}"
          + (", by their recorded answers" if by_answers else ""))
    try:
        got = replay(m, keys, here=args.here, answers=recorded_answers(m, keys) if by_answers else None)
    except ReplayError as e:
        return fail(f"skirmish experiment: --check {args.check}: {e}", 1)
    bad = [k for k in keys if got.get(k) != expected(m, k)]
    for k in keys:
        print(f"  {k}: {'same' if k not in bad else 'DIFFERS'} {got.get(k, '(not played)')}"
              + ("" if k not in bad else f" (recorded {expected(m, k)})"))
    if bad:
        print(f"FAIL: {len(bad)} of {len(keys)} games differ from the manifest")
        return 1
    print(f"OK: {len(keys)} of {len(keys)} games end in the recorded state")
    return 0
