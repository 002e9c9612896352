"""``bench/ai_strength.py``: a game whose answers were kept plays again to its recorded hash
(``check``), and a line one answer short does not."""
from __future__ import annotations

import gzip
import json

from script_modules import load_script


def _bench():
    return load_script("ai_strength", "bench/ai_strength.py")


def test_a_kept_game_replays_to_its_hash_and_a_shortened_one_does_not(tmp_path, capsys):
    bench = _bench()
    rec = bench.play_one("doubles", ("hard:budget=0.01", "easy"), 3, 0, True, (), keep_answers=True)
    assert rec["error"] is None and len(rec["answers"]) == rec["decisions"] > 20
    assert bench.replay(rec) == rec["hash"]
    good = tmp_path / "good.jsonl.gz"
    with gzip.open(good, "wt") as fh:              # read as kept under data/experiments/
        fh.write(json.dumps(rec) + "\n")
    assert bench.main(["check", str(good)]) == 0
    short = dict(rec, answers=rec["answers"][:-1])
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(short) + "\n")
    assert bench.main(["check", str(bad)]) == 1
    assert "DIFFERS" in capsys.readouterr().out


def test_a_game_without_answers_cannot_be_checked(tmp_path):
    bench = _bench()
    rec = bench.play_one("frontier", ("easy", "random"), 2, 1, True, ())
    assert "answers" not in rec
    f = tmp_path / "plain.jsonl"
    f.write_text(json.dumps(rec) + "\n")
    assert bench.main(["check", str(f)]) == 2
