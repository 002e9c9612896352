"""What a ruleset tells a launcher and a score panel about a game's set-up and standing: its
missions (scenarios) and a scoreboard. Plain values, so the client, the CLI and the AI read them
without knowing which ruleset they ask."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class MissionInfo:
    """One mission (scenario) a ruleset offers, as the launcher lists it."""
    id: str
    name: str
    summary: str              # how it is won, in a sentence or two of the player's words
    min_markers: int = 0      # objective markers the map must hold
    ours: bool = False        # our rule (docs/rules/<ruleset>.md), not the seed's
    doc: str = ""             # where its rule is written, e.g. "docs/rules/frontier.md, Missions"


@dataclass(frozen=True)
class ScoreLine:
    """One row of the scoreboard: a label and each side's value, as shown."""
    label: str                              # "Objective", "Battle", "Victory points"
    values: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Scoreboard:
    """The standing of a game as every player may know it (nothing hidden goes in)."""
    mission: str                            # the mission's name ("Salvage Rights", "The fight")
    wins: str                               # what wins, in words
    turn: int
    turn_limit: int | None                  # None: the game has no turn limit
    lines: tuple[ScoreLine, ...] = ()
    notes: tuple[str, ...] = ()             # anything else a player should know (a degree of victory)
