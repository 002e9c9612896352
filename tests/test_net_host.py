"""The server's game (``game/net/host.py``), fed messages directly: codes, who may answer what,
refusals that change nothing, a dropped seat, undo asked of the other player, saves; and the
fuzz: 10,000 malformed, stale, wrong-seat and wrong-code messages, 0 exceptions, 0 changes."""
from __future__ import annotations

import json
import random

import pytest
from net_helpers import msg, new_host, play_to_an_undo

from engine.ai import make_agent
from engine.core.saves import load_game
from game.net.host import GameHost
from game.net.protocol import CODE_CHARS, CODE_LEN, parse_server


def hello(host: GameHost, conn: int, p: int, code: str | None = None, name: str | None = None) -> list:
    return host.receive(conn, msg(type="hello", seat=p, code=code or host.codes[p],
                                  **({} if name is None else {"name": name})))


def seated(host: GameHost) -> GameHost:
    for p in (1, 2):
        hello(host, p, p)
    return host


def replies(out, conn=None) -> list[dict]:
    got = []
    for o in out:
        if conn is None or o.conn == conn:
            parse_server(o.text)                # every message is one the client reads
            got.append(json.loads(o.text))
    return got


def advance(host: GameHost, n: int, seed: int = 5) -> None:
    """``n`` decisions answered by random agents through ``receive`` (connections 1 and 2 hold
    seats 1 and 2)."""
    agents = {p: make_agent("random", p, seed + p) for p in (1, 2)}
    for _ in range(n):
        d = host.game.pending()
        c = agents[d.player].choose(d, host.game.view(d.player))
        out = host.receive(d.player, msg(type="answer", seq=d.seq, choice=c.to_json()))
        assert all(r["type"] == "state" for r in replies(out)), replies(out)


def test_each_remote_seat_has_its_own_code_and_an_ai_seat_none():
    host = new_host("doubles", "prehistoric", 1, seats={1: "remote", 2: "ai:random"})
    assert set(host.codes) == {1}
    code = host.codes[1]
    assert len(code) == CODE_LEN and set(code) <= set(CODE_CHARS)
    two = new_host("doubles", "prehistoric", 1)
    assert two.codes[1] != two.codes[2]


def test_a_wrong_code_says_nothing_about_the_game():
    host = new_host("doubles", "prehistoric", 1, seats={1: "remote", 2: "ai:random"})
    answers = []
    for conn, (p, code) in enumerate([(1, "WRONG9"), (2, host.codes[1]), (2, "ANY"), (1, host.codes[1] + "X")], 10):
        out = host.receive(conn, msg(type="hello", seat=p, code=code))
        assert len(out) == 1 and out[0].close and out[0].conn == conn
        answers.append(out[0].text)
    assert len(set(answers)) == 1                    # the same words whatever was wrong
    assert json.loads(answers[0]) == {"version": 1, "type": "refused", "reason": "the code is wrong"}
    out = host.receive(20, msg(type="answer", seq=0, choice={}))
    assert json.loads(out[0].text).keys() == {"version", "type", "reason"}     # no decision number either


def test_the_welcome_holds_the_setup_but_not_the_seed():
    host = new_host("frontier", "town", 987654321987)
    out = replies(hello(host, 1, 1), 1)
    assert [r["type"] for r in out] == ["welcome", "state", "waiting_for"]
    assert "987654321987" not in json.dumps(out)
    assert out[0]["setup"]["ruleset"] == "frontier" and "seed" not in out[0]["setup"]
    st = out[1]
    assert st["full"] and st["seq"] == 0 and st["pending"]["player"] in (1, 2) and "log" not in st["view"]


def test_only_the_pending_seat_at_the_current_number_may_answer():
    host = seated(new_host("doubles", "prehistoric", 3))
    d = host.game.pending()
    other = 3 - d.player
    before = host.game.state_hash()
    good = d.options[0].to_json() if d.options else d.spaces[0].sample(random.Random(1)).to_json()
    for conn, seq, choice, why in [(other, d.seq, good, "not your decision"),
                                   (d.player, d.seq + 1, good, "stale"),
                                   (d.player, d.seq, {"type": "nope"}, "not a choice"),
                                   (d.player, d.seq, {**good, "extra": 1}, "not a choice")]:
        out = replies(host.receive(conn, msg(type="answer", seq=seq, choice=choice)))
        assert len(out) == 1 and out[0]["type"] == "refused" and why in out[0]["reason"], out
        assert out[0]["seq"] == d.seq
    assert host.game.state_hash() == before and host.exceptions == 0
    out = replies(host.receive(d.player, msg(type="answer", seq=d.seq, choice=good)))
    assert sorted(r["type"] for r in out) == ["state", "state"] and all(r["by"] == d.player for r in out)


