"""Privacy over the network (issue 50), checked on the bytes each seat received in whole games:
no message sent to a seat holds anything that seat's view hides.

What is hidden is read from the engine, position by position (the game replayed to the decision
each message was sent at), never written down here:

- ``Rules.hidden_from(state, seat)``: the cards the seat cannot see (in Frontier the other
  player's hand, committed card, deck and discard, and its own deck and discard) and the other
  side's unseen placements (the hidden deployment). Each card in every form it could travel in:
  its code as a JSON string (``"KH"``), its world form (``engine/core/worlds.py``) and its words
  ("King of Hearts"); each unseen spot's coordinates.
- The two views: every text and every fractional number the other seat's view holds and this
  seat's does not (the other's hand, its unseen spots, its private log lines).
- The events the seat may not see (``Event.visible``): their texts.
- The game's seed.

A form that this seat may know at that moment (its view, the events it may see with their data)
is not looked for, nor the other forms of the same thing (a Frontier player owns a deck of the
same 54 cards: its own King of Hearts may show while the other's is hidden).
"""
from __future__ import annotations

import json

import pytest
from net_helpers import ServerThread, new_host, play_out, seat

from engine.core import Game
from engine.core.worlds import encode_state

SEED = 7301946525113            # a number that shows up nowhere by chance
GAMES = [("frontier", "town", {}), ("counterblast", "outpost", {"deployment": "hidden"}),
         pytest.param("frontier", "town", {"deployment": "hidden"}, marks=pytest.mark.long)]


def _leaves(v, out: set) -> set:
    """The texts and fractional numbers of a view, as the JSON tokens they are sent as."""
    if isinstance(v, dict):
        for x in v.values():
            _leaves(x, out)
    elif isinstance(v, (list, tuple)):
        for x in v:
            _leaves(x, out)
    elif isinstance(v, str) and len(v) >= 2:
        out.add(json.dumps(v)[1:-1] if len(v) > 12 else json.dumps(v))
    elif isinstance(v, float) and v != int(v):
        out.add(json.dumps(v))
    return out


def _hidden_things(x, cards: list, numbers: list) -> None:
    from engine.rulesets.frontier.cards import Card

    if isinstance(x, Card):
        cards.append(x)
    elif isinstance(x, (list, tuple)):
        for y in x:
            _hidden_things(y, cards, numbers)
    elif isinstance(x, float) and x != int(x):
        numbers.append(x)


def _forms(g: Game, p: int, own: str) -> tuple[set[str], int]:
    """Everything ``p`` may not know at this point of ``g``, in the forms it could be sent in,
    less what ``own`` (``p``'s view as JSON) shows: a thing any of whose forms shows is known."""
    groups: list[set[str]] = []
    cards: list = []
    numbers: list = []
    _hidden_things(g.rules.hidden_from(g.state, p), cards, numbers)
    for c in cards:
        groups.append({json.dumps(c.code), json.dumps(encode_state(c), separators=(",", ":")), c.describe()})
    groups += [{json.dumps(x)} for x in numbers]
    engine_hidden = len(groups)
    other = g.view(3 - p)
    other.pop("you", None)
    groups += [{x} for x in _leaves(other, set())]
    visible_texts = {e.text for e in g.log if e.visible(p)}
    groups += [{e.text} for e in g.log if not e.visible(p) and e.text not in visible_texts]
    forms = {f for grp in groups if not any(f in own for f in grp) for f in grp}
    return forms, sum(1 for grp in groups[:engine_hidden] if not any(f in own for f in grp))


def _played(ruleset, mapname, options, stop_at: int | None = None):
    host = new_host(ruleset, mapname, SEED, options)
    srv = ServerThread(host)
    try:
        s = {p: seat(srv.port, p, host.codes[p], wire=True) for p in (1, 2)}
        play_out(s, until=None if stop_at is None else (lambda: len(host.game.decisions) >= stop_at))
        for x in s.values():
            x.close()
    finally:
        srv.stop()
    return host, s


def _leaks(host, sessions) -> tuple[list[str], int, int]:
    """What each seat was sent that its view hid: (the leaks, hidden things seen, checks made)."""
    decisions = host.game.decisions
    found: list[str] = []
    checked = hidden_seen = 0
    for p in (1, 2):
        g = Game(host.game.setup)
        forms, own = None, ""
        for raw in sessions[p].wire:
            if str(SEED) in raw:
                found.append(f"player {p} was sent the seed")
            msg = json.loads(raw)
            if msg["type"] == "state" or forms is None:
                k = msg.get("seq", 0) if msg["type"] == "state" else len(g.decisions)
                while len(g.decisions) < k:
                    g.submit(*decisions[len(g.decisions)])
                # what p may know: its view, and the events it may see with their data
                own = json.dumps([g.view(p), [(e.text, e.data) for e in g.log if e.visible(p)]],
                                 separators=(",", ":"), default=str)
                forms, n = _forms(g, p, own)
                hidden_seen += n
            for f in forms:
                if f in raw:
                    found.append(f"player {p} was sent {f!r}, which its view hides, at decision "
                                 f"{len(g.decisions)} in a {msg['type']} message")
                checked += 1
    return found, hidden_seen, checked


@pytest.mark.parametrize("ruleset,mapname,options", GAMES)
def test_no_byte_sent_to_a_seat_holds_what_its_view_hides(ruleset, mapname, options):
    host, sessions = _played(ruleset, mapname, options)
    assert host.game.over
    assert all(len(s.wire) > 100 for s in sessions.values())
    found, hidden_seen, checked = _leaks(host, sessions)
    assert not found, found[:5]
    # the check looked at something: hidden cards or spots at many positions, many forms in all
    assert hidden_seen > 100 and checked > 2000, (hidden_seen, checked)


@pytest.mark.parametrize("ruleset,mapname,options", GAMES[:2])
def test_the_check_finds_a_leak(monkeypatch, ruleset, mapname, options):
    """A server whose worlds hid nothing (``redact`` keeping the whole state): the check says so."""
    from engine.core import get_rules
    from engine.core.rules import Rules

    cls = get_rules(ruleset)
    monkeypatch.setattr(cls, "redact", lambda self, st, p: Rules.redact(self, st, p))
    host, sessions = _played(ruleset, mapname, options, stop_at=30)
    found, _, _ = _leaks(host, sessions)
    assert found
