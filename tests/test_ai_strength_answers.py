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


def test_bad_files_are_refused_with_the_file_and_the_reason(tmp_path, capsys):
    """A folder, a line that is not JSON, a JSON value that is not a game's line, a cut gzip file:
    each refused (exit 2) with its name and why, for both ``check`` and ``report``; no traceback."""
    bench = _bench()
    (tmp_path / "nan.jsonl").write_text("nan\n")
    (tmp_path / "list.jsonl").write_text("[1, 2]\n")
    (tmp_path / "cut.jsonl.gz").write_bytes(gzip.compress(b'{"index": 0}\n' * 50)[:30])
    for bad, why in ((tmp_path, "is a folder"), (tmp_path / "nan.jsonl", "not JSON"),
                     (tmp_path / "list.jsonl", "not a game's line"), (tmp_path / "cut.jsonl.gz", "does not unpack")):
        for cmd in ("check", "report"):
            assert bench.main([cmd, str(bad)]) == 2
            err = capsys.readouterr().err
            assert str(bad) in err and why in err, err
    assert bench.main(["play", "--ruleset", "doubles", "--pair", "easy:random", "--answers-every", "-1",
                       "--out", str(tmp_path / "o.jsonl")]) == 2
