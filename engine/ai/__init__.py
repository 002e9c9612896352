"""Agents that answer Decisions: "random" (uniform over legal choices), "easy" (greedy), the
search agents "normal" and "hard" (look-ahead on sampled worlds, easy as the playout policy) and
"hard-2026" (hard as of 2026-12, frozen: a fixed reference for measuring later levels)."""
# each module registers its agents when imported: easy; hard-2026; random; normal and hard
from . import easy, hard2026, random_agent, search  # noqa: F401
from .base import Agent, AgentError, agent_names, agent_problem, check_agent, make_agent, parse_agent, register_agent

__all__ = ["Agent", "AgentError", "agent_names", "agent_problem", "check_agent", "make_agent", "parse_agent",
           "register_agent"]
