"""Play whole games in the real window the way hands do, and keep the evidence.

    python tools/window_play.py RULESET [--map MAP] [--hot-seat | --opponent ai:AGENT | --ai-v-ai]
                                [--deployment MODE] [--turns N] [--out DIR] [--seed S]

Runs the client in a real window on an X display (starts its own Xvfb when DISPLAY is unset) and
drives it from a second thread with xdotool (``tools/xwindow.py``): mouse moves, clicks,
Shift+clicks, drags and keys, as a person would. What to do at each of the human side's decisions
is chosen by the ``easy`` agent from that player's view; the tool then makes the clicks that answer
it: a row of the options panel, a model then its target, a model then the point of the table to
move to; in the deployment, a click on the table for the model picked up, or a drag out of the
tray onto the table, with Q pressed first now and then where the model has a facing. Along the way it drags a tape measure, hovers enemies for the odds, tries Ctrl+Z after
dice or a reveal (it must be refused), confirms hot-seat pass screens, and keeps a screenshot per
step (``import`` from ImageMagick). It prints what it did, each answer that the window did not take
(none should be), and the final result. Needs xvfb, xdotool and imagemagick.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from xwindow import Hands, drive, fresh_dir, x_display  # noqa: E402

from game.play.pointer import mm  # noqa: E402

HOME = {"counterblast": "outpost", "frontier": "town", "doubles": "prehistoric"}


class Driver(Hands):
    """The human side's answers, chosen by the ``easy`` agent and given by clicks."""

    def __init__(self, app, out: Path, turns: int, seed: int):
        super().__init__(app, out)
        self.turns = turns
        self.rng = random.Random(seed)
        self.refused_by_window = 0
        self.kinds: dict[str, int] = {}        # decision kinds answered through the window
        self.agents = {}

    # --- the game -------------------------------------------------------------------------
    def scene(self):
        return self.app.scene

    def settle(self, timeout=30.0):
        """Wait until the AI has answered and the pieces stopped moving."""
        end = time.time() + timeout
        while time.time() < end:
            sc = self.scene()
            if getattr(getattr(sc, "state", None), "worker", None) is None and not getattr(getattr(sc, "state", None), "anim", None):
                time.sleep(0.2)
                return
            time.sleep(0.1)

    def agent(self, session, player):
        if player not in self.agents:
            from engine.ai import make_agent
            a = make_agent("easy", player, 100 + player)
            a.attach(session.game.table, session.game.rules)
            self.agents[player] = a
        return self.agents[player]

    def run(self):
        from engine.rulesets.common import MoveTo
        from game.scenes.game_over import GameOverScene
        from game.scenes.passing import PassScene
        from game.scenes.play import PlayScene

        time.sleep(2.0)
        self.shot("start")
        taped = set()
        while not self.done:
            self.settle()
            sc = self.scene()
            if isinstance(sc, GameOverScene):
                self.shot("game-over")
                r = sc.result
                self.say(f"game over: {r.reason if r else '?'}; winner {r.winner if r else None}")
                break
            if isinstance(sc, PassScene):
                self.shot(f"pass-to-{sc.player}")
                self.key("Return")
                continue
            if not isinstance(sc, PlayScene):
                time.sleep(0.3)
                continue
            s = sc.state.session
            if s.game.state.turn > self.turns:
                self.say(f"stopped after turn {self.turns}")
                break
            d = sc.state.decision
            if d is None or sc.state.ctrl is None:
                time.sleep(0.2)
                continue
            turn = s.game.state.turn
            if turn not in taped:              # a tape measure a turn, from a model to the middle
                taped.add(turn)
                mine = [p for p in sc.state.pieces if p["player"] == d.player and not p["out"]]
                if mine:
                    a = sc.pointer.screen_pos_of(mine[0]["id"])
                    b = sc.state.table_rect.center
                    self.drag(a, b)
                    self.shot(f"t{turn}-tape")
            view = s.game.view(d.player)
            choice = self.agent(s, d.player).choose(d, view)
            self.kinds[d.kind] = self.kinds.get(d.kind, 0) + 1
            if d.kind in ("react", "move") and self.kinds[d.kind] <= 3:
                self.shot(f"{d.kind}-{type(choice).__name__}")
            before = s.version
            self.answer(sc, d, choice, MoveTo)
            end = time.time() + 5
            while s.version == before and time.time() < end and self.scene() is sc:
                time.sleep(0.1)
            if self.scene() is sc and s.version == before:
                self.refused_by_window += 1
                import pygame
                self.say(f"the window did not take {d.describe() if hasattr(d, 'describe') else d.kind}: "
                         f"{choice!r} ({sc.state.message[0] if sc.state.message else 'no message'}); last click "
                         f"{getattr(self, 'last_click', None)}; selected {sc.state.ctrl.selected if sc.state.ctrl else None}; "
                         f"mods {pygame.key.get_mods()}; scene {type(self.scene()).__name__}")
                self.shot("not-taken")
                sc.answering.submit(choice)                 # keep the game going; counted above
            elif self.scene() is sc and s.game.revealed and s.game.revealed[-1] and \
                    s.game.decisions[-1][0] == d.player and self.rng.random() < 0.5:
                self.key("ctrl+z")                # after dice or a reveal: must be refused
                msg = sc.state.message[0] if sc.state.message else ""
                self.say(f"Ctrl+Z after {type(choice).__name__}: {msg}")
                self.shot("undo-refused")
        self.done = True

    def keep_by_dice(self, sc, choice) -> bool:
        """Click the tray's dice that make the keep ``choice`` (its values, penalty ones among them)."""
        offer = sc.state.tray.offer
        pens, plain = list(choice.penalty_values), list(choice.values)
        for v in pens:
            plain.remove(v)
        picks = []
        for did, value, penalty in offer.dice:
            pool = pens if penalty else plain
            if value in pool:
                pool.remove(value)
                picks.append(did)
        if pens or plain or not all(did in offer.rects for did in picks):
            return False
        for did in picks:
            self.click(offer.rects[did].center)
        self.shot("keep-by-dice")
        return True

    def answer(self, sc, d, choice, MoveTo):
        """The clicks that give ``choice``."""
        from engine.rulesets.common import MoveSpace
        ctrl = sc.state.ctrl
        if choice in d.options:
            i = d.options.index(choice)
            ids = ctrl.ids_of[i]
            if d.kind == "keep" and sc.state.tray.offer is not None:       # a Doubles keep: click the dice
                if self.keep_by_dice(sc, choice):
                    return
            cards = getattr(choice, "cards", None)
            if isinstance(cards, tuple) and all(c in dict(sc.state.hand.rects) for c in cards):
                # a Frontier card: one click, or (when it may lead a pair) lift it and click it
                # again; a pair: the kept card, then the other
                alone = cards * 2 if sc.state.hand.pairs_with(cards[0]) else cards
                for code in (alone if len(cards) == 1 else cards):
                    r = dict(sc.state.hand.rects).get(code)
                    if r is not None:
                        self.click((r.centerx, r.top + 10))
                self.shot(f"cards-{'-'.join(cards)}")
                return
            if ctrl.is_group(i):                                    # a group: the leader, Shift+the rest
                self.click(sc.pointer.screen_pos_of(ids[0]))
                for mid in ids[1:]:
                    self.click(sc.pointer.screen_pos_of(mid), shift=True)
                r = sc.state.options.rect_of(i)
                if r is not None:
                    self.shot("group-formed")
                    self.click(r.center)
                    return
            if len(ids) >= 2 and ids[1] in ctrl.pieces and self.rng.random() < 0.7:
                # an attack: the model, then the enemy (hover first: the odds)
                if ctrl.selected != ids[0]:
                    self.click(sc.pointer.screen_pos_of(ids[0]))
                self.move(sc.pointer.screen_pos_of(ids[1]))
                time.sleep(0.4)
                self.shot(f"aim-{ids[0]}-{ids[1]}")
                before = sc.state.session.version
                self.click(sc.pointer.screen_pos_of(ids[1]))
                if sc.state.session.version != before:
                    return
            if ids and ctrl.selected != ids[0] and ids[0] in ctrl.pieces:
                self.click(sc.pointer.screen_pos_of(ids[0]))       # select: the list narrows to its options
                if sc.state.session.version != sc.state.seen_version or sc.state.ctrl is not ctrl:
                    return
            r = sc.state.options.rect_of(i)
            if r is None:                      # another model got the click: Esc lists them all
                self.key("Escape")
                r = sc.state.options.rect_of(i)
            if r is None:
                self.say(f"option {i} is not listed")
                return
            self.click(r.center)
            return
        if type(choice).__name__ == "PlaceModel" and self.place(sc, choice):
            return
        heading = getattr(choice, "heading", None)
        origin = next((sp.origin for sp in d.spaces if hasattr(sp, "origin")), None)
        if heading is not None and origin is not None and not hasattr(choice, "x"):
            # a heading (a Throw's direction, a Jump off the compass points): one click 6" from
            # where the flight starts, along it, as a player points (the pixel turns it a little)
            import math

            from game.render import overlays as ov
            hx = origin[0] + 152.4 * math.cos(math.radians(heading))
            hy = origin[1] + 152.4 * math.sin(math.radians(heading))
            sx, sy = ov.mm_to_screen(sc.state.cam, hx, hy)
            self.click((round(sx) + sc.state.table_rect.x, round(sy) + sc.state.table_rect.y))
            self.shot(f"heading-{type(choice).__name__}")
            return
        # a point of the table: the model first, then the point (Shift for a throw at the ground)
        actor = getattr(choice, "model", None) or getattr(choice, "fighter", None)
        if actor in ctrl.pieces and ctrl.selected != actor:
            self.click(sc.pointer.screen_pos_of(actor))
        x, y = getattr(choice, "x", None), getattr(choice, "y", None)
        if x is None:
            self.say(f"no way to click {choice!r}")
            return
        from game.render import overlays as ov
        sx, sy = ov.mm_to_screen(sc.state.cam, x, y)
        pos = (round(sx) + sc.state.table_rect.x, round(sy) + sc.state.table_rect.y)
        alternate = not isinstance(choice, MoveTo)
        if actor in ctrl.pieces and not alternate:
            # as a player reads the preview: a pixel rounds the point a little, which may take it
            # out of the allowance or onto a fence; click where the preview says yes, the pixel
            # of the point or, if it does not, move a pixel or two round it until it does
            first = pos
            for dx, dy in [(0, 0)] + [(i, j) for r in (1, 2, 3) for i in range(-r, r + 1) for j in range(-r, r + 1)
                                      if max(abs(i), abs(j)) == r]:
                cand = (first[0] + dx, first[1] + dy)
                pv = ctrl.preview(*mm(sc.state, cand))
                if pv is None or pv.legal:
                    pos = cand
                    break
        self.move(pos)
        time.sleep(0.3)
        if self.rng.random() < 0.15:
            self.shot("route-preview")
        self.click(pos, shift=alternate and any(not isinstance(s, MoveSpace) for s in ctrl.spaces_for(actor)))
        self.last_click = (pos, mm(sc.state, pos), sc.state.ctrl.click_table(*mm(sc.state, pos)) if sc.state.ctrl is not None else None)


    def place(self, sc, choice) -> bool:
        """A deployment: drag the model out of the tray onto its spot, or click the spot with the
        model picked up (the first still to place); Q first, now and then, where it has a facing."""
        from game.render import overlays as ov
        sx, sy = ov.mm_to_screen(sc.state.cam, choice.x, choice.y)
        pos = (round(sx) + sc.state.table_rect.x, round(sy) + sc.state.table_rect.y)
        for dx, dy in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (2, 0), (-2, 0), (0, 2), (0, -2)]:
            cand = (pos[0] + dx, pos[1] + dy)
            sp = next((s for s in sc.state.decision.spaces if getattr(s, "actor", None) == choice.model), None)
            if sp is not None and sp.check(sp.at_point(*mm(sc.state, cand))[0]) is None:
                pos = cand
                break
        sp = sc.deploying.place_space()
        if sp is not None and sp.uses_facing and self.rng.random() < 0.3:
            self.key("q")
        chip = next((r for r, m in sc.state.deploy_tray.chips if m["id"] == choice.model), None)
        if chip is not None and self.rng.random() < 0.5:
            self.drag(chip.center, pos)
            self.kinds["deploy by drag"] = self.kinds.get("deploy by drag", 0) + 1
        else:
            if sc.state.ctrl.selected != choice.model and chip is not None:
                self.click(chip.center)
            self.move(pos)
            time.sleep(0.3)
            if self.rng.random() < 0.3:
                self.shot("deploy-ghost")
            self.click(pos)
        return True


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset", choices=sorted(HOME))
    ap.add_argument("--map")
    ap.add_argument("--hot-seat", action="store_true")
    ap.add_argument("--opponent", default="ai:easy")
    ap.add_argument("--ai-v-ai", action="store_true", help="both sides ai:easy: the window plays itself")
    ap.add_argument("--deployment", default="alternate", choices=("alternate", "groups", "hidden", "automatic"))
    ap.add_argument("--turns", type=int, default=99)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    ap.add_argument("--force1", help="side 1's roster: a force file (as the force builder saves it)")
    args = ap.parse_args(argv)
    out = fresh_dir(Path(args.out or f"/tmp/window-play-{args.ruleset}"))
    with x_display(out):
        import pygame

        from engine.core.rules import get_rules
        from engine.data.maps import load_named_map
        from game.app import App
        from game.scenes.play import PlayScene
        from game.session import GameSession
        app = App((1280, 720))
        seats = {1: "human", 2: "human" if args.hot_seat else args.opponent}
        if args.ai_v_ai:
            seats = {1: "ai:easy", 2: "ai:easy"}
        mp = args.map or HOME[args.ruleset]
        rosters = ()
        if args.force1:
            import json
            rosters = (json.loads(Path(args.force1).read_text()), get_rules(args.ruleset).default_rosters(None)[1])
        session = GameSession.new(args.ruleset, load_named_map(mp), rosters, seats, args.seed,
                                  options={"deployment": args.deployment})
        app.switch(PlayScene(app, session, mp))
        driver = Driver(app, out, args.turns, args.seed)
        drive(app, driver)
        crashed = [repr(e) for e in app.crashes]
        sc = app.scene
        game = getattr(sc, "session", None) or getattr(getattr(sc, "state", None), "session", None) \
            or getattr(getattr(getattr(sc, "play", None), "state", None), "session", None)
        print(f"answered through the window, by kind: {driver.kinds}")
        print(f"decisions {len(game.game.decisions) if game else '?'}; answers the window did not take: "
              f"{driver.refused_by_window}; crashes: {crashed or 'none'}; screenshots in {out}")
        pygame.quit()
        return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
