"""Agents that answer Decisions: "random" (uniform over legal choices), "easy" (greedy), the
search agents "normal" and "hard" (look-ahead on sampled worlds, easy as the playout policy) and
"hard-2026" (hard as of 2026-12, frozen: a fixed reference for measuring later levels)."""
from . import (
                   easy,  # noqa: F401  (registers "easy")
                   hard2026,  # noqa: F401  (registers "hard-2026")
                   random_agent,  # noqa: F401  (registers "random")
                   search,  # noqa: F401  (registers "normal" and "hard")
)
from .base import Agent, AgentError, agent_names, agent_problem, check_agent, make_agent, parse_agent, register_agent

__all__ = ["Agent", "AgentError", "agent_names", "agent_problem", "check_agent", "make_agent", "parse_agent",
           "register_agent"]
