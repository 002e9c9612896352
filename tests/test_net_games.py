"""Whole network games (issue 50): a server and two seats played by agents through the real
protocol over localhost, for each ruleset. Each seat works its decisions out from its own world
and answers them by ``RemoteSession.submit``; the game must end with the same state hash as

- the decisions the two seats answered, replayed here (nothing lost, nothing added), and
- the same game played here by the same agents with the same seeds (``GameSession``): a seat
  that sees only its own view decides exactly as it does in a local game.

In this process (a server thread and two sessions): every ruleset, in the default run. As three
processes (``skirmish host`` and two ``skirmish join --ai``): Doubles in the default run, the other
two with ``-m long``.
"""
from __future__ import annotations

import pytest
from net_helpers import (
    ServerThread,
    local_game,
    merged_decisions,
    new_host,
    play_out,
    replayed_hash,
    seat,
    start_host,
    start_join,
)

from engine.core import Choice, Game, Setup
from engine.data.maps import load_named_map

GAMES = [("counterblast", "outpost"), ("frontier", "town"), ("doubles", "prehistoric")]


@pytest.mark.parametrize("ruleset,mapname", GAMES)
def test_a_whole_game_over_localhost_ends_as_the_local_game(ruleset, mapname):
    host = new_host(ruleset, mapname, 21)
    srv = ServerThread(host)
    try:
        s = {p: seat(srv.port, p, host.codes[p]) for p in (1, 2)}
        n = play_out(s)
        assert host.game.over and n == len(host.game.decisions) and n > 50
        assert host.exceptions == 0
        final = host.game.state_hash()
        # the answers each seat sent, as the seats saw them, replay to the same game
        record = sorted(((seq, p, c) for p, ss in s.items() for seq, p, c in _answered(ss)))
        assert [seq for seq, _, _ in record] == list(range(n))
        assert replayed_hash(host.game.setup, [(p, c) for _, p, c in record]) == final
        assert local_game(host.game.setup).state_hash() == final
        for p, ss in s.items():   # each seat's world and view at the end are what the game gives it
            assert ss.game.over and ss.view()["turn"] == host.game.view(p)["turn"]
            ss.close()
    finally:
        srv.stop()


def _answered(session):
    """(seq, player, choice) of each decision ``session`` answered, from its game's record of who
    decided and the steps it took: the tests' sessions keep them in ``answers``."""
    return session.answers


@pytest.fixture(autouse=True)
def _keep_answers(monkeypatch):
    """Each session remembers what it submitted (seq, player, choice) once the server took it."""
    from game.net.remote import RemoteSession

    real = RemoteSession.submit

    def submit(self, player, choice, seq=None, timeout=30.0):
        d = self.pending()
        step = real(self, player, choice, seq, timeout)
        self.__dict__.setdefault("answers", []).append((d.seq, player, choice))
        return step

    monkeypatch.setattr(RemoteSession, "submit", submit)


def _processes(tmp_path, ruleset, mapname, seed=33, agent="random"):
    proc, info = start_host(tmp_path, "--ruleset", ruleset, "--map", mapname, "--seed", str(seed))
    joins = [start_join(tmp_path, info["port"], p, info["codes"][str(p)], agent) for p in (1, 2)]
    try:
        for j in joins:
            out, err = j.communicate(timeout=240)
            assert j.returncode == 0, err
            assert "game over" in out
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
    finally:
        for p in [proc, *joins]:
            if p.poll() is None:
                p.kill()
    final = out.strip().splitlines()[-1].rsplit(" ", 1)[-1]
    setup = Game(Setup(ruleset, load_named_map(mapname), (), {}, seed)).setup    # (its choice types known)
    decisions = merged_decisions(tmp_path / "record1.json", tmp_path / "record2.json")
    assert replayed_hash(setup, decisions) == final
    assert local_game(setup, agent).state_hash() == final
    from engine.core.saves import load_game
    assert load_game(tmp_path / "autosave.json").state_hash() == final     # the autosave holds the end


def test_doubles_between_three_processes(tmp_path):
    _processes(tmp_path, "doubles", "prehistoric")


@pytest.mark.long
@pytest.mark.parametrize("ruleset,mapname", GAMES[:2])
def test_counterblast_and_frontier_between_three_processes(tmp_path, ruleset, mapname):
    _processes(tmp_path, ruleset, mapname)


@pytest.mark.long
def test_easy_agents_over_the_network_play_as_at_home(tmp_path):
    """The ``easy`` agent (it reads the table, the odds, its policy) over the network."""
    _processes(tmp_path, "frontier", "town", seed=8, agent="easy")


def test_choice_json_is_the_saves_form():
    """What an answer carries is ``Choice.to_json``, as a save writes a decision."""
    g = Game(Setup("doubles", load_named_map("prehistoric"), (), {}, 1))
    c = g.pending().options[0]
    assert Choice.from_json(c.to_json()) == c
