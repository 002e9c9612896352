"""``Game``: one game in progress, driven by the decision protocol.

``pending()`` says who must decide what; ``submit()`` checks the answer against exactly the
options ``pending()`` offered (the one source of legality), applies it and returns the events;
``view()`` is what one player may know; ``clone()`` copies only the dynamic state.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from .errors import EngineBug, GameOver, IllegalChoice, NotYourDecision, SetupError, StaleDecision
from .labels import Labels
from .odds import AttackOdds
from .protocol import Choice, Decision, Event, Result, _short, same_choice
from .rules import Rules, get_rules
from .state import State, state_hash


@dataclass(frozen=True)
class Setup:
    """Everything that, with the decisions, reproduces a game exactly."""
    ruleset: str
    map: Any  # engine.data.maps.MapFile
    rosters: tuple = ()
    options: dict = field(default_factory=dict)
    seed: int = 0


# Seeds are signed 64-bit whole numbers: room for any seed a person or a tool picks, and a
# bound a save's schema can state (engine/core/saves.py).
MAX_SEED = 2 ** 63 - 1


class Game:
    # False: nobody reads an answered decision's labels (a simulation, a search's roll-out), so
    # the ones not yet worded are never worded (``engine/core/labels.py``)
    keep_labels = True

    def __init__(self, setup: Setup, table=None):
        from .tables import table_for

        seed = setup.seed
        if isinstance(seed, bool) or not isinstance(seed, int) or not -MAX_SEED - 1 <= seed <= MAX_SEED:
            raise SetupError(f"the seed must be a whole number from {-MAX_SEED - 1} to {MAX_SEED}, "
                             f"not {_short(seed)}")
        self.setup = setup
        rules_cls = get_rules(setup.ruleset)
        self.table = table if table is not None else table_for(setup.map)
        rosters = list(setup.rosters) if setup.rosters else rules_cls.default_rosters(self.table)
        if len(rosters) > rules_cls.players:
            raise SetupError(f"{len(rosters)} rosters for {setup.ruleset}, a {rules_cls.players}-player game")
        self.setup = Setup(setup.ruleset, setup.map, tuple(rosters), dict(setup.options), setup.seed)
        self.rules: Rules = rules_cls(self.table, rosters, dict(setup.options))
        self.state: State = self.rules.initial_state(setup.seed)
        self.decisions: list[tuple[int, Choice]] = []
        # per decision: did applying it show its player something they did not know when choosing
        # (a die rolled, a hidden card turned over or drawn)? Undo never goes back over such a one.
        self.revealed: list[bool] = []
        self.log: list[Event] = list(self.rules.setup_events(self.state))
        self._log_texts: dict = {}  # player -> (events read, their visible texts), grown as the log grows
        self._pending: Decision | None = None
        self._pending_ok = False

    # --- the protocol ---------------------------------------------------------
    def pending(self) -> Decision | None:
        if not self._pending_ok:
            d = self.rules.pending(self.state)
            if d is not None:
                # worded when first read, from this state (``Labels``; settled in ``submit``)
                labels = d.labels or Labels(self.rules, self.state, d.options)
                d = Decision(d.player, d.kind, d.prompt, d.options, d.spaces, labels, len(self.decisions))
            self._pending, self._pending_ok = d, True
        return self._pending

    def check(self, player: int, choice: Choice, seq: int | None = None) -> Decision:
        """Raise the specific refusal for an answer, or return the decision it answers.
        Nothing here changes the state, and nothing a caller passes makes it raise anything
        but a ``GameError`` (a malformed answer is an ``IllegalChoice`` with its reason)."""
        d = self.pending()
        if d is None:
            raise GameOver("the game is over; no decision is pending")
        if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
            raise StaleDecision(f"{_short(seq)} is not a decision number", f"an answer to decision #{d.seq} ({d.expected()})")
        if seq is not None and seq != d.seq:
            raise StaleDecision(f"answer to decision #{seq}, which is already settled",
                                f"an answer to decision #{d.seq} ({d.expected()})")
        players = getattr(self.rules, "players", 2)
        if isinstance(player, bool) or not isinstance(player, int) or not 1 <= player <= players:
            raise IllegalChoice(f"{_short(player)} is not a player number (1 to {players})", d.expected())
        if player != d.player:
            raise NotYourDecision(f"player {player} answered, but the decision is player {d.player}'s",
                                  d.expected())
        if not isinstance(choice, Choice):
            raise IllegalChoice(f"{_short(choice)} is not a choice", d.expected())
        if any(choice is o for o in d.options):
            # the very object the rules listed (an agent's pick; choices are frozen): its fields are
            # the rules' own, so the type check below, there for answers built elsewhere, is skipped
            return d
        problems = choice.field_problems()
        if problems:
            raise IllegalChoice(f"{choice.describe_safely()} is malformed: " + "; ".join(problems), d.expected())
        if any(same_choice(choice, o) for o in d.options):   # exact types first: no __eq__ of the caller's runs
            return d
        reasons = []
        for space in d.spaces:
            if isinstance(choice, space.choice_type):
                try:
                    reason = space.check(choice)
                except Exception as err:  # a space that cannot judge this answer refuses it
                    reason = f"it cannot be checked ({type(err).__name__}: {err})"
                if reason is None:
                    return d
                reasons.append(reason)
        if not reasons:
            try:
                why = self.rules.refusal(self.state, player, choice)
            except Exception:  # noqa: BLE001 - a reason is an aid: the refusal stands without it
                why = None
            if why:
                reasons.append(why)
        what = self.describe(choice) + " is not allowed"
        if reasons:
            what += ": " + "; ".join(reasons)
        raise IllegalChoice(what, d.expected(), tuple(reasons))

    def submit(self, player: int, choice: Choice, seq: int | None = None) -> list[Event]:
        d = self.check(player, choice, seq)
        if isinstance(d.labels, Labels) and d.labels.listed_in(self.state):
            d.labels.settle(self.keep_labels)     # before the state changes
        before = self.state.rng.marker()
        hidden = self.rules.hidden_from(self.state, player)
        try:
            events = self.rules.apply(self.state, player, choice)
        except Exception as err:  # a ruleset bug: put the game back exactly as it was
            self._restore()
            raise EngineBug(f"{self.setup.ruleset} failed applying {self.describe(choice)}: {err!r}") from err
        self.decisions.append((player, choice))
        self.revealed.append(self.state.rng.marker() != before
                             or self.rules.hidden_from(self.state, player) != hidden)
        self.log.extend(events)
        self._pending_ok = False
        return events

    def view(self, player: int | None, drawing: bool = True) -> dict:
        """``player``'s view and the log they may read (``Rules.view``; ``drawing=False``: for an
        agent, without the pieces only the client draws)."""
        v = self.rules.view(self.state, player, drawing)
        v["log"] = list(self._visible_log(player))
        return v

    def aim_info(self, attacker: str, target: str) -> list[str]:
        """Sight, cover and range of one model sizing up another, in the ruleset's words."""
        return self.rules.aim_info(self.state, attacker, target)

    def ranges(self, model: str) -> list[tuple[str, float]]:
        """A model's attack reaches (name, mm from its base edge), for range rings."""
        return self.rules.ranges(self.state, model)

    def undo_point(self, player: int) -> int:
        """How many decisions must stay if ``player`` takes back their own latest ones: the
        game may go back over that player's decisions that revealed nothing (rolled no die, turned
        over or drew no hidden card: ``revealed``) and were not followed by anyone else's decision. Equal to ``len(decisions)``
        when there is nothing to take back."""
        k = len(self.decisions)
        while k > 0 and self.decisions[k - 1][0] == player and not self.revealed[k - 1]:
            k -= 1
        return k

    def _visible_log(self, player: int | None) -> list[str]:
        """The log lines ``player`` may see, read once each: a view costs a list copy, not a
        pass over every event of the game."""
        seen, texts = self._log_texts.get(player, (0, []))
        if seen > len(self.log):          # the log was replaced (a restore): read it again
            seen, texts = 0, []
        if seen < len(self.log):
            texts = texts + [e.text for e in self.log[seen:] if e.visible(player)]
            self._log_texts[player] = (len(self.log), texts)
        return texts

    def result(self) -> Result | None:
        return self.rules.result(self.state)

    @property
    def over(self) -> bool:
        return self.pending() is None

    def describe(self, choice: Choice) -> str:
        """The choice in the ruleset's words; its plain form when the ruleset cannot word it
        (an answer naming a model or weapon that does not exist, say)."""
        try:
            return self.rules.describe_choice(self.state, choice)
        except Exception:
            return choice.describe_safely()

    def attack_odds(self, choice: Choice, player: int | None = None) -> AttackOdds | None:
        """The odds of ``choice`` (an attack; None for any other choice) in the current state,
        from what ``player`` may know; ``player`` defaults to the pending decision's player.
        Reads the state only: the state hash is the same afterwards."""
        if player is None:
            d = self.pending()
            player = d.player if d is not None else None
        return self.rules.attack_odds(self.state, choice, player)

    # --- copies, hashes, replays ----------------------------------------------
    def state_hash(self) -> str:
        return state_hash(self.state)

    def clone(self) -> Game:
        return self._copy_with(copy.deepcopy(self.state))

    def _copy_with(self, state) -> Game:
        """This game with ``state`` (the caller's own copy) in place of its state."""
        g = Game.__new__(Game)
        g.setup, g.table, g.rules = self.setup, self.table, self.rules
        g.state = state
        g.decisions = list(self.decisions)
        g.revealed = list(self.revealed)
        g.log = list(self.log)
        g._log_texts = dict(self._log_texts)   # the lists are never changed in place
        g._pending, g._pending_ok = self._pending, self._pending_ok
        return g

    def sample_world(self, player: int, rng) -> Game:
        """A game ``player`` cannot tell from this one: ``view(player)`` is the same, and what
        that player may not know (the dice to come; in Frontier the opponent's hand, committed
        card and both decks) is drawn anew from ``rng`` (``Rules.determinize``). Search agents
        play their look-ahead on such worlds. The copy keeps only the log lines ``player`` may
        see and no decision record (its past cannot be replayed: the opponent's secret answers
        are not in it), so nothing hidden can be read back from it."""
        # every attribute a Game has, with the determinized copy (one copy of the state, not two)
        g = self._copy_with(self.rules.determinize(self.state, player, rng))
        g.decisions, g.revealed = [], []
        g.log = [e for e in self.log if e.visible(player)]
        if hasattr(g, "_log_texts"):  # a per-player cache of log lines: read the world's own log
            g._log_texts = {}
        g._pending, g._pending_ok = None, False
        return g

    def _restore(self) -> None:
        fresh = replay(self.setup, self.decisions, table=self.table)
        self.state, self.log, self.revealed = fresh.state, fresh.log, fresh.revealed
        self._log_texts = {}
        self._pending_ok = False


def replay(setup: Setup, decisions, table=None) -> Game:
    """Re-run a game from its setup and its recorded decisions."""
    g = Game(setup, table=table)
    for player, choice in decisions:
        g.submit(player, choice)
    return g
