"""An answer submitted from the game screen, and what follows it: the events the viewer may see
go to the log, the dice tray, the hand and the table's effects; the models the AI's turn named
are ringed; moved models glide along the route the engine counted; then ``_check_flow`` (game
over, or the pass screen: ``game/play/handover.py``).

A part of ``PlayScene`` (``game/scenes/play.py``). Every answer, a click's or the AI's, goes
through ``GameSession.submit`` here.
"""
from __future__ import annotations

import math

from engine.core import GameError
from engine.rulesets.common import MoveSpace, MoveTo
from game.ui.effects import route_of


def reveal_records(e, viewer) -> list[dict]:
    """A Frontier reveal for the tray: each player's cards, turned over together."""
    return [{"label": "you" if str(p) == str(viewer) else f"player {p}", "cards": list(codes), "player": int(p)}
            for p, codes in sorted(e.data["cards"].items())]


class AnswersMixin:
    """Submitting an answer and showing what it did, for ``PlayScene``."""

    def submit(self, choice) -> bool:
        d = self.decision
        before = {p["id"]: (p["x"], p["y"]) for p in self.pieces}
        routes = {}
        for sp in d.spaces:                         # the route a move of ours will glide along
            if isinstance(sp, MoveSpace) and isinstance(choice, MoveTo) and sp.actor == choice.model:
                got = sp.route(choice)
                if got is not None:
                    routes[choice.model] = got[0]
        try:
            step = self.session.submit(d.player, choice, d.seq)
        except GameError as err:
            self.say(str(err).split("\n")[0], error=True)
            return False
        self._show_step(step, before, routes, choice)
        return True

    def take_remote(self) -> None:
        """A network game (``RemoteSession``; a local session has nothing here): what came from the
        server since the last frame is shown as an answer here is (the other player's decisions:
        the log, the dice, the glides); a whole new state (a reconnection, an undo) rebuilds the
        log; the session's notices ("waiting for player 2", an undo asked) become messages."""
        s = self.session
        s.pump()
        for step in s.take_steps():
            if getattr(step, "full", False):
                self.anim.clear()
                self.effects.clear()
                self._reach_cache.clear()
                self._shade_cache.clear()
                self.refresh(rebuild_log=True)
                if getattr(step, "undone", False):
                    self.say("the last decision was taken back" if step.player != self.viewer
                             else "took back your last decision (the other player agreed)")
            else:
                self._show_step(step, {p["id"]: (p["x"], p["y"]) for p in self.pieces})
        for n in s.take_notices():
            self.say(n.text, error=n.kind == "error")
        self._ask_undo()

    def _show_step(self, step, before, routes=None, choice=None) -> None:
        """The events of one settled decision, as the viewer may see them: the log, the tray, the
        hand, the effects, the models' glides; then the flow (``_after_change``)."""
        routes = dict(routes or {})
        seen = [e for e in step.events if e.visible(self.viewer)]
        if step.by_ai:                              # what the AI's turn touched, ringed until we act
            from game.controllers.generic import involved
            ids = {p["id"] for p in self.pieces}
            if choice is not None:
                self.ai_named.update(involved(choice, ids))
            for e in seen:
                self.ai_named.update(v for k, v in (e.data or {}).items()
                                     if k in ("model", "fighter", "attacker", "defender", "target", "shooter")
                                     and isinstance(v, str) and v in ids)
        else:
            self.ai_named.clear()
        for e in seen:
            self.log.add(e.text, e.kind, e.data.get("rolls"), private=e.visible_to is not None)
            if e.data.get("rolls"):
                self.tray.add(e.text, e.data["rolls"], self.t)
                self._sound("dice")
            elif e.kind == "reveal" and isinstance(e.data.get("cards"), dict):
                self.tray.add(e.text, reveal_records(e, self.viewer), self.t)
                self._sound("card")
        self.hand.on_events(seen, self.t)
        if self.tray.animate:
            self.effects.add(seen, self.t)
        for e in seen:                              # the AI's routes, where its events give them
            mid = (e.data or {}).get("model") or (e.data or {}).get("fighter")
            if e.kind == "move" and isinstance(mid, str) and mid in before and "path" in (e.data or {}):
                routes.setdefault(mid, route_of(e, before[mid], before[mid]))
        self._after_change(before, animate=self.tray.animate, routes=routes)

    def _after_change(self, before, animate: bool, routes=None) -> None:
        self._reach_cache.clear()
        self._shade_cache.clear()
        self.refresh()
        now = self.t
        if animate:                                 # every move glides, ours as the AI's
            for p in self.pieces:
                a = before.get(p["id"])
                b = (p["x"], p["y"])
                if a and math.dist(a, b) > 0.5:
                    route = list((routes or {}).get(p["id"]) or [a, b])
                    route[0], route[-1] = a, b
                    length = sum(math.dist(route[i], route[i + 1]) for i in range(len(route) - 1))
                    dur = min(1.2, 0.25 + length / 400.0) / self.speed
                    self.anim[p["id"]] = (route, now, dur)
        self._check_flow()

    def positions(self) -> dict:
        """Where gliding models are drawn now: along their route, eased at both ends."""
        out = {}
        for k, (route, t0, dur) in self.anim.items():
            f = min(1.0, max(0.0, (self.t - t0) / dur))
            f = f * f * (3 - 2 * f)
            legs = [math.dist(route[i], route[i + 1]) for i in range(len(route) - 1)]
            go = f * sum(legs)
            for i, leg in enumerate(legs):
                if go <= leg or i == len(legs) - 1:
                    u = 0.0 if leg <= 0 else min(1.0, go / leg)
                    a, b = route[i], route[i + 1]
                    out[k] = (a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u)
                    break
                go -= leg
        return out
