"""The words of the turn bar and the dice-and-cards panel, from a view (presentation only)."""
from __future__ import annotations

SUITS = {"S": " Spades", "H": " Hearts", "D": " Diamonds", "C": " Clubs"}  # the bundled font has no suit glyphs


def status_line(view: dict, names: dict[int, str]) -> tuple[str, str]:
    """Turn, phase and whose go; then the ruleset's counters as the view reports them."""
    rs = view.get("ruleset")
    parts = [f"Turn {view.get('turn', '?')}"]
    if view.get("phase"):
        parts.append(str(view["phase"]).replace("_", " "))
    head = len(parts)
    if rs == "counterblast":
        for p in (1, 2):
            parts.append(f"{names[p]}: Moxie {view['moxie'].get(p, view['moxie'].get(str(p), 0))}, "
                         f"Dread {view['dread'].get(p, view['dread'].get(str(p), 0))}")
    elif rs == "frontier":
        pr = view.get("priority")
        if pr:
            parts.append(f"priority: {names.get(pr, pr)}")
        for p in ("1", "2"):
            c = view["cards"][p]
            parts.append(f"{names[int(p)]}: {c['hand_size']} in hand, {c['spent']} spent, deck {c['deck']}")
    elif rs == "doubles":
        parts.append(f"of {view.get('turn_limit')}")
        pts = view.get("points") or [0, 0]
        parts.append(f"points {pts[0]}-{pts[1]}")
        track = view.get("track") or []
        if track:
            parts.append("initiative: " + " > ".join(f"{k.split('.', 1)[-1]} {v}" for k, v in track[:6]))
    if rs == "frontier" and view.get("priority"):
        head += 1
    if rs == "doubles":
        head += 2
    return "   |   ".join(parts[:head]), "   |   ".join(parts[head:])


def hand_line(view: dict, player: int | None) -> str | None:
    """A Frontier player's own hand (only in their own view)."""
    if view.get("ruleset") != "frontier" or player is None:
        return None
    c = view["cards"].get(str(player))
    if not c or c.get("hand") is None:
        return None
    return "your hand: " + ", ".join(card_text(x) for x in c["hand"])


def card_text(code: str) -> str:
    if not isinstance(code, str) or not code:
        return str(code)
    return code[:-1] + SUITS.get(code[-1], code[-1]) if code[-1] in SUITS else code


def chance_text(ev) -> str | None:
    """A short line for an event that shows dice or cards (the panel of the last ones)."""
    d = ev.data or {}
    bits = []
    for key in ("dice", "kept", "rolls"):
        v = d.get(key)
        if isinstance(v, (list, tuple)) and v:
            bits.append(f"{key}: " + " ".join(str(x) for x in v))
    for key in ("cards", "card"):
        v = d.get(key)
        if isinstance(v, str):
            bits.append(f"{key}: {card_text(v)}")
        elif isinstance(v, (list, tuple)) and v:
            bits.append(f"{key}: " + " ".join(card_text(x) if isinstance(x, str) else str(x) for x in v))
        elif isinstance(v, dict) and v:
            def cards(x):
                if isinstance(x, (list, tuple)):
                    return ", ".join(card_text(c) for c in x)
                return card_text(x) if isinstance(x, str) else str(x)
            bits.append(f"{key}: " + "; ".join(f"player {k} {cards(x)}" for k, x in v.items()))
    if not bits and ev.kind not in ("dice", "cards", "card"):
        return None
    return ev.text if not bits else f"{ev.text}  [{'; '.join(bits)}]"
