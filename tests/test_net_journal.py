"""The host's decision journal (issue 59, ``game/net/host_journal.py``): a decision or an undo is
on disk before any seat is told of it, whatever the autosave thread is doing; ``host --load``
plays the journal past its snapshot to the very state the seats were told (the state hash
checked line by line); a last line cut short is left out, any other damage refused with the
journal, the line and the reason. The host killed for real: ``test_net_host_kills.py``."""
from __future__ import annotations

import json
import shutil

import pytest
from net_helpers import msg, new_host, play_to_an_undo

from engine.ai import make_agent
from engine.data.errors import DataError
from game.net.host import GameHost
from game.net.host_journal import journal_path


def seated(host: GameHost) -> GameHost:
    for p in (1, 2):
        host.receive(p, msg(type="hello", seat=p, code=host.codes[p]))
    return host


def answer(host: GameHost, agents: dict) -> list[dict]:
    """One decision answered by its seat's agent through ``receive``: what the seats are sent."""
    d = host.game.pending()
    c = agents[d.player].choose(d, host.game.view(d.player))
    out = [json.loads(o.text) for o in host.receive(d.player, msg(type="answer", seq=d.seq, choice=c.to_json()))]
    assert out and all(r["type"] == "state" for r in out), out
    return out


def crash_copy(auto, dest):
    """What a crash at this moment leaves: the autosave and its journal as they are on disk now."""
    dest.mkdir()
    for f in auto.parent.glob(auto.name + "*"):
        shutil.copy2(f, dest / f.name)
    return dest / auto.name


@pytest.fixture
def slow_snapshots(monkeypatch):
    """Every whole save takes 0.3 s to write (a slow or busy disk): the autosave thread is behind."""
    import time

    from engine.core import saves

    real = saves.write_atomic

    def slow(path, text):
        time.sleep(0.3)
        real(path, text)

    monkeypatch.setattr(saves, "write_atomic", slow)


def test_every_decision_is_on_disk_before_any_seat_is_told(tmp_path, slow_snapshots):
    auto = tmp_path / "auto.json"
    host = seated(new_host("frontier", "town", 8, autosave_path=auto))
    agents = {p: make_agent("random", p, 40 + p) for p in (1, 2)}
    for i in range(10):
        told = max(r["seq"] for r in answer(host, agents))       # the states just built for the seats
        loaded = GameHost.load(crash_copy(auto, tmp_path / f"crash{i}"))
        assert len(loaded.game.decisions) == told == len(host.game.decisions)
        assert loaded.game.state_hash() == host.game.state_hash()
        assert loaded.codes == host.codes


def test_an_undo_is_on_disk_before_any_seat_is_told(tmp_path, slow_snapshots):
    auto = tmp_path / "auto.json"
    host = new_host("counterblast", "outpost", 4, {"deployment": "alternate"}, seats={1: "remote", 2: "ai:random"},
                    autosave_path=auto)
    host.receive(1, msg(type="hello", seat=1, code=host.codes[1]))
    mine = make_agent("random", 1, 3)
    play_to_an_undo(host, lambda d: mine.choose(d, host.game.view(1)))
    n = len(host.game.decisions)
    out = [json.loads(o.text) for o in host.receive(1, msg(type="undo", seq=n))]
    assert [r["type"] for r in out] == ["state", "undo_result"] and out[1]["accepted"]
    loaded = GameHost.load(crash_copy(auto, tmp_path / "after-undo")).game
    assert len(loaded.decisions) == n - 1 == len(host.game.decisions)
    assert loaded.state_hash() == host.game.state_hash()
    d = host.game.pending()                    # and the game goes on from there, kept as before
    host.receive(1, msg(type="answer", seq=d.seq, choice=make_agent("random", 1, 99).choose(d, host.game.view(1))
                        .to_json()))
    loaded = GameHost.load(crash_copy(auto, tmp_path / "after-more")).game
    assert loaded.decisions == host.game.decisions and loaded.state_hash() == host.game.state_hash()


