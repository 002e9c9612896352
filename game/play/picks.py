"""Answers picked outside the options list: dice clicked in the tray (a Doubles keep) and cards
chosen in the hand (Frontier's pair, a shortfall's cards). Each is matched against the engine's
own options; a pick that matches none is refused with the engine's reason (``Game.check``).

An owned part of the game screen (``game/scenes/play.py``), given the state and the answering part.
"""
from __future__ import annotations

from engine.core import GameError
from game.ui.dice_tray import Offer


class Picks:
    """The tray's keep offers and the hand's card picks."""

    def __init__(self, state, answering):
        self.state = state
        self.submit = answering.submit

    def keep_offer(self) -> Offer | None:
        """A Doubles keep to make by clicking the dice in the tray: the dice the deciding side
        rolled, from the view; how many to pick, from the engine's options."""
        d = self.state.decision
        if self.state.ctrl is None or d is None or d.kind != "keep" or not d.options:
            return None
        who = getattr(d.options[0], "fighter", None)
        at = self.state.view.get("attack") or {}
        role = "attacker" if who == at.get("attacker") else "defender"
        dice = ((at.get("dice") or {}).get(role) or {}).get("dice") or []
        picks = max(len(o.values) for o in d.options)
        return Offer(f"Click the {picks} dice to keep", [tuple(x) for x in dice], picks, self.state.viewer)

    def keep(self) -> None:
        """The dice clicked in the tray make a keep: the engine's option, or its refusal."""
        o = self.state.tray.offer
        if o is None or len(o.chosen) < o.picks:
            return
        by_id = {did: (v, pen) for did, v, pen in o.dice}
        vals = sorted((by_id[i][0] for i in o.chosen), reverse=True)
        pens = sorted((by_id[i][0] for i in o.chosen if by_id[i][1]), reverse=True)
        o.chosen = []
        d = self.state.decision
        for opt in d.options:
            if sorted(opt.values, reverse=True) == vals and sorted(opt.penalty_values, reverse=True) == pens:
                self.submit(opt)
                return
        try:
            self.state.session.game.check(d.player, type(d.options[0])(d.options[0].fighter, tuple(vals), tuple(pens)), d.seq)
        except GameError as err:
            self.state.say(str(err).split("\n")[0], error=True)

    def spend(self, picked) -> None:
        """The shortfall's cards picked at once: each one the engine's own decision in turn."""
        player = self.state.decision.player
        for code in picked:
            d = self.state.decision
            if d is None or d.player != player or self.state.ctrl is None:
                break
            opt = next((o for o in d.options if getattr(o, "card", None) == code), None)
            if opt is None or not self.submit(opt):
                break

    def refuse_pair(self, a: str, b: str) -> None:
        """Two cards that make no pair the rules allow (the hand's ``PickCards``): the engine's
        own reason."""
        d = self.state.decision
        commit = next((o for o in d.options if isinstance(getattr(o, "cards", None), tuple)), None)
        if commit is None:
            return
        try:
            self.state.session.game.check(d.player, type(commit)((a, b)), d.seq)
        except GameError as err:
            self.state.say(str(err).split("\n")[0], error=True)
