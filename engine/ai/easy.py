"""The ``easy`` agent: greedy. Each decision's options (and candidate points for a move space)
are scored by a utility that knows the mission, the threat, cover from the table's sight, the
engine's odds and wounds; the best one is played. One policy per ruleset, which the ruleset
names in ``Rules.easy_policy`` (``policy_class``); a ruleset that names none gets a plain
fallback (the first option that is not a pass, else a sampled point).

Honesty: a policy is given the Decision, ``view(player)`` and what ``attach`` handed over (the
table and the ruleset object: static data and pure functions). See ``base.py`` and docs/ai.md.
"""
from __future__ import annotations

import importlib

from engine.core.protocol import Choice, Decision
from engine.rulesets.common import memo_get

from .base import Agent, register_agent
from .utility import Utility


class Policy:
    """One ruleset's greedy choices. ``agent`` gives the player, the RNG, the table, the rules.

    A ruleset's policy also says what the search agents (``search.py``) need of it: ``Utility``,
    the class that values its states, and ``trusted``, the decision kinds easy answers better
    than a search over a few sampled worlds (those are left to easy)."""

    Utility: type[Utility] = Utility
    trusted: tuple[str, ...] = ()
    # keep each chosen move's runners-up (``runners_up``): only a search agent's own easy reads
    # them, so the easy players inside its playouts (the hot path) do not sort for them
    keep_runners: bool = False

    def __init__(self, agent: EasyAgent):
        self.agent = agent
        self.player = agent.player
        self.table = agent.table
        self.rules = agent.rules

    def choose(self, decision: Decision, view: dict) -> Choice:
        return fallback(decision, self.agent.rng)

    @property
    def frame(self):
        """This player's frame as they face the table, for breaking ties alike on both sides of a
        symmetric table: the deployment's fair frames (engine/rulesets/deployment/zones.py), side
        2's mirrored on a table whose symmetry is a mirror; None without a table or a zone."""
        if "_frame" not in self.__dict__:
            from engine.rulesets.deployment.zones import side_frames
            mf = getattr(self.table, "mapfile", None)
            self._frame = side_frames(self.table).get(self.player) if mf is not None else None
        return self._frame

    def note_reason(self, spots, move) -> None:
        """Keep a move's reason (the score term it gained most on), for ``explain``, and the
        runners-up of the same scoring (``runners_up``), for the search agents."""
        from .easy_moves import runners_up, spot_reason
        reasons = self.__dict__.setdefault("_reasons", {})
        alts = self.__dict__.setdefault("_runners", {})
        if len(reasons) > 4096:
            reasons.clear()
            alts.clear()
        if move is not None:
            reasons[move] = spot_reason(spots, move)
            if self.keep_runners:
                alts[move] = runners_up(spots, move)

    def runners_up(self, move) -> tuple:
        """The next best destinations easy scored when it chose ``move`` (best first, each at
        least an inch from the others and from ``move``), or () when it kept none: the search
        agents play them against easy's own point (docs/ai.md, "Other destinations"); kept only
        with ``keep_runners``."""
        return self.__dict__.get("_runners", {}).get(move, ())

    def explain(self, decision: Decision, choice: Choice) -> str:
        """One line on why ``choice`` (a player's words): a move's kept reason, an attack's odds
        as the engine states them in its label, else what the choice is."""
        got = self.__dict__.get("_reasons", {}).get(choice)
        if got:
            return got
        try:
            label = decision.labels[decision.options.index(choice)]
        except (ValueError, IndexError, AttributeError):
            return ""
        if "%" in label and ":" in label:
            return "the best odds it had: " + label.split(":", 1)[1].strip()
        if any(hasattr(choice, f) for f in ("target", "defender")) and not hasattr(choice, "x"):
            return "its best attack now"
        return ""

    def kept_move(self, key, build):
        """A ruleset's best move, kept per question: a search meets the same position in many
        worlds (other dice, other hidden cards), which a move answer never reads. ``key`` must
        hold all the answer reads (the move space's ``signature()`` and the models' entries)."""
        return memo_get(self.__dict__.setdefault("_moves", {}), key, build, 4096)


def policy_class(rules) -> type[Policy]:
    """The policy ``rules`` names (``Rules.easy_policy``, "module:Class"), else the plain one."""
    spec = getattr(rules, "easy_policy", None)
    if not spec:
        return Policy
    module, name = spec.split(":")
    return getattr(importlib.import_module(module), name)


def fallback(decision: Decision, rng) -> Choice:
    for o in decision.options:
        if type(o).__name__ not in ("Pass", "PassTurn", "EndActivation", "NoReaction"):
            return o
    for sp in decision.spaces:
        c = sp.sample(rng)
        if c is not None:
            return c
    return decision.options[0]


@register_agent
class EasyAgent(Agent):
    name = "easy"

    def __init__(self, player: int, seed: int = 0, params=None):
        super().__init__(player, seed, params)
        self._policy: Policy | None = None

    def attach(self, table, rules) -> None:
        super().attach(table, rules)
        self._policy = None

    def policy(self, view: dict) -> Policy:
        # the ruleset's own policy needs the table and the rules that ``attach`` handed over
        if self._policy is None:
            if self.table is None or self.rules is None:
                self._policy = Policy(self)
            else:
                self._policy = policy_class(self.rules)(self)
        return self._policy

    def choose(self, decision: Decision, view: dict) -> Choice:
        if len(decision.options) == 1 and not decision.spaces:
            self.reason = ""
            return decision.options[0]
        if decision.kind == "deploy" and self.table is not None:
            from .deploy import choose_placement
            self.reason = "the best spot of its zone: hidden from the enemy's, near the objectives, spread out"
            return choose_placement(decision, self.table, self.player)
        policy = self.policy(view)
        choice = policy.choose(decision, view)
        self.reason = policy.explain(decision, choice)      # for a player following the AI's turn
        return choice