@pytest.fixture
def journalled(tmp_path):
    """A host whose snapshot stays at its start while 12 decisions go to its journal alone."""
    auto = tmp_path / "auto.json"
    host = seated(new_host("doubles", "prehistoric", 21, autosave_path=auto))
    assert host.start_journal()
    host.files.saver.put = lambda *a: None           # no snapshot is written after the first
    agents = {p: make_agent("random", p, 7 + p) for p in (1, 2)}
    for _ in range(12):
        answer(host, agents)
    assert len(GameHost.load(auto).game.decisions) == 12
    return host, auto, journal_path(auto)


def _rewrite(path, line: int, change) -> None:
    rows = path.read_text().splitlines()
    rows[line - 1] = change(rows[line - 1])
    path.write_text("\n".join(rows) + "\n")


def test_a_last_line_cut_short_is_left_out(journalled):
    host, auto, journal = journalled
    with open(journal, "ab") as f:
        f.write(b'{"op": 12, "n": 12, "player": 1, "cho')
    loaded = GameHost.load(auto).game
    assert loaded.state_hash() == host.game.state_hash() and len(loaded.decisions) == 12


@pytest.mark.parametrize("line,change,words", [
    (5, lambda t: t[: len(t) // 2], "not JSON"),
    (6, lambda t: json.dumps({**json.loads(t), "hash": "0" * 32}), "state hash"),
    (7, lambda t: json.dumps({**json.loads(t), "n": 99}), "#99"),
    (8, lambda t: json.dumps({**json.loads(t), "choice": {"type": "common.MoveTo", "model": "p9-x", "x": 0, "y": 0}}),
     "does not replay"),
    (9, lambda t: json.dumps({**json.loads(t), "op": 3}), "line number 3"),
    (1, lambda t: "[]", "not a JSON object"),
])
def test_a_damaged_journal_is_refused_with_the_file_the_line_and_the_reason(journalled, line, change, words):
    host, auto, journal = journalled
    _rewrite(journal, line, change)
    with pytest.raises(DataError) as e:
        GameHost.load(auto)
    text = str(e.value)
    assert str(journal) in text and f"line {line}" in text and words in text, text
    assert "remove the journal to load auto.json alone (0 decisions)" in text


def test_a_journal_of_another_run_is_left_out(journalled):
    """A host killed between writing its first snapshot and starting its journal leaves the old
    journal beside the new snapshot: another token, so it is never played onto it."""
    host, auto, journal = journalled
    _rewrite(journal, 1, lambda t: json.dumps({**json.loads(t), "token": "another"}))
    assert len(GameHost.load(auto).game.decisions) == 0


def test_a_host_loaded_from_its_journal_starts_a_new_one_and_goes_on(journalled, tmp_path):
    host, auto, journal = journalled
    again = seated(GameHost.load(auto, autosave_path=auto))
    assert again.start_journal()
    assert json.loads(journal.read_text().splitlines()[0])["token"] != host.files.journal.token
    answer(again, {p: make_agent("random", p, 3 + p) for p in (1, 2)})
    loaded = GameHost.load(auto).game
    assert len(loaded.decisions) == 13 and loaded.state_hash() == again.game.state_hash()


def test_a_journal_that_cannot_be_written_falls_back_to_whole_writes_waited_for(tmp_path, monkeypatch, caplog):
    """A disk that refuses the journal's line (full, say): the game is written whole and waited
    for before the seats are told, so nothing they see is lost; the game goes on."""
    from game.net.host_journal import Journal

    auto = tmp_path / "auto.json"
    host = seated(new_host("frontier", "town", 12, autosave_path=auto))
    assert host.start_journal()

    def full(self, d):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Journal, "_append", full)
    agents = {p: make_agent("random", p, 1 + p) for p in (1, 2)}
    for i in range(4):
        told = max(r["seq"] for r in answer(host, agents))
        loaded = GameHost.load(crash_copy(auto, tmp_path / f"crash{i}")).game
        assert len(loaded.decisions) == told and loaded.state_hash() == host.game.state_hash()
    assert sum("could not write the journal" in r.getMessage() and "No space left" in r.getMessage()
               for r in caplog.records) == 4
    assert host.keep_error is None and host.exceptions == 0
