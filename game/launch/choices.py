"""What the launcher offers and checks: the rulesets, the maps and their refusals, the seats, the house rules."""
from __future__ import annotations

import functools

from engine.ai import agent_names
from engine.ai.about import about as agent_about
from engine.ai.about import order as agent_order
from engine.core import Game, GameError, Setup
from engine.core.rules import get_rules
from engine.data.errors import DataError
from engine.data.maps import MapFile, load_map
from engine.paths import MAPS_DIR
from game.presenters import presenters
from game.session import HUMAN
from game.ui.house_rules import checked, non_defaults, option_fields

RULESETS = {rs: face.title for rs, face in presenters().items()}     # the rulesets as their presenters name them
# the deployment modes (docs/rules/deployment.md) as the launcher words them
DEPLOYMENTS = {"alternate": "Alternate, one model at a time", "groups": "Alternate, {n} models at a time",
               "hidden": "Hidden, revealed together", "automatic": "Automatic"}
# a seat played by a person, beside the agents' own descriptions (engine/ai/about.py)
HUMAN_ABOUT = "You play this side with the mouse (two humans: hot-seat, passing the device)."
ONE_WAY = "One way to play"          # the Mission list of a ruleset without missions


def shipped_maps() -> dict[str, MapFile]:
    out = {}
    for p in sorted(MAPS_DIR.glob("*.json")):
        try:
            out[p.stem] = load_map(p)
        except DataError:
            continue
    return out


# maps from the layout editor (Play), by a key made from their content, so a changed layout
# is a new key and the cached refusals stay true
_EDITED: dict[str, MapFile] = {}


def register_map(mapfile) -> str:
    """A key under which the launcher lists an edited layout beside the shipped maps."""
    import hashlib

    digest = hashlib.blake2b(mapfile.model_dump_json().encode(), digest_size=4).hexdigest()
    key = f"edited-{mapfile.id}-{digest}"
    _EDITED[key] = mapfile
    return key


@functools.lru_cache(maxsize=64)
def refusal(ruleset: str, map_id: str) -> str | None:
    """The engine's reason for refusing this map under this ruleset, or None."""
    from engine.data.maps import suits_problem

    m = _EDITED.get(map_id) or shipped_maps().get(map_id)
    if m is None:
        return f"no shipped map {map_id!r}"
    why = suits_problem(m, ruleset)
    if why:   # as the command line without --any-map
        return why.split(" (give --any-map")[0]
    try:
        Game(Setup(ruleset, m, (), {}, 1))
    except GameError as err:
        return str(err)
    return None


def home_map(ruleset: str) -> str | None:
    """The shipped table ``ruleset``'s default forces were balanced on (``Rules.home_map``)."""
    return get_rules(ruleset).home_map


def playable_map(ruleset: str, maps: dict) -> str | None:
    """``ruleset``'s home map, else the first shipped map made for it (its ``suits``), else the
    first it accepts."""
    home = home_map(ruleset)
    if home in maps and refusal(ruleset, home) is None:
        return home
    ok = [mid for mid in maps if refusal(ruleset, mid) is None]
    made_for = [mid for mid in ok if ruleset in (getattr(maps[mid], "suits", None) or ())]
    return (made_for or ok or [None])[0]


def seat_choices() -> list[str]:
    return [HUMAN] + [f"ai:{n}" for n in agent_order(agent_names())]


def seat_about(seat: str) -> str:
    """What the seat's player does and how long it thinks, in a line (engine/ai/about.py)."""
    return HUMAN_ABOUT if seat == HUMAN else agent_about(seat[3:] if seat.startswith("ai:") else seat)


def house_rules(ruleset: str, chosen: dict) -> tuple[dict, str | None]:
    """The remembered changes of ``ruleset``'s options as the game's options (the model's JSON
    values of the fields that differ from its defaults), or ({}, why) when its model refuses them."""
    model = get_rules(ruleset).options_model()
    if model is None or not chosen:
        return {}, None
    m, why = checked(model, {k: v for k, v in chosen.items() if k in model.model_fields})
    if why:
        return {}, why
    return non_defaults(m, [f.name for f in option_fields(model)]), None


def size_limit(ruleset: str, chosen: dict) -> int | None:
    """The game size set in Options (the force catalog's ``limit_option``: points or dollars) for
    the force builder to price against; None: the ruleset's default (or no builder)."""
    catalog = get_rules(ruleset).force_catalog()
    options, why = house_rules(ruleset, chosen)
    value = None if (catalog is None or why) else options.get(catalog.limit_option)
    return value if type(value) is int else None