def test_a_dropped_seat_is_waited_for_and_taken_back_with_its_code():
    host = seated(new_host("frontier", "town", 2))
    advance(host, 5)
    out = replies(host.disconnect(2))
    assert out == [{"version": 1, "type": "waiting_for", "seat": 2, "joined": True,
                    "text": "waiting for player 2 to come back"}]
    assert host.connected() == {"1": True, "2": False}
    out = hello(host, 7, 2)
    back = replies(out, 7)
    assert [r["type"] for r in back] == ["welcome", "state"] and back[1]["full"]
    assert back[1]["seq"] == 5 and len(back[1]["deciders"]) == 5
    assert replies(out, 1) == [{"version": 1, "type": "joined", "seat": 2, "name": "", "again": True}]
    # the same code on a new connection while the old one lives: the new one takes the seat
    out = hello(host, 8, 2)
    assert any(o.conn == 7 and o.close and json.loads(o.text)["type"] == "bye" for o in out)
    assert host.conns.get(7) is None and host.seats[2].conn == 8


# names a hostile client may send: none may be a player's name (refused, the seat not taken)
HOSTILE_NAMES = ["A\nB", "x" * 25, " Ann", "Ann ", "\x00", "\u202eevil", "\t", "a\u0085b", "\ud800", 7, None, ["Ann"]]


def test_the_names_given_reach_the_other_seat_and_a_seat_not_yet_there_is_waited_for_to_join():
    """Issue 58: the name given at join (``hello``) is sent to the other seat as it joins (and in
    the welcome of a seat joining later); a seat never at the table is "to join", a dropped one
    "to come back", by its name."""
    host = new_host("counterblast", "outpost", 3)
    first = replies(hello(host, 1, 1, name="Bob"), 1)
    assert [r["type"] for r in first] == ["welcome", "state", "waiting_for"]
    assert first[0]["names"] == {"1": "Bob"}
    assert first[2] == {"version": 1, "type": "waiting_for", "seat": 2, "joined": False,
                        "text": "waiting for player 2 to join"}
    out = hello(host, 2, 2, name="Alice <b>\\1 $& Zoë 🎲")
    assert replies(out, 1) == [{"version": 1, "type": "joined", "seat": 2, "name": "Alice <b>\\1 $& Zoë 🎲",
                                "again": False}]
    assert replies(out, 2)[0]["names"] == {"1": "Bob", "2": "Alice <b>\\1 $& Zoë 🎲"}
    out = replies(host.disconnect(1))
    assert out == [{"version": 1, "type": "waiting_for", "seat": 1, "joined": True,
                    "text": "waiting for Bob (player 1) to come back"}]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_name_that_is_no_name_is_refused_and_takes_no_seat(name):
    host = new_host("frontier", "town", 3)
    out = replies(host.receive(5, msg(type="hello", seat=1, code=host.codes[1], name=name)))
    assert len(out) == 1 and out[0]["type"] == "refused" and "name" in out[0]["reason"], out
    assert host.seats[1].conn is None and host.conns.get(5) is None and host.exceptions == 0


def _undo_position(host: GameHost) -> int:
    """Answer until the last decision may be taken back by the one who made it; who that is."""
    agents = {p: make_agent("random", p, 9) for p in (1, 2)}
    for _ in range(200):
        d = host.game.pending()
        c = agents[d.player].choose(d, host.game.view(d.player))
        host.receive(host.seats[d.player].conn, msg(type="answer", seq=d.seq, choice=c.to_json()))
        if host.session.undo_target() is not None:
            return d.player
    raise AssertionError("no position to undo")


def test_undo_asks_the_other_player():
    host = seated(new_host("counterblast", "outpost", 4, {"deployment": "alternate"}))
    p = _undo_position(host)
    n, before = len(host.game.decisions), host.game.state_hash()
    out = replies(host.receive(p, msg(type="undo", seq=n)))
    assert out == [{"version": 1, "type": "undo_asked", "by": p, "seq": n, "keep": n - 1}]
    assert host.receive(p, msg(type="undo_reply", seq=n, accept=True))[0].text.count("no undo is asked of you")
    out = replies(host.receive(3 - p, msg(type="undo_reply", seq=n, accept=False)))
    assert {r["type"] for r in out} == {"undo_result"} and not out[0]["accepted"]
    assert host.game.state_hash() == before
    host.receive(p, msg(type="undo", seq=n))
    out = replies(host.receive(3 - p, msg(type="undo_reply", seq=n, accept=True)))
    states = [r for r in out if r["type"] == "state"]
    assert len(states) == 2 and all(r["undone"] and r["full"] and r["seq"] == n - 1 for r in states)
    assert len(host.game.decisions) == n - 1


