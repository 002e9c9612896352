"""The words of the turn bar and the dice-and-cards panel, from a view (presentation only)."""
from __future__ import annotations

from game.presenters import presenter_for
from game.presenters.frontier import SUITS, card_text  # noqa: F401  (the cards' words, named here too)


def status_line(view: dict, names: dict[int, str]) -> tuple[str, str]:
    """Turn, phase and whose go; then the ruleset's counters as its presenter words them."""
    parts = [f"Turn {view.get('turn', '?')}"]
    if view.get("phase"):
        parts.append(str(view["phase"]).replace("_", " "))
    head, rest = presenter_for(view.get("ruleset")).counters(view, names)
    return "   |   ".join(parts + head), "   |   ".join(rest)


def hand_line(view: dict, player: int | None) -> str | None:
    """A player's own hand in words (only in their own view), where the ruleset has cards."""
    return presenter_for(view.get("ruleset")).hand_line(view, player)


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
