"""Agents that answer Decisions: "random" (uniform over legal choices) and "easy" (greedy)."""
from . import easy  # noqa: F401  (registers "easy")
from . import random_agent  # noqa: F401  (registers "random")
from .base import Agent, agent_names, make_agent, register_agent

__all__ = ["Agent", "agent_names", "make_agent", "register_agent"]
