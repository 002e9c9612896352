"""Agents that answer Decisions: random now; greedy and search come with the AI issue."""
from . import random_agent  # noqa: F401  (registers "random")
from .base import Agent, agent_names, make_agent, register_agent

__all__ = ["Agent", "agent_names", "make_agent", "register_agent"]
