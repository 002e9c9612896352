"""The network game's messages (``game/net/protocol.py``): each has the version and its type;
a client's message that is not JSON, not one of the shapes, of another version, too big or too
deep is refused with the reason, before it reaches the game."""
from __future__ import annotations

import json

import pytest

from game.net.protocol import (
    CODE_CHARS,
    MAX_CLIENT_BYTES,
    Answer,
    Hello,
    ProtocolError,
    SaveAsk,
    UndoAsk,
    UndoReply,
    dump,
    normal_code,
    parse_client,
    parse_server,
)


def test_every_client_message_goes_and_comes_back():
    for m in (Hello(seat=1, code="ABC234", name="Ann"), Answer(seq=3, choice={"type": "x"}), UndoAsk(seq=2),
              UndoReply(seq=2, accept=True), SaveAsk(name="evening-game")):
        text = dump(m)
        assert json.loads(text)["version"] == 1
        assert parse_client(text) == m
        assert parse_client(text.encode()) == m


@pytest.mark.parametrize("raw,why", [
    ("not json", "not JSON"),
    ("[1, 2]", "a JSON object"),
    ('{"type": "hello", "seat": 1, "code": "X"}', "version"),
    ('{"version": 2, "type": "hello", "seat": 1, "code": "X"}', "version"),
    ('{"version": true, "type": "hello", "seat": 1, "code": "X"}', "version"),
    ('{"version": 1, "type": "shout"}', "no message type"),
    ('{"version": 1, "type": "hello", "seat": "1", "code": "X"}', "seat"),
    ('{"version": 1, "type": "hello", "seat": true, "code": "X"}', "seat"),
    ('{"version": 1, "type": "hello", "seat": 9, "code": "X"}', "seat"),
    ('{"version": 1, "type": "hello", "seat": 1, "code": ""}', "code"),
    ('{"version": 1, "type": "hello", "seat": 1, "code": "X", "admin": true}', "admin"),
    ('{"version": 1, "type": "answer", "seq": -1, "choice": {}}', "seq"),
    ('{"version": 1, "type": "answer", "seq": 1.0, "choice": {}}', "seq"),
    ('{"version": 1, "type": "answer", "seq": 10000000000, "choice": {}}', "seq"),
    ('{"version": 1, "type": "answer", "seq": 1, "choice": [1]}', "choice"),
    ('{"version": 1, "type": "answer", "seq": 1, "choice": {"x": NaN}}', "not JSON"),
    ('{"version": 1, "type": "answer", "seq": 1, "choice": {"x": Infinity}}', "not JSON"),
    ('{"version": 1, "type": "save", "name": "../../etc/passwd"}', "name"),
    ('{"version": 1, "type": "undo_reply", "seq": 1, "accept": "yes"}', "accept"),
    ("[" * 5000 + "]" * 5000, "deep"),
    ('{"version": 1, "type": "answer", "seq": 1, "choice": ' + '{"a": ' * 100 + "1" + "}" * 100 + "}", "deep"),
    (b"\xff\xfe\x00", "UTF-8"),
    (12, "text"),
])
def test_a_bad_message_is_refused_with_the_reason(raw, why):
    with pytest.raises(ProtocolError) as err:
        parse_client(raw)
    assert why.lower() in str(err.value).lower()


def test_a_message_too_big_is_refused_unread():
    big = json.dumps({"version": 1, "type": "answer", "seq": 1, "choice": {"type": "x" * MAX_CLIENT_BYTES}})
    with pytest.raises(ProtocolError, match="bytes"):
        parse_client(big)
    with pytest.raises(ProtocolError, match="bytes"):
        parse_client(big.encode())


def test_codes_are_typed_as_shown():
    assert normal_code("abc-234") == "ABC234" and normal_code(" k7q x2m ") == "K7QX2M"
    assert not set("01IO") & set(CODE_CHARS)


def test_the_client_reads_what_a_server_sends_and_refuses_the_rest():
    m = parse_server('{"version":1,"type":"refused","reason":"no"}')
    assert m.reason == "no"
    for bad in ("nope", '{"version":2,"type":"refused","reason":"x"}', '{"version":1,"type":"launch"}'):
        with pytest.raises(ProtocolError):
            parse_server(bad)


def test_a_name_is_short_and_printable_and_one_is_made_from_what_was_typed():
    """Issue 58: the name given at join is drawn in the other player's window: bounded, printable."""
    from game.names import NAME_MAX, clean_name, name_problem

    assert name_problem("Alice") is None and name_problem("Zoë 🎲 <b>") is None
    for bad in ("A\nB", "x" * (NAME_MAX + 1), " Al", "Al ", "\x00", "\u202eevil", "a\u200bb"):
        assert name_problem(bad), bad
    assert clean_name("  Al\tice\n ") == "Al ice" and clean_name("x" * 40) == "x" * NAME_MAX
    assert name_problem(clean_name("\u202e" + "y" * 30 + " ")) is None
    with pytest.raises(ProtocolError, match="name"):
        parse_client(json.dumps({"version": 1, "type": "hello", "seat": 1, "code": "ABC234", "name": "A\nB"}))
    with pytest.raises(ProtocolError, match="name"):
        parse_server(json.dumps({"version": 1, "type": "joined", "seat": 2, "name": "x" * 99}))


def test_a_named_seat_reads_as_its_name_and_the_name_stays_text():
    from game.names import named, who

    names = {1: "Al", 2: "\\1 $&"}
    assert named("Player 1 activates Rook; player 2 does not react", names) == "Al activates Rook; \\1 $& does not react"
    assert named("Player 1's leader; Player 12; players 1", {1: "Al"}) == "Al's leader; Player 12; players 1"
    assert named(f"{who(2, names)} is back", names) == "\\1 $& (player 2) is back"      # not named twice
    assert named("Player 2 passes", {1: "Al"}) == "Player 2 passes" and named("Player 1", None) == "Player 1"
