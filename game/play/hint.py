"""The player's hint on the game screen (issue 61, item 5): G or the Hint button asks the strongest
agent what it would do in the player's own decision, and the answer is drawn where the player
would give it: a move's route and its end, an attack's line to its target with the engine's odds,
the cards in the hand, the listed option starred (and scrolled into view), with the agent's
one-line reason in a box at the table's top right.

The agent thinks in a process of its own from the player's world only (``game/controllers/
hint.py``), on the AI seat's budget (``hard``: 0.8 s of wall time from the press): the window keeps
drawing, and a "thinking" line says for how long. The process is started as soon as the screen
shows a live game with a human seat (``get_ready``; never a replay, never a game of agents only),
and warms up on that seat's world, so that its start (2-3 s on a loaded machine) has passed
by the first press; it ends with the screen and with the game. A hint is asked only by the window's own seat in
its own decision (a controller exists: not the other side's decision, not behind a pass screen,
not the other seat's in a network game); a second press while it thinks cancels it, a press with
the hint shown hides it; it goes when the decision changes (answered, undone, another game).

An owned part (issue 63): the game screen's state holds one (``PlayState.hint``) and its parts call
it (``press``, ``get_ready`` and ``update`` each frame, ``option``, ``draw_table``, ``draw_cards``, ``draw_box``),
handing it what it needs; its state is written here only.
"""
from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass, field

import pygame

from engine.core import GameError
from engine.core.protocol import Flight
from engine.rulesets.common import MoveSpace
from engine.rulesets.deployment.choices import PlaceModel
from game.controllers.ai_process import STARTS
from game.controllers.generic import involved
from game.controllers.hint import HINT_AGENT, HintProcess, InlineHints, hint_ask, hint_warm
from game.play.options import odds_text
from game.render import overlays as ov
from game.render.text import plate

GOLD = (255, 214, 90)
STAR = "\u2605 hint: "          # the starred row's words in the options list


@dataclass(frozen=True)
class Hint:
    """The agent's answer as the screen shows it, read once when it comes."""
    key: tuple                   # the decision it answers (``HintPart.key_of``)
    choice: object
    index: int | None            # its index among the decision's options, when it is one
    words: str                   # the option's label, or the choice in the ruleset's words
    reason: str                  # the agent's one line on why
    odds: str | None = None      # an attack's odds (the engine's, as the options list gives them)
    actor: str | None = None     # the model that acts
    target: str | None = None    # an attack's target
    point: tuple | None = None   # a point of the table it answers (a move's end, a placement)
    path: list = field(default_factory=list)     # a move's route (mm), the engine's own
    flight: Flight | None = None  # a heading's flight (a Jump)
    cards: tuple = ()            # the cards it plays


def read_hint(game, decision, key, choice, reason: str, ids) -> Hint:
    """``choice`` (the agent's answer to ``decision``) as the screen shows it; ``GameError`` when
    the rules refuse it here (never shown as an answer). ``ids``: the models on the table."""
    d = decision
    game.check(d.player, choice, d.seq)
    index = next((i for i, o in enumerate(d.options) if o == choice), None)
    words = d.labels[index] if index is not None and d.labels else game.describe(choice)
    named = involved(choice, ids)
    actor = named[0] if named else None
    try:
        o = game.attack_odds(choice)
    except Exception:  # noqa: BLE001 - odds are an aid: a hint without them still stands
        o = None
    odds = odds_text(o) if o is not None else None
    target = named[1] if odds is not None and len(named) > 1 else None
    point, path, flight = None, [], None
    for sp in d.spaces:
        if not isinstance(choice, getattr(sp, "choice_type", ())) or sp.check(choice) is not None:
            continue
        actor = actor or sp.actor
        x, y = getattr(choice, "x", None), getattr(choice, "y", None)
        if isinstance(x, float) and isinstance(y, float):
            point = (x, y)
        flight = sp.flight(choice)
        if isinstance(choice, PlaceModel) and index is None:     # not "place 1-grekka at (567, 806) mm"
            words = f"place {getattr(sp, 'name', choice.model)} at the star"
        if isinstance(sp, MoveSpace):
            route = sp.route(choice)  # type: ignore[arg-type]  # of the space's choice_type (checked above)
            path = list(route[0]) if route is not None else []
        break
    cards = getattr(choice, "cards", None)
    card = getattr(choice, "card", None)
    cards = tuple(cards) if isinstance(cards, tuple) else ((card,) if isinstance(card, str) else ())
    return Hint(key, choice, index, words, reason, odds, actor, target, point, path, flight, cards)