def test_undo_against_the_ai_is_agreed_and_stale_or_foreign_undo_refused():
    host = new_host("counterblast", "outpost", 4, {"deployment": "alternate"}, seats={1: "remote", 2: "ai:random"})
    hello(host, 1, 1)
    # play until the human's last decision may be undone (a new seed-3 agent for each answer)
    play_to_an_undo(host, lambda d: make_agent("random", 1, 3).choose(d, host.game.view(1)))
    n = len(host.game.decisions)
    assert replies(host.receive(1, msg(type="undo", seq=n - 1)))[0]["type"] == "refused"
    out = replies(host.receive(1, msg(type="undo", seq=n)))
    assert [r["type"] for r in out] == ["state", "undo_result"] and out[1]["accepted"]


def test_saves_load_in_hot_seat_and_on_a_new_host(tmp_path):
    from game.session import GameSession

    host = seated(new_host("frontier", "town", 6, autosave_path=tmp_path / "auto.json", saves_dir=tmp_path))
    advance(host, 12)
    out = replies(host.receive(1, msg(type="save", name="evening")))
    assert out == [{"version": 1, "type": "saved", "file": "evening.json"}]
    assert host.flush_autosave()
    for f in ("evening.json", "auto.json"):
        path = tmp_path / f
        assert load_game(path).state_hash() == host.game.state_hash()
        hot = GameSession.load(path, autosave=False)
        assert hot.seats == {1: "human", 2: "human"} and hot.game.state_hash() == host.game.state_hash()
        again = GameHost.load(path)
        assert again.codes == host.codes and again.game.state_hash() == host.game.state_hash()
        assert GameHost.load(path, new_codes=True).codes != host.codes
    out = replies(host.receive(1, msg(type="save", name="../x")))
    assert out[0]["type"] == "refused"


# --- the fuzz ---------------------------------------------------------------------------------
def _allowed(host: GameHost, player: int, data: dict) -> bool:
    from engine.core import Choice, GameError
    try:
        host.game.check(player, Choice.from_json(data))
        return True
    except (GameError, ValueError, TypeError):
        return False


def _legal_answer(host: GameHost, conn: int, text: str, d) -> bool:
    try:
        m = json.loads(text)
    except ValueError:
        return False
    return (isinstance(m, dict) and m.get("version") == 1 and m.get("type") == "answer" and m.get("seq") == d.seq
            and type(m.get("seq")) is int and conn == d.player and isinstance(m.get("choice"), dict)
            and _allowed(host, d.player, m["choice"]))


