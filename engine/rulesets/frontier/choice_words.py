"""Last Hope Frontier's choices in words: one describer per choice type in ``CHOICE_WORDS``, a
table built once (``engine.core.choice_words``); ``ViewRules.describe_choice`` asks it. A
describer takes the rules, the state and the choice; one whose model, item or card is unknown
falls back to the choice's own ``describe()``.
"""
from __future__ import annotations

import math

from engine.core.choice_words import ChoiceWords
from engine.rulesets.common import MoveTo

from .cards import card as parse_card
from .choices import Commit, Drink, Fight, Hold, KeepLast, LayDown, Pass, Shoot, Steal
from .state import CONTACT_MM, INCH


def _move(r, st, c) -> str:
    M = st.models
    if c.model not in M:
        return c.describe()
    m = M[c.model]
    d = math.hypot(c.x - m.x, c.y - m.y) / INCH
    contact = [e.name for e in r._standing(st, 3 - m.player)
               if math.hypot(c.x - e.x, c.y - e.y) - m.radius - e.radius <= CONTACT_MM]
    if contact:
        return f"{m.name} moves {d:.1f}\" into base contact with {', '.join(contact)}"
    return f"{m.name} moves {d:.1f}\""


def _hold(r, st, c) -> str:
    return f"{st.models[c.model].name} holds its ground" if c.model in st.models else c.describe()


def _shoot(r, st, c) -> str:
    M = st.models
    if c.model not in M or c.target not in M:
        return c.describe()
    w = r.items[c.weapon].name.lower() if c.weapon in r.items else c.weapon
    verb = "throws the hunting knife at" if r.items.get(c.weapon) and r.items[c.weapon].kind == "melee" else "shoots"
    s = (f"{r._who(M[c.model])} {verb} {r._who(M[c.target])}" if verb != "shoots"
         else f"{r._who(M[c.model])} shoots {r._who(M[c.target])} with the {w}")
    if c.friend and c.friend in M:
        s += f" (into the fight: {M[c.friend].name} takes the risk)"
    return s


def _fight(r, st, c) -> str:
    M = st.models
    if c.model not in M or c.target not in M:
        return c.describe()
    w = f"the {r.items[c.weapon].name.lower()}" if c.weapon in r.items else "bare hands"
    return f"{r._who(M[c.model])} fights {r._who(M[c.target])} with {w}"


def _drink(r, st, c) -> str:
    if c.model not in st.models or c.item not in r.items:
        return c.describe()
    return f"{st.models[c.model].name} drinks the {r.items[c.item].name.lower()}"


def _pass(r, st, c) -> str:
    p = st.active
    moves = sum(1 for m in r._standing(st, p) if not m.second_move)
    n = r._must_spend(st, p)
    what = "laid down face up" if r.opts.shortfall == "lay_down" else "forfeited"
    lost = [f"{moves} second move{'s' if moves != 1 else ''}"] if moves else []
    return ("pass for the rest of the turn: no more activations" + (f", {', '.join(lost)} lost" if lost else "")
            + (f"; the {n} card{'s' if n != 1 else ''} still to spend will be {what}" if n else ""))


def _commit(r, st, c) -> str:
    try:
        cs = [parse_card(x) for x in c.cards]
    except ValueError:
        return c.describe()
    if len(cs) == 2:
        return f"play the pair {cs[0].describe()} + {cs[1].describe()} (the {cs[1].describe()} is discarded)"
    return f"play the {cs[0].describe()}" if cs else "play no card"


def _steal(r, st, c) -> str:
    return f"take the {r.items[c.item].name.lower()}" if c.item in r.items else c.describe()


def _lay_down(r, st, c) -> str:
    try:
        cd = parse_card(c.card).describe()
    except ValueError:
        return c.describe()
    return f"{'lay down' if r.opts.shortfall == 'lay_down' else 'forfeit'} the {cd}"


def _keep_last(r, st, c) -> str:
    return "keep the last card and draw up" if c.keep else "ditch the last card and draw a full hand"


CHOICE_WORDS = ChoiceWords({
    MoveTo: _move, Hold: _hold, Shoot: _shoot, Fight: _fight, Drink: _drink, Pass: _pass,
    Commit: _commit, Steal: _steal, LayDown: _lay_down, KeepLast: _keep_last,
})
