"""What each agent does and how long it thinks, in a player's words: the one table the launcher
(and anything else that lists the agents) reads, so the words are not scattered.

The times are docs/ai.md's: ``random`` and ``easy`` answer from the decision at hand (easy's
median decision took 0.02-6 ms, its slowest about 0.25 s: the first move on a table, which builds
the walking grid; "Decision times"); the search agents think for their ``budget`` a decision
(wall time in the window, CPU time in a simulation; "In the window"), read from their parameters,
so ``hard:budget=2.0`` says 2 s.
"""
from __future__ import annotations

from .base import _AGENTS, AgentError, check_agent

# name -> (what it does, how long it takes when it does not think for a budget); weakest first
ABOUT: dict[str, tuple[str, str]] = {
    "random": ("plays any legal option at random: a test, not an opponent", "answers at once"),
    "easy": ("greedy: plays the best option for the mission, threats, cover and odds",
             "answers at once (its slowest move about 0.25 s)"),
    "normal": ("searches easy's pick and 2 rivals on sampled futures to the end of the activation", ""),
    # the fixed reference: hard as it was (engine/ai/hard2026/); listed before hard, which may only get stronger
    "hard-2026": ("the hard agent as of 2026-12, a fixed reference", ""),
    "hard": ("searches its first idea, 2 rivals and 3 other moves through the enemy's reply", ""),
}


def order(names) -> list[str]:
    """``names`` weakest first, as ``ABOUT`` lists them (agents it does not know last, by name)."""
    rank = {n: i for i, n in enumerate(ABOUT)}
    return sorted(names, key=lambda n: (rank.get(n, len(rank)), n))


def think_time(name: str) -> str:
    """How long the agent ``name`` (with any parameters) takes a decision, in words."""
    try:
        base, params = check_agent(name)
    except AgentError:
        return ""
    budget = getattr(params, "budget", None)
    iters = getattr(params, "iters", 0)
    if iters:
        return f"{iters} rounds of search a decision"
    if budget is not None:
        return f"thinks {budget:g} s a decision"
    return ABOUT.get(base, ("", ""))[1]


def about(name: str) -> str:
    """How long, then what it does, in two short sentences for the agent ``name`` (``hard``,
    ``hard:budget=2.0``): "Thinks 0.8 s a decision. Searches 3 candidates ..."."""
    base = name.split(":", 1)[0]
    what = ABOUT.get(base, ("", ""))[0]
    if not what and base in _AGENTS:     # an agent registered elsewhere: its docstring's first line
        what = ((_AGENTS[base].__doc__ or "").strip().splitlines() or [""])[0].rstrip(".")
    return " ".join(x[0].upper() + x[1:] + "." for x in (think_time(name), what) if x)
