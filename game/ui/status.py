"""The words of the turn bar and the dice-and-cards panel, from a view (presentation only)."""
from __future__ import annotations

from game.presenters import presenter_for
from game.presenters.frontier import SUITS, card_text  # noqa: F401  (the cards' words, named here too)


def status_line(view: dict, names: dict[int, str]) -> tuple[str, str]:
    """Turn (of its limit, where the view gives one), phase and whose go; then the ruleset's
    counters as its presenter words them."""
    limit = view.get("turn_limit")
    parts = [f"Turn {view.get('turn', '?')}" + (f" of {limit}" if limit else "")]
    if view.get("phase"):
        parts.append(str(view["phase"]).replace("_", " "))
    head, rest = presenter_for(view.get("ruleset")).counters(view, names)
    return "   |   ".join(parts + head), "   |   ".join(rest)


def option_words(value) -> str:
    """An option's value, short: 6 (not 6.0), on / off, 48x36 for a pair."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return "x".join(option_words(v) for v in value)
    return str(value)


def house_rules(options: dict, defaults: dict | None = None) -> list[str]:
    """The game's options that are not the default, as "short_range 6": the set-up's options
    without the deployment's (the launcher's own choice) and the mission (named apart); with the
    ruleset's ``defaults`` known, an option given at its default value is left out."""
    from engine.rulesets.deployment.options import DeploymentOptions

    skip = set(DeploymentOptions.model_fields) | {"mission"}
    out = []
    for k in sorted(options or {}):
        v = options[k]
        if k in skip or (defaults is not None and k in defaults and defaults[k] == v):
            continue
        out.append(f"{k} {option_words(v)}")
    return out


def setup_words(game: str, place: str, mission: str | None = None, options: dict | None = None,
                defaults: dict | None = None) -> str:
    """The header's words for the game's set-up: "Counterblast on Kessler Station · Salvage Rights
    · house rules: short_range 6" (the mission and the house rules only where there are some)."""
    parts = [f"{game} on {place}"]
    if mission:
        parts.append(mission)
    rules = house_rules(options or {}, defaults)
    if rules:
        parts.append("house rules: " + ", ".join(rules))
    return " \u00b7 ".join(parts)


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
