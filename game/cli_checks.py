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
