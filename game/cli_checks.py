"""Checks the commands share before any game starts (exit code 2: bad usage)."""
from __future__ import annotations


def ruleset_and_agents_problem(command: str, ruleset: str, agents) -> str | None:
    """Why the ruleset or an agent is not usable, or None. An agent name may carry parameters
    after a colon ("hard:budget=2.0"): the agent's own schema checks them (``engine.ai.check_agent``)."""
    from engine.ai import agent_problem
    from engine.core.errors import UnknownRuleset
    from engine.core.rules import get_rules

    try:
        get_rules(ruleset)
    except UnknownRuleset as err:
        return f"skirmish {command}: {err}"
    for a in agents:
        why = agent_problem(a)
        if why:
            return f"skirmish {command}: {why}"
    return None


def map_problem(command: str, ruleset: str, mapfile, name: str, rosters, any_map: bool) -> str | None:
    """Why the ruleset cannot play on this loaded map with these rosters (None: it can): the map's
    ``suits`` leave the ruleset out (unless ``any_map``), or the set-up refuses the map or a roster.
    Asked before any worker starts, so a bad map is a usage error, not a failed game."""
    from engine.core import Game, Setup
    from engine.core.errors import SetupError
    from engine.data.maps import suits_problem

    why = suits_problem(mapfile, ruleset)
    if why and not any_map:
        return f"skirmish {command}: {why}"
    try:
        Game(Setup(ruleset, mapfile, tuple(r for r in rosters if r is not None), {}, 1))
    except SetupError as err:
        return f"skirmish {command}: cannot set up {ruleset} on {name}: {err}"
    return None
