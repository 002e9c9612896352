"""``AttackOdds``: the odds of one attack a player could make, in the same shape for every ruleset.

``Rules.attack_odds(state, choice, player)`` returns one for a choice that is an attack (None
otherwise); ``Game.attack_odds(choice, player=None)`` asks it about the current state. The client
shows ``summary`` when a player hovers an enemy; the AI reads ``outcomes``. Every number comes
from the ruleset's own odds functions, from what ``player`` may know (never a hidden card).

``outcomes`` are nested events listed from the widest to the narrowest, so their probabilities
never increase down the list: ("hit", 0.62) ⊇ ("1+ wound", 0.31) ⊇ ("taken out", 0.08).
``others`` holds side events that are not part of that chain (a shot into a fight hitting a
friend, a weapon breaking). ``parts`` splits an attack on several targets into one ``AttackOdds``
per target; ``variants`` lists the odds for each way the attacker may still play the attack
(Frontier: each card or pair it could commit), the headline numbers being those of the first.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AttackOdds:
    attacker: str                                   # model id
    target: str                                     # model id (a split attack: its first target)
    summary: str                                    # one line in player words
    outcomes: tuple[tuple[str, float], ...]         # nested events, widest first
    exact: bool = True
    method: str = "exact"                           # "exact" or "monte-carlo n=..."
    assumptions: str = ""                           # what the numbers take for granted
    others: tuple[tuple[str, float], ...] = ()      # side events, not nested in ``outcomes``
    parts: tuple[AttackOdds, ...] = ()            # one per target of a split attack
    variants: tuple[tuple[str, AttackOdds], ...] = ()  # (how, odds) for each way to play it

    def p(self, label: str, default: float | None = None) -> float | None:
        """The probability of the outcome (or side event) called ``label``."""
        for name, value in self.outcomes + self.others:
            if name == label:
                return value
        return default

    @property
    def hit(self) -> float:
        """The first (widest) outcome: the attack succeeds at all."""
        return self.outcomes[0][1] if self.outcomes else 0.0

    def to_json(self) -> dict:
        return {
            "attacker": self.attacker, "target": self.target, "summary": self.summary,
            "outcomes": [[k, v] for k, v in self.outcomes], "exact": self.exact, "method": self.method,
            "assumptions": self.assumptions, "others": [[k, v] for k, v in self.others],
            "parts": [p.to_json() for p in self.parts],
            "variants": [[k, v.to_json()] for k, v in self.variants],
        }


def pct(p: float) -> str:
    """A probability in player words: "62%", "<1%" for a small but real chance, ">99%"."""
    if 0.0 < p < 0.005:
        return "<1%"
    if 0.995 <= p < 1.0:
        return ">99%"
    return f"{p:.0%}"
