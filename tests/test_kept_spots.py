"""easy's move geometry kept per the bases (``easy_moves.kept_spots``, issue 28's third pass):
Doubles asks its best move again whenever a fighter's action points or wounds differ, with the
same bases; the candidate points and what they see are then taken from the memo. Every kept
answer must equal a fresh ``candidate_moves`` + ``measure``, number for number."""
import numpy as np
from ai_fixtures import _agents, _game  # noqa: E402

import engine.ai.easy_doubles as easy_doubles
from engine.ai import easy_moves
from engine.ai.easy_moves import Spot, candidate_moves, measure


def _same(a: list[Spot], b: list[Spot]) -> None:
    assert [s.move for s in a] == [s.move for s in b] and [s.base for s in a] == [s.base for s in b]
    assert [s.goal for s in a] == [s.goal for s in b]
    for x, y in zip(a, b):
        for f in ("sees", "seen", "cover"):
            assert np.array_equal(getattr(x, f), getattr(y, f), equal_nan=True)


def test_kept_spots_equal_fresh_ones_in_a_searched_doubles_game(monkeypatch):
    real = easy_moves.kept_spots
    asked = {"n": 0, "kept": 0}

    def checked(memo, space, grid, table, here, mover, enemies, others, field_, goal_fields=(), goal_points=(),
                extra=(), stop_short=0.0, sees_within=None, seen_within=None, limit=128):
        before = len(memo)
        got = real(memo, space, grid, table, here, mover, enemies, others, field_, goal_fields, goal_points,
                   extra, stop_short, sees_within, seen_within, limit)
        asked["n"] += 1
        if len(memo) == before:               # answered from the memo
            asked["kept"] += 1
            moves = candidate_moves(space, grid, goal_fields, goal_points, extra, stop_short=stop_short)
            fresh = measure(table, mover, [here] + moves, enemies, others, field_, grid,
                            sees_within=sees_within, seen_within=seen_within)
            _same(got, fresh)
            again = real(memo, space, grid, table, here, mover, enemies, others, field_, goal_fields,
                         goal_points, extra, stop_short, sees_within, seen_within, limit)
            assert all(x is not y for x, y in zip(got, again))     # each call scores its own Spots
        return got

    monkeypatch.setattr(easy_doubles, "kept_spots", checked)
    g = _game("doubles", 11)
    # hard-2026's depth and candidates: two activations a playout ask the kept questions again
    # (hard's own defaults since issue 61, depth 1, rarely ask one twice in a few decisions)
    agents = _agents(g, ("hard:iters=2,k=4,depth=2", "easy"), 11)
    agents[1].bind_worlds(lambda rng: g.sample_world(1, rng))
    for _ in range(80):
        d = g.pending()
        if d is None:
            break
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    assert asked["kept"] >= 10, asked


def test_a_question_with_other_bases_is_not_answered_from_the_memo(monkeypatch):
    """The key holds the other bases: the same question with one of them moved is measured
    afresh (and equals a fresh look), the same question again is answered from the memo."""
    seen = []
    real = easy_moves.kept_spots
    monkeypatch.setattr(easy_doubles, "kept_spots", lambda *a, **k: seen.append((a, k)) or real(*a, **k))
    g = _game("doubles", 3)
    agents = _agents(g, ("easy", "easy"), 3)
    while (d := g.pending()) is not None and not any(a[7] for a, _ in seen):
        g.submit(d.player, agents[d.player].choose(d, g.view(d.player)))
    args, kw = next((a, k) for a, k in seen if a[7])
    memo: dict = {}
    first = real(memo, *args[1:], **kw)
    assert len(memo) == 1
    _same(real(memo, *args[1:], **kw), first)
    assert len(memo) == 1                                   # the same question: kept
    others = list(args[7])
    others[0] = others[0].moved(others[0].x + 40.0, others[0].y)
    moved = args[1:7] + (others,) + args[8:]
    got = real(memo, *moved, **kw)
    assert len(memo) == 2                                   # another question
    space, grid, table, here, mover, enemies, _, field_, goal_fields, goal_points = moved[:10]
    fresh = measure(table, mover, [here] + candidate_moves(space, grid, goal_fields, goal_points,
                                                           stop_short=kw.get("stop_short", 0.0)),
                    enemies, others, field_, grid, sees_within=kw.get("sees_within"),
                    seen_within=kw.get("seen_within"))
    _same(got, fresh)
    # the pairs measured are part of the question too: no shot after the move reads no sight
    kw2 = dict(kw, sees_within=[-1.0] * len(args[6]))
    got = real(memo, *args[1:], **kw2)
    assert len(memo) == 3
    space, grid, table, here, mover, enemies, others, field_, goal_fields, goal_points = args[1:11]
    fresh = measure(table, mover, [here] + candidate_moves(space, grid, goal_fields, goal_points,
                                                           stop_short=kw.get("stop_short", 0.0)),
                    enemies, others, field_, grid, sees_within=kw2["sees_within"], seen_within=kw.get("seen_within"))
    _same(got, fresh)
