"""What drives the game screen (issue 63: a replay is a source, not a subclass of the screen).

- ``LiveSource``: the session's seats: the humans answer here, the AI thinks, the hot-seat flow
  pushes the pass and game-over screens.
- ``RecordSource``: a recorded setup and decisions, stepped through on a timeline
  (``game/play/timeline.py``): nothing is answered, no AI runs, no pass screen. Any position is
  the state ``replay(setup, decisions[:k])`` gives (from the nearest kept snapshot; tested by hash).

A source names the sides (its seats) and says what the screen may do with it.
"""
from __future__ import annotations

from engine.core import Game, replay
from game.session import GameSession
from game.ui.sides import side_names, side_title

SNAPSHOT_EVERY = 25


class LiveSource:
    """The game in play, on the session's seats."""

    answers = True                       # the seats answer (a human here, the AI)
    flows = True                         # the pass and game-over screens come as the game goes
    waiting_words = "is thinking"        # the side to decide, no answer offered here

    def __init__(self, session):
        self.session = session

    def player_names(self) -> dict[int, str]:
        """The names the players gave (a network game: ``RemoteSession.names``), else none."""
        return dict(getattr(self.session, "names", None) or {})

    def side_names(self) -> dict[int, str]:
        return side_names(self.session.game.view(None), self.session.seats, self.player_names())

    def side_titles(self) -> dict[int, str]:
        """Each side's title (its number, roster and who plays it): the score panel's."""
        return {p: side_title(self.session.game, p, self.session.seats, self.player_names()) for p in (1, 2)}

    def timeline(self, state, answering, refresh, go_to):
        return None                      # the live game has no timeline


class RecordSource(LiveSource):
    """A saved game, or the game in play, at decision ``k`` of its record. ``seats``: who sat where
    as the game was played (a save's ``client.seats``, the session's for the history), for the
    names; None if not known (sides by number). ``back``: the screen to return to (a game's
    history: Esc or H goes back to it), None for a save's replay."""

    answers = False
    flows = False
    waiting_words = "to decide"          # nobody thinks in a replay: the record answers

    def __init__(self, setup, decisions, eyes: int | None = None, back=None, at: int | None = None,
                 seats: dict[int, str] | None = None):
        self.setup, self.record = setup, list(decisions)
        self.played_seats = dict(seats or {})
        self.back = back
        self.at = len(self.record) if at is None else at     # where the timeline starts
        game = replay(setup, [])
        self.snapshots: dict[int, Game] = {0: game.clone()}
        self._turns: list[int] | None = None
        session = GameSession(game, {1: "ai:random", 2: "ai:random"}, autosave=False)
        session.eyes = eyes
        super().__init__(session)

    def player_names(self) -> dict[int, str]:
        return {}

    def side_names(self) -> dict[int, str]:
        # the session's seats are a stand-in that answers nothing: name the seats as played
        return side_names(self.session.game.view(None), self.played_seats)

    def side_titles(self) -> dict[int, str]:
        return {p: side_title(self.session.game, p, self.played_seats) for p in (1, 2)}

    def game_at(self, k: int) -> Game:
        """The game after the record's first k decisions (from the nearest snapshot)."""
        k = max(0, min(len(self.record), k))
        base = max(i for i in self.snapshots if i <= k)
        g = self.snapshots[base].clone()
        for i in range(base, k):
            player, choice = self.record[i]
            g.submit(player, choice)
            if (i + 1) % SNAPSHOT_EVERY == 0 and (i + 1) not in self.snapshots:
                self.snapshots[i + 1] = g.clone()
        return g

    def turn_starts(self) -> list[int]:
        """The record's indices where a turn begins (for PageUp/PageDown)."""
        if self._turns is None:
            g, out, last = self.game_at(0), [0], None
            for i, (p, c) in enumerate(self.record):
                t = g.state.turn
                if last is not None and t != last:
                    out.append(i)
                last = t
                g.submit(p, c)
            self._turns = out
        return self._turns

    def timeline(self, state, answering, refresh, go_to):
        from game.play.timeline import Timeline
        return Timeline(self, state, answering, refresh, go_to)
