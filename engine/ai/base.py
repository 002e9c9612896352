"""Agents answer Decisions for one player.

The honesty boundary: an agent sees only the Decision it must answer and that player's view
(``Game.view(player)``; the simulator and the search's roll-outs leave out the ``pieces`` only
the client draws, which no agent reads), plus, through ``attach``, the public static half of the game: the
table (terrain geometry: sight, cover, paths, distances) and the ruleset object bound to it
(rosters, profiles, options, mission, markers; pure rule functions such as odds). It never
receives the game state: not the opponent's hand, not the deck order, not the RNG. Whatever it
asks the table or a pure function, it asks with positions and numbers taken from the view.
Any randomness comes from the agent's own seeded RNG.

Search agents also get, through ``bind_worlds``, a way to draw *sampled worlds*: games that the
agent's player cannot tell from the real one (same view), with every hidden fact (dice to come,
the opponent's cards, deck orders) drawn anew (``Game.sample_world``). A world is built from
the view's facts and the agent's own RNG only, so what the agent does with it cannot depend on
what it may not know.
"""
from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from engine.core.protocol import Choice, Decision

if TYPE_CHECKING:
    from engine.core.rules import Rules
    from engine.table import Table


class NoParams(BaseModel):
    """An agent's parameters (``name:key=value,...``) as a schema: each agent names its own
    subclass in ``Agent.Params``, with a type, bounds and a description per field; this one
    takes none."""
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class AgentError(ValueError):
    """An agent name or parameters no agent takes (a usage error: the reason says which)."""


class Agent:
    name = "agent"
    Params: type[BaseModel] = NoParams

    def __init__(self, player: int, seed: int = 0, params: BaseModel | None = None):
        self.player = player
        self.params = params if params is not None else self.Params()
        self.rng = random.Random(seed)
        self.table: Table | None = None     # both given by ``attach``
        self.rules: Rules | None = None
        self.worlds: Callable | None = None

    def attach(self, table, rules) -> None:
        """Receive the public static facts of the game about to be played: the ``Table`` and the
        ``Rules`` object (the static half of a game: rosters, profiles, options; it holds no
        state). The simulator calls this before the first decision; a client running an agent
        calls it once per game. Agents that need no geometry may ignore it."""
        self.table, self.rules = table, rules

    def bind_worlds(self, worlds: Callable) -> None:
        """Receive ``worlds(rng) -> Game``: a fresh determinized copy of the game in progress,
        as this agent's player sees it (``Game.sample_world(player, rng)``; ``rng`` is a
        ``random.Random``). The simulator and the client's session bind it after ``attach``;
        agents that do not search ignore it."""
        self.worlds = worlds

    # one line on why the last choice was made, in a player's words ("" when there is nothing to
    # say): the client shows it with the AI's move
    reason: str = ""

    # False for an agent whose ``choose`` never reads its view (``random``): the simulator then
    # passes None instead of building a view nobody reads
    reads_view: bool = True

    def choose(self, decision: Decision, view: dict) -> Choice:
        raise NotImplementedError

    def __deepcopy__(self, memo):
        """A copy with its own RNG, memory and kept answers, sharing the table and the rules:
        they are the game's static facts (a game's clones share them too), and copying them
        would cost far more than the agent itself."""
        for shared in (self.table, self.rules):
            if shared is not None:
                memo.setdefault(id(shared), shared)
        new = self.__class__.__new__(self.__class__)
        memo[id(self)] = new
        new.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return new


_AGENTS: dict[str, type[Agent]] = {}
AgentClass = TypeVar("AgentClass", bound=type[Agent])


def register_agent(cls: AgentClass) -> AgentClass:
    _AGENTS[cls.name] = cls
    return cls


def parse_agent(name: str) -> tuple[str, dict]:
    """"hard" -> ("hard", {}); "hard:budget=2.0,k=4" -> ("hard", {"budget": 2.0, "k": 4}).
    Values are ints or floats where they parse as such, else strings."""
    base, _, rest = name.partition(":")
    params: dict = {}
    for part in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, val = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"agent parameter {part!r} in {name!r} is not key=value")
        text = val.strip()
        value: int | float | str = text
        for conv in (int, float):
            try:
                value = conv(text)
                break
            except ValueError:
                pass
        params[key.strip()] = value
    return base.strip(), params


def check_agent(name: str) -> tuple[str, BaseModel]:
    """The agent's registered name and its parameters checked against its ``Params`` schema;
    ``AgentError`` (a ``ValueError``) saying what is wrong otherwise: an unknown agent, a
    parameter it does not take, a value of the wrong type, NaN, infinity or out of bounds. The one
    check every command, the launcher and ``make_agent`` use."""
    if not isinstance(name, str):
        raise AgentError(f"{name!r} is not an agent name")
    base, params = parse_agent(name)
    if base not in _AGENTS:
        raise AgentError(f"no agent {base!r} (available: {', '.join(sorted(_AGENTS))})")
    schema = _AGENTS[base].Params
    known = sorted(schema.model_fields)
    unknown = sorted(set(params) - set(known))
    if unknown and known:
        raise AgentError(f"agent {base!r} takes no parameter {', '.join(map(repr, unknown))} "
                         f"(it takes {', '.join(known)})")
    if unknown:
        raise AgentError(f"agent {base!r} takes no parameters ({', '.join(map(repr, unknown))} given)")
    try:
        return base, schema.model_validate(params)
    except ValidationError as err:
        why = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']} (got {e['input']!r})"
                        for e in err.errors(include_url=False))
        raise AgentError(f"agent {base!r}: {why}") from None


def agent_problem(name: str) -> str | None:
    """Why ``name`` (with any parameters) is not a usable agent, or None."""
    try:
        check_agent(name)
    except AgentError as err:
        return str(err)
    return None


def make_agent(name: str, player: int, seed: int) -> Agent:
    """An agent by name, with optional parameters after a colon (``"hard:budget=2.0"``),
    checked by ``check_agent`` (an agent that takes none refuses them)."""
    base, params = check_agent(name)
    return _AGENTS[base](player, seed, params=params)


def agent_names() -> list[str]:
    return sorted(_AGENTS)