def _junk(rng: random.Random, host: GameHost, good: dict, seq: int, pending: int) -> tuple[int, str]:
    """(connection, text) of one message that must change nothing: connections 1 and 2 hold the
    seats, 3 to 6 have said nothing yet."""
    other = 3 - pending
    unseated = rng.randint(3, 6)
    k = rng.randrange(15)
    if k == 14:                                    # the right shape, values the rules refuse
        bad = dict(good)
        for key, v in good.items():
            if key == "type":
                continue
            if type(v) is str:
                bad[key] = rng.choice(["p1-x", "p2-leader", "2C", "KH", "JK1", v + "x", ""])
            elif type(v) is float:
                bad[key] = rng.uniform(-2000.0, 2000.0)
            elif type(v) is int:
                bad[key] = rng.randint(-5, 400)
            elif type(v) is bool:
                bad[key] = not v
        if _allowed(host, pending, bad):          # by chance a legal one (a move in reach): not junk
            bad = {**good, "type": "common.MoveTo", "model": "p9-nobody", "x": 0.0, "y": 0.0}
        return pending, msg(type="answer", seq=seq, choice=bad)
    if k == 0:                                     # bytes and text of no shape
        return rng.choice([1, 2, unseated]), "".join(chr(rng.randint(0, 0x2FF)) for _ in range(rng.randint(0, 80)))
    if k == 1:                                     # a good answer cut short or with a byte changed
        t = msg(type="answer", seq=seq, choice=good)
        i = rng.randrange(len(t))
        t = t[:i] if rng.random() < 0.5 else t[:i] + rng.choice('{}[]",:0x\\') + t[i + 1:]
        try:
            d = json.loads(t)
            if d == json.loads(msg(type="answer", seq=seq, choice=good)):
                t = t[:-1]
        except ValueError:
            pass
        return pending, t
    if k == 2:                                     # JSON that is no message
        return rng.choice([1, 2, unseated]), json.dumps(rng.choice([[], 1, None, "x", {"type": "answer"},
                                                                    {"version": 2, "type": "bye"},
                                                                    {"version": 1, "type": "reboot"}]))
    if k == 3:                                     # a wrong code, or the right one with a name refused
        p = rng.choice([1, 2])
        if rng.random() < 0.3:
            return unseated, msg(type="hello", seat=p, code=host.codes[p], name=rng.choice(HOSTILE_NAMES))
        code = "".join(rng.choice(CODE_CHARS) for _ in range(rng.choice([1, 6, 6, 6, 32])))
        return unseated, msg(type="hello", seat=rng.randint(1, 8), code=code)
    if k == 4:                                     # another seat's code
        p = rng.choice([1, 2])
        return unseated, msg(type="hello", seat=3 - p, code=host.codes[p])
    if k == 5:                                     # an answer before any hello
        return unseated, msg(type="answer", seq=seq, choice=good)
    if k == 6:                                     # the other seat answers
        return other, msg(type="answer", seq=seq, choice=good)
    if k == 7:                                     # stale numbers
        return pending, msg(type="answer", seq=rng.choice([seq - 1, seq + 1, 0, seq + 1000, 10 ** 9]), choice=good)
    if k == 8:                                     # choices of the wrong shape
        bad = dict(good)
        key = rng.choice(list(bad))
        bad[key] = rng.choice([None, 1e308, -1, 2 ** 70, "x" * 300, [], {}, [[[]]], True, "nope"])
        if rng.random() < 0.3:
            bad["extra"] = 1
        return pending, msg(type="answer", seq=seq, choice=bad)
    if k == 9:                                     # choices of other types, or made up
        t = rng.choice(["common.MoveTo", "common.PlaceModel", "frontier.Commit", "nope", "", "doubles.Keep"])
        return pending, msg(type="answer", seq=seq, choice={"type": t, "model": "p1-x", "x": rng.uniform(-1e4, 1e4),
                                                           "y": rng.uniform(-1e4, 1e4)})
    if k == 10:                                    # undo: stale, or of a decision not the asker's
        return rng.choice([1, 2]), msg(type="undo", seq=rng.choice([seq - 1, seq + 1, 10 ** 9]))
    if k == 11:                                    # an undo reply nobody asked for
        return rng.choice([1, 2]), msg(type="undo_reply", seq=seq, accept=rng.random() < 0.5)
    if k == 12:                                    # saves of bad names, hellos on a seated connection
        if rng.random() < 0.5:
            return rng.choice([1, 2]), msg(type="save", name=rng.choice(["../a", "a b", "x" * 61, "é"]))
        p = rng.choice([1, 2])
        return p, msg(type="hello", seat=p, code=host.codes[p])
    return unseated, rng.choice([msg(type="bye"), msg(type="undo", seq=seq), msg(type="save", name="x"),
                                 msg(type="undo_reply", seq=seq, accept=True)])


@pytest.mark.parametrize("ruleset,mapname,count", [("frontier", "town", 10_000), ("counterblast", "outpost", 3_000)])
def test_fuzz_changes_nothing_and_raises_nothing(ruleset, mapname, count, tmp_path):
    host = seated(new_host(ruleset, mapname, 12, autosave_path=tmp_path / "auto.json", saves_dir=tmp_path))
    advance(host, 40)
    while not host.game.pending().spaces:       # a decision with a space (a move): its check runs too
        advance(host, 1)
    d = host.game.pending()
    # a legal answer in the space (a sample may miss: try seeds until one lands)
    good = next(c for c in (sp.sample(random.Random(k)) for k in range(2, 200) for sp in d.spaces)
                if c is not None).to_json()
    before, n = host.game.state_hash(), len(host.game.decisions)
    rng = random.Random(50)
    kinds = {}
    for _ in range(count):
        conn, text = _junk(rng, host, good, d.seq, d.player)
        while _legal_answer(host, conn, text, d):     # a changed byte can make another legal move
            conn, text = _junk(rng, host, good, d.seq, d.player)
        out = host.receive(conn, text)
        for r in replies(out):
            kinds[r["type"]] = kinds.get(r["type"], 0) + 1
            assert r["type"] in ("refused", "bye", "welcome", "state", "waiting_for", "joined"), r
        for o in out:                        # a closed connection comes back as a fresh one
            if o.close:
                host.disconnect(o.conn)
        for p in (1, 2):                     # seats taken over or left: seat them again
            if host.seats[p].conn != p:
                host.disconnect(host.seats[p].conn) if host.seats[p].conn else None
                host.conns.pop(p, None)
                hello(host, p, p)
    assert host.exceptions == 0
    assert host.game.state_hash() == before and len(host.game.decisions) == n
    assert kinds["refused"] > count * 0.8
    out = replies(host.receive(d.player, msg(type="answer", seq=d.seq, choice=good)))   # and the game goes on
    assert any(r["type"] == "state" and r["seq"] == n + 1 for r in out)
