"""An answer submitted from the game screen, and what follows it: the events the viewer may see
go to the log, the dice tray, the hand and the table's effects; the models the AI's turn named
are ringed; moved models glide along the route the engine counted; then ``Handover.check`` (game
over, or the pass screen: ``game/play/handover.py``).

An owned part of the game screen (``game/scenes/play.py``): every answer, a click's or the AI's,
goes through ``GameSession.submit`` here, and so does undo (``GameSession.undo``, which knows how
far back the player may go: not past dice, a card shown or the other side's answer).
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


class Answering:
    """Submitting an answer, taking one back, and showing what it did. Given the state, the
    screen's ``refresh`` and the handover (the flow after each change)."""

    def __init__(self, state, refresh, handover):
        self.state = state
        self.refresh = refresh
        self.handover = handover

    def submit(self, choice) -> bool:
        st = self.state
        d = st.decision
        before = {p["id"]: (p["x"], p["y"]) for p in st.pieces}
        routes = {}
        for sp in d.spaces:                         # the route a move of ours will glide along
            if isinstance(sp, MoveSpace) and isinstance(choice, MoveTo) and sp.actor == choice.model:
                got = sp.route(choice)
                if got is not None:
                    routes[choice.model] = got[0]
        try:
            step = st.session.submit(d.player, choice, d.seq)
        except GameError as err:
            st.say(str(err).split("\n")[0], error=True)
            return False
        self.show_step(step, before, routes, choice)
        return True

    def undo(self) -> None:
        st, s = self.state, self.state.session
        if st.worker is not None:
            st.say("wait for the AI to finish its move", error=True)
            return
        if s.remote:                               # a network game: the other player is asked
            if s.undo():
                other = 3 - st.viewer
                st.say(f"asked player {other} to let you take back your last decision"
                       if s.seats.get(other) == "remote" else "taking back your last decision")
            else:
                st.say("nothing to undo: your last decision revealed dice or cards, or was not the last one",
                       error=True)
            return
        if s.undo():
            self.forget()
            self.refresh(rebuild_log=True)
            st.say("took back your last decision")
        else:
            st.say("nothing to undo: the last decision revealed dice or cards, or was the other side's", error=True)

    def forget(self) -> None:
        """A whole new position (an undo, a reconnection, a replay's jump): no glide, no effect and
        no shading of the old one is kept."""
        st = self.state
        st.anim.clear()
        st.effects.clear()
        st.reach_cache.clear()
        st.shade_cache.clear()

    def take_remote(self) -> None:
        """A network game (``RemoteSession``; a local session has nothing here): what came from the
        server since the last frame is shown as an answer here is (the other player's decisions:
        the log, the dice, the glides); a whole new state (a reconnection, an undo) rebuilds the
        log; the session's notices ("waiting for player 2", an undo asked) become messages."""
        st, s = self.state, self.state.session
        s.pump()
        for step in s.take_steps():
            if getattr(step, "full", False):
                self.forget()
                self.refresh(rebuild_log=True)
                if getattr(step, "undone", False):
                    st.say("the last decision was taken back" if step.player != st.viewer
                           else "took back your last decision (the other player agreed)")
            else:
                self.show_step(step, {p["id"]: (p["x"], p["y"]) for p in st.pieces})
        for n in s.take_notices():
            st.say(n.text, error=n.kind == "error")

    def show_step(self, step, before, routes=None, choice=None) -> None:
        """The events of one settled decision, as the viewer may see them: the log, the tray, the
        hand, the effects, the models' glides; then the flow (``after_change``)."""
        st = self.state
        routes = dict(routes or {})
        seen = [e for e in step.events if e.visible(st.viewer)]
        if step.by_ai:                              # what the AI's turn touched, ringed until we act
            from game.controllers.generic import involved
            ids = {p["id"] for p in st.pieces}
            if choice is not None:
                st.ai_named.update(involved(choice, ids))
            for e in seen:
                st.ai_named.update(v for k, v in (e.data or {}).items()
                                   if k in ("model", "fighter", "attacker", "defender", "target", "shooter")
                                   and isinstance(v, str) and v in ids)
        else:
            st.ai_named.clear()
        for e in seen:
            st.log.add(e.text, e.kind, e.data.get("rolls"), private=e.visible_to is not None)
            if e.data.get("rolls"):
                st.tray.add(e.text, e.data["rolls"], st.t)
                self.sound("dice")
            elif e.kind == "reveal" and isinstance(e.data.get("cards"), dict):
                st.tray.add(e.text, reveal_records(e, st.viewer), st.t)
                self.sound("card")
        st.hand.on_events(seen, st.t)
        if st.tray.animate:
            st.effects.add(seen, st.t)
        for e in seen:                              # the AI's routes, where its events give them
            mid = (e.data or {}).get("model") or (e.data or {}).get("fighter")
            if e.kind == "move" and isinstance(mid, str) and mid in before and "path" in (e.data or {}):
                routes.setdefault(mid, route_of(e, before[mid], before[mid]))
        self.after_change(before, animate=st.tray.animate, routes=routes)

    def sound(self, name: str) -> None:
        if self.state.sound:
            from game.ui import sounds
            sounds.play(name)

    def after_change(self, before, animate: bool, routes=None) -> None:
        st = self.state
        st.reach_cache.clear()
        st.shade_cache.clear()
        self.refresh()
        now = st.t
        if animate:                                 # every move glides, ours as the AI's
            for p in st.pieces:
                a = before.get(p["id"])
                b = (p["x"], p["y"])
                if a and math.dist(a, b) > 0.5:
                    route = list((routes or {}).get(p["id"]) or [a, b])
                    route[0], route[-1] = a, b
                    length = sum(math.dist(route[i], route[i + 1]) for i in range(len(route) - 1))
                    dur = min(1.2, 0.25 + length / 400.0) / st.speed
                    st.anim[p["id"]] = (route, now, dur)
        self.handover.check()

    def settle_glides(self) -> None:
        """Each frame: the glides that have ended are let go."""
        st = self.state
        for k, (_route, t0, dur) in list(st.anim.items()):
            if st.t - t0 >= dur:
                del st.anim[k]

    def positions(self) -> dict:
        """Where gliding models are drawn now: along their route, eased at both ends."""
        out = {}
        for k, (route, t0, dur) in self.state.anim.items():
            f = min(1.0, max(0.0, (self.state.t - t0) / dur))
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