def ahead_wanted() -> bool:
    """Whether the hint's process starts ahead of the first press (``SKIRMISH_HINT_AHEAD=0``: on
    the press, as before: the tests' default, so a test's game screen starts no process unasked)."""
    return os.environ.get("SKIRMISH_HINT_AHEAD", "1").strip() != "0"


def budget_of(agent: str) -> float | None:
    """The agent's time budget in seconds (None: it is held to a number of rounds instead)."""
    from engine.ai import check_agent
    _, params = check_agent(agent)
    return None if getattr(params, "iters", 0) else getattr(params, "budget", None)


@dataclass
class _Job:
    id: int
    key: tuple | None
    asked: float
    budget: float | None


class HintPart:
    """The hint's state and drawing (see the module's doc). ``agent``: who is asked (the tests
    give one held to a few rounds); ``apart``: think in a process (False: in this one, when asked);
    ``ahead``: start the process before the first press (None: ``ahead_wanted()``)."""

    def __init__(self, agent: str = HINT_AGENT, apart: bool = True, ahead: bool | None = None):
        self.agent = agent
        self.apart = apart
        self.ahead = ahead_wanted() if ahead is None else ahead
        self.thinker: HintProcess | InlineHints | None = None   # ahead of the first press, or on it
        self.setup = None                 # the setup the thinker was started for (another game: another)
        self.starts = 0                   # thinkers started under this screen
        self.job: _Job | None = None      # the question being thought about
        self.shown: Hint | None = None    # the answer on the screen
        self.failed: tuple | None = None  # (key, why) when the asked decision got no hint
        self.asked = 0                    # questions asked (a job's number)
        self.marks: list = []             # where the hint was drawn on the table (its box keeps clear)

    @staticmethod
    def key_of(session, decision) -> tuple | None:
        """What a hint answers: this game (undo and load replace it), the decision's number, its
        player."""
        return None if decision is None else (id(session.game), decision.seq, decision.player)

    # --- asked, thought, read --------------------------------------------------------------
    def press(self, session, decision, answering: bool) -> str:
        """G or the Hint button. Returns the words to tell the player ("" when the box says it)."""
        if self.job is not None:
            self.job = None                       # its answer is dropped when it comes
            return "hint cancelled (G asks again)"
        key = self.key_of(session, decision)
        if self.shown is not None and self.shown.key == key:
            self.shown = None
            return "hint hidden (G asks again)"
        if not answering:
            return "a hint is for your own decision, when it is yours to answer here"
        self.asked += 1
        self.failed = None
        try:
            thinker = self._thinker_for(session.game)
            ask = hint_ask(session, self.asked, self.agent)
        except Exception as err:  # noqa: BLE001 - a hint is an aid: the game goes on without one
            self.thinker = None
            return f"no hint: {type(err).__name__}: {err}"
        self.job = _Job(self.asked, key, ask.asked, budget_of(self.agent))
        thinker.ask(ask)
        return ""

    def _thinker_for(self, game) -> HintProcess | InlineHints:
        """The thinker for ``game``'s setup, started if there is none alive (another setup: a
        loaded game, a new network host's game, gets a new one)."""
        if self.thinker is not None and (self.setup is not game.setup or not self.thinker.alive):
            self.close()
        if self.thinker is None:
            self.starts += 1
            self.thinker = HintProcess(game.setup) if self.apart else InlineHints(game.setup, game.table)
            self.setup = game.setup
        return self.thinker

    def get_ready(self, session, live: bool, busy: bool = False) -> None:
        """Each frame: start the process ahead of the first press when this screen may ask a hint
        (``live``: the seats answer here, not a replay's record; a human seat; the game not over),
        warmed up on the world of the seat likely to ask (the eyes shown; that seat's world only).
        Not while an agent's thread asks the table (``busy``); a process that keeps dying is not
        started again (``STARTS``)."""
        g = session.game
        asker = _asker(session) if live and g is not None and not g.over else None
        if asker is None:                         # (a game over: ``update`` ends its process)
            return
        if self.thinker is not None and self.thinker.alive and self.setup is g.setup:
            self.thinker.pump()                   # its "ready" word
            return
        if not (self.ahead and self.apart) or busy or self.job is not None or self.starts >= STARTS \
                or session.pending() is None:
            return
        try:
            self._thinker_for(g).warm(hint_warm(session, asker, self.agent))
        except Exception:  # noqa: BLE001 - a hint is an aid: the first press starts it again and says why
            self.close()

    def update(self, session, decision, answering: bool, pieces=(), busy: bool = False) -> bool:
        """Each frame: a hint or a question of a decision no longer this player's to answer is
        dropped (and the process ended once the game is over); an answer that came is read (not
        while an agent's thread asks the table: ``busy``; ``pieces``: the view's). True when what
        is shown changed (the list follows)."""
        key = self.key_of(session, decision) if answering else None
        changed = False
        if self.thinker is not None and getattr(session.game, "over", False):
            self.close()                           # the game is over: nobody asks any more
        if self.shown is not None and self.shown.key != key:
            self.shown, changed = None, True
        if self.failed is not None and self.failed[0] != key:
            self.failed = None
        if self.job is not None and self.job.key != key:
            self.job = None
        if self.job is None or busy:
            return changed
        got = self.thinker.answer(self.job.id)  # type: ignore[union-attr]  # a job has a thinker
        if got is None:
            return changed
        self.job = None
        if got.error:
            self.failed = (key, got.error)
            return changed
        try:
            self.shown = read_hint(session.game, decision, key, got.choice, got.reason, {p["id"] for p in pieces})
        except GameError as err:                   # never drawn as an answer
            self.failed = (key, f"the rules refused the agent's answer: {str(err).splitlines()[0]}")
        return True

    def option(self, key) -> int | None:
        """The option the hint shown for decision ``key`` stars in the list (None: none)."""
        h = self.shown
        return h.index if h is not None and h.key == key else None

    def thinking_text(self) -> str:
        job = self.job
        ready = getattr(self.thinker, "ready_at", None)
        name = self.agent.split(":", 1)[0]
        if ready is None:
            return f"Hint: {name} is getting ready (its process starts once)"
        spent = max(0.0, time.monotonic() - max(job.asked, ready))  # type: ignore[union-attr]  # drawn only while a job is out (draw_box)
        of = f" of {job.budget:.1f}" if job.budget else ""  # type: ignore[union-attr]
        return f"Hint: {name} thinking, {spent:.1f}{of} s (G again: cancel)"

    def close(self) -> None:
        if self.thinker is not None:
            self.thinker.close()
            self.thinker = None
        self.setup = None
        self.job = None

    # --- drawn ------------------------------------------------------------------------------
    def lines(self) -> list[str]:
        """The box's words: what, why, the odds."""
        h = self.shown
        name = self.agent.split(":", 1)[0]
        if h is None:
            return [f"Hint ({name}): none", self.failed[1]] if self.failed is not None else []
        out = [f"\u2605 Hint ({name} agent)", h.words,
               f"Why: {h.reason or 'the agent gives no words for this kind of choice'}"]
        if h.odds:
            out.append(f"Odds: {h.odds}")
        out.append("from what you can see, nothing more; G again: hide")
        return out

    def draw_box(self, screen, table_rect: pygame.Rect, top: int) -> pygame.Rect | None:
        """The thinking line, or the hint's words, at the table's top right from ``top`` (its top left
        when the top right would hide the hint's marks on the table)."""
        if self.job is not None:
            lab = plate(self.thinking_text(), 16, fg=GOLD)
        elif self.shown is not None or self.failed is not None:
            lab = ov.note_box(self.lines(), max(200, min(380, table_rect.w // 2 - 20)))
        else:
            return None
        marks = [(x + table_rect.x, y + table_rect.y) for x, y in self.marks]
        spots = [lab.get_rect(topright=(table_rect.right - 10, top)), lab.get_rect(topleft=(table_rect.x + 10, top))]
        # the top left when the top right would hide what the hint marks on the table
        at = min(spots, key=lambda r: sum(r.inflate(24, 24).collidepoint(m) for m in marks))
        return screen.blit(lab, at)

    def draw_table(self, surf, cam, pieces, pos, unit: str) -> None:
        """The answer on the table (``surf``, the table's own): a route and its end, a point, a
        heading's flight, an attack's line to its target, or the model whose option it is."""
        h = self.shown
        self.marks = []
        if h is None:
            return
        by_id = {p["id"]: p for p in pieces}

        def centre(mid):
            p = by_id.get(mid)
            return None if p is None else ov.mm_to_screen(cam, *pos.get(mid, (p["x"], p["y"])))

        def ring(mid, width=3):
            c = centre(mid)
            if c is not None:
                r = by_id[mid]["radius"] * cam.px_per_mm + 7
                pygame.draw.circle(surf, (20, 16, 10), (c[0] + 1, c[1] + 1), r, width + 1)
                pygame.draw.circle(surf, GOLD, c, r, width)
            return c

        at, left = None, False                   # left: the label on the star's left
        a = ring(h.actor) if h.actor else None
        if h.flight is not None:
            ov.draw_flight(surf, cam, h.flight, True, unit)
            far = math.radians(h.flight.heading)
            at = ov.mm_to_screen(cam, h.flight.origin[0] + math.cos(far) * h.flight.far,
                                 h.flight.origin[1] + math.sin(far) * h.flight.far)
        elif len(h.path) >= 2:
            ov.draw_path(surf, cam, h.path, True, colour=GOLD)
            at = ov.mm_to_screen(cam, *h.path[-1])
        elif h.point is not None:
            at = ov.mm_to_screen(cam, *h.point)
            if a is not None:
                ov.draw_dashed(surf, GOLD, a, at)
        elif h.target is not None and a is not None:
            t = ring(h.target, 2)
            if t is not None:
                rt = by_id[h.target]["radius"] * cam.px_per_mm
                _arrow(surf, a, t, rt + 9)
                d = math.dist(a, t)
                if d > rt + by_id[h.actor]["radius"] * cam.px_per_mm + 60:
                    at = ((a[0] + t[0]) / 2, (a[1] + t[1]) / 2)     # on the arrow, clear of both
                else:    # models in reach of each other: the mark beyond the target, not over them
                    ux, uy = ((t[0] - a[0]) / d, (t[1] - a[1]) / d) if d > 0 else (1.0, 0.0)
                    at, left = (t[0] + ux * (rt + 22), t[1] + uy * (rt + 22)), ux < -0.3
        elif a is not None:
            r = by_id[h.actor]["radius"] * cam.px_per_mm
            at = (a[0] + r * 0.8 + 6, a[1] - r * 0.8 - 6)
        self.marks = [c for c in (a, at, centre(h.target) if h.target else None) if c is not None]
        if at is None:
            return
        ov.draw_star(surf, at)
        words = "hint" + (f": {h.odds}" if h.target is not None and h.odds else "")
        lab = plate(words, 14, fg=(30, 24, 10), bg=(*GOLD, 225), bold=True)
        rect = lab.get_rect(midright=(at[0] - 14, at[1])) if left else lab.get_rect(midleft=(at[0] + 14, at[1]))
        rect.clamp_ip(surf.get_rect())
        surf.blit(lab, rect)

    def draw_cards(self, screen, card_rects) -> None:
        """The hint's cards outlined in the hand (``card_rects``: the hand's (code, rect) as drawn)."""
        h = self.shown
        if h is None or not h.cards:
            return
        for code, r in card_rects:
            if code in h.cards:
                pygame.draw.rect(screen, (20, 16, 10), r.inflate(10, 10), 6, border_radius=9)
                pygame.draw.rect(screen, GOLD, r.inflate(8, 8), 4, border_radius=9)
                tag = plate("\u2605 hint", 14, fg=(30, 24, 10), bg=(*GOLD, 235), bold=True)
                screen.blit(tag, tag.get_rect(midbottom=(r.centerx, r.top - 5)))


def _asker(session) -> int | None:
    """The human seat whose hint this window would ask first: the eyes shown, else the one who
    decides now, else the first human seat (None: no human seat, nobody asks)."""
    v = session.viewer()
    if session.is_human(v):
        return v
    d = session.pending()
    if d is not None and session.is_human(d.player):
        return d.player
    return next((p for p in (1, 2) if session.is_human(p)), None)


def _arrow(surf, a, b, stop: float) -> None:
    """A gold arrow from ``a`` to ``stop`` pixels short of ``b`` (an attack's line to its target)."""
    d = math.dist(a, b)
    if d <= stop + 4:
        return
    ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
    tip = (b[0] - ux * stop, b[1] - uy * stop)
    pygame.draw.line(surf, (20, 16, 10), (a[0] + 1, a[1] + 2), (tip[0] + 1, tip[1] + 2), 6)
    pygame.draw.line(surf, GOLD, a, tip, 4)
    px, py = -uy, ux
    head = [(tip[0] + ux * 4, tip[1] + uy * 4), (tip[0] - ux * 12 + px * 8, tip[1] - uy * 12 + py * 8),
            (tip[0] - ux * 12 - px * 8, tip[1] - uy * 12 - py * 8)]
    pygame.draw.polygon(surf, GOLD, head)
    pygame.draw.polygon(surf, (20, 16, 10), head, 2)
