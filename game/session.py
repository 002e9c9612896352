"""One game being played in the client: who sits where, undo, saves and the autosave.

No pygame here: the session is the client's model, driven by the scenes and the tests alike.
Every change goes through ``Game.submit`` (a refusal leaves the game exactly as it was); undo
replays the recorded decisions minus the tail, only as far back as ``Game.undo_point`` allows.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.ai import agent_names, check_agent, make_agent
from engine.core import Choice, Decision, Event, Game, GameError, Setup, replay
from engine.core.saves import save_game

from .settings import DEFAULT_OPPONENT
from .userdirs import autosave_file

HUMAN = "human"


def parse_seat(seat: str) -> str:
    """"human", or "ai:NAME" for an agent of the engine's registry (a bare NAME works too)."""
    seat = seat.strip()
    if seat == HUMAN:
        return seat
    name = seat[3:] if seat.startswith("ai:") else seat
    base = name.split(":", 1)[0]
    if base not in agent_names():
        raise ValueError(f"no agent {base!r} (available: {', '.join(agent_names())}, or 'human')")
    check_agent(name)   # its parameters too: an AgentError (a ValueError) says what is wrong
    return f"ai:{name}"


def saved_seats(client) -> dict[int, str] | None:
    """The seats a save's ``client`` part records ({1: "human", 2: "ai:easy"}), or None when it
    holds none or not that shape (a save written by ``simulate`` or by hand)."""
    saved = client.get("seats") if isinstance(client, dict) else None
    if not isinstance(saved, dict):
        return None
    try:
        seats = {int(p): parse_seat(str(v)) for p, v in saved.items() if str(p) in ("1", "2")}
    except ValueError:
        return None
    return seats if set(seats) == {1, 2} else None


def _agent(seat: str, player: int, seed: int):
    agent = make_agent(seat[3:], player, seed)
    return agent


def decision_seed(ai_seed: int, player: int, seq: int) -> int:
    """The AI's seed for one decision: its answer depends on the game and this number only,
    so a loaded save or an undone-and-replayed position gets the same answer from an agent
    that does not think by the clock (random, easy; the search agents stop on a time budget)."""
    return (ai_seed * 1_000_003 + player * 7_919 + seq * 104_729) % (2**63)


@dataclass
class Step:
    """One settled decision, for the log and the animations."""
    player: int
    choice: Choice
    events: list[Event]
    by_ai: bool


class GameSession:
    remote = False            # a seat of a network game is ``game.net.remote.RemoteSession``
    undo_asked = None         # (a network game: the other player asks to take back a decision)

    def __init__(self, game: Game, seats: dict[int, str], ai_seed: int = 0, autosave: bool = True):
        self.game = game
        self.seats = {p: parse_seat(s) for p, s in seats.items()}
        self.ai_seed = ai_seed
        self.autosave = autosave
        self.agents = {p: _agent(s, p, ai_seed ^ (p * 0x9E3779B1)) for p, s in self.seats.items() if s != HUMAN}
        for agent in self.agents.values():
            attach = getattr(agent, "attach", None)
            if attach is not None:  # agents that ask for the public static facts (table, rosters)
                attach(game.table, game.rules)
        for p, agent in self.agents.items():  # search agents sample worlds of the game in play
            bind = getattr(agent, "bind_worlds", None)
            if bind is not None:  # reads self.game when called, so undo and load need nothing more
                bind(lambda rng, p=p: self.game.sample_world(p, rng))
        self.version = 0          # bumped on every change (submit, undo, load): views re-read then
        # Whose private information the screen may show. One human: always theirs. Hot-seat: the
        # player who last confirmed a pass screen (nobody's before the first one). No human: a
        # spectator (None), who sees no hidden card.
        humans = self.humans
        self.eyes: int | None = humans[0] if len(humans) == 1 else None
        self._turn = game.state.turn

    @classmethod
    def new(cls, ruleset: str, mapfile, rosters=(), seats=None, seed: int = 1, options=None,
            autosave: bool = True) -> GameSession:
        game = Game(Setup(ruleset, mapfile, tuple(rosters), dict(options or {}), seed))
        return cls(game, seats or {1: HUMAN, 2: DEFAULT_OPPONENT}, ai_seed=seed, autosave=autosave)

    # --- who decides, who looks ---------------------------------------------------------
    def pending(self) -> Decision | None:
        return self.game.pending()

    def is_human(self, player: int | None) -> bool:
        return player is not None and self.seats.get(player) == HUMAN

    @property
    def humans(self) -> list[int]:
        return [p for p in sorted(self.seats) if self.seats[p] == HUMAN]

    def viewer(self) -> int | None:
        """Whose eyes the screen shows (``eyes``): never a player who has not taken the device."""
        return self.eyes

    def pass_due(self) -> int | None:
        """The player the device must be passed to before anything more is drawn: in hot-seat,
        the human who decides now when that is not ``eyes`` and the two players' views differ
        (hidden cards, secret choices, private log lines). Where nothing is private the eyes
        simply follow the decision, with no pass screen."""
        d = self.pending()
        if d is None or len(self.humans) < 2 or not self.is_human(d.player) or d.player == self.eyes:
            return None
        if self.hidden_differs():
            return d.player
        self.eyes = d.player
        self.version += 1                 # the screen now shows this player's table: re-read it
        return None

    def confirm_eyes(self, player: int) -> None:
        """``player`` confirmed the pass screen: the screen may now show what they may see."""
        self.eyes = player
        self.version += 1

    def ai_to_move(self) -> bool:
        d = self.pending()
        return d is not None and not self.is_human(d.player)

    def view(self, player: int | None = None) -> dict:
        return self.game.view(self.viewer() if player is None else player)

    def scoreboard(self):
        """The ruleset's scoreboard (``engine.core.Scoreboard``: the same for every player, nothing
        hidden in it), or None where the ruleset keeps no score."""
        return self.game.rules.scoreboard(self.game.state)

    def hidden_differs(self) -> bool:
        """Do the two players' views differ (hidden cards, secret choices, private log lines)?"""
        a, b = self.game.view(1), self.game.view(2)
        for v in (a, b):
            v.pop("you", None)
        return a != b

    # --- what came from elsewhere (a network game's; none here) -----------------------------
    def pump(self, wait: float = 0.0) -> int:
        return 0

    def take_steps(self) -> list[Step]:
        return []

    def take_notices(self) -> list:
        return []

    # --- changing the game --------------------------------------------------------------
    def submit(self, player: int, choice: Choice, seq: int | None = None) -> Step:
        """Answer the pending decision; a refusal raises (IllegalChoice etc.) with nothing changed."""
        events = self.game.submit(player, choice, seq)
        self.version += 1
        step = Step(player, choice, events, not self.is_human(player))
        self._maybe_autosave()
        return step

    def ai_choose(self) -> tuple[int, Choice]:
        """The agent's answer to the pending decision (it sees only its own view)."""
        d = self.pending()
        assert d is not None, "ai_choose is asked only while a decision is pending"
        agent = self.agent_for(d)
        return d.player, agent.choose(d, self.game.view(d.player))

    def agent_for(self, d: Decision):
        """The agent answering ``d``, its RNG seeded for this decision (``decision_seed``)."""
        agent = self.agents[d.player]
        agent.rng.seed(decision_seed(self.ai_seed, d.player, d.seq))
        return agent

    def undo_target(self) -> int | None:
        """How many decisions stay after one Ctrl+Z, or None when nothing may be taken back."""
        n = len(self.game.decisions)
        if n == 0:
            return None
        human = self.game.decisions[-1][0]   # who made the last decision takes it back
        if not self.is_human(human):
            return None
        if self.game.undo_point(human) >= n:
            return None
        return n - 1

    def undo(self) -> bool:
        keep = self.undo_target()
        if keep is None:
            return False
        self.game = replay(self.game.setup, self.game.decisions[:keep], table=self.game.table)
        self.version += 1
        return True

    # --- saves --------------------------------------------------------------------------
    def client_data(self) -> dict:
        """The save's client part: the seats and the AI's seed (to go on with), and the turn (for
        the launcher's Continue to say which game it takes up without replaying it)."""
        return {"seats": {str(p): s for p, s in self.seats.items()}, "ai_seed": self.ai_seed,
                "turn": getattr(self.game.state, "turn", None)}

    def save(self, path) -> None:
        save_game(self.game, path, self.client_data())

    @classmethod
    def load(cls, path, seats=None, autosave: bool = True) -> GameSession:
        """A saved game with the seats and AI seed it was saved with (``seats`` overrides them;
        a save made elsewhere has none: one human against the default opponent). Refused with
        ``DataError`` (file, field, reason) like any bad save."""
        from engine.core.saves import load_game, read_save
        from engine.data.errors import DataError

        game = load_game(path)
        client = read_save(path).client or {}
        seats_saved = client.get("seats")
        saved = seats_saved if isinstance(seats_saved, dict) else {}
        try:
            chosen = seats or {int(p): parse_seat(str(v)) for p, v in saved.items() if str(p) in ("1", "2")}
        except ValueError as err:
            raise DataError(path, [("client.seats", str(err))]) from None
        if set(chosen) != {1, 2}:
            chosen = {1: HUMAN, 2: DEFAULT_OPPONENT}
        ai_seed = client.get("ai_seed")
        if isinstance(ai_seed, bool) or not isinstance(ai_seed, int):
            ai_seed = game.setup.seed
        return cls(game, chosen, ai_seed=ai_seed, autosave=autosave)

    def _maybe_autosave(self) -> None:
        turn = self.game.state.turn
        if turn != self._turn or self.game.over:
            self._turn = turn
            if self.autosave:
                try:
                    autosave_file().parent.mkdir(parents=True, exist_ok=True)  # the client's own folder
                    save_game(self.game, autosave_file(), self.client_data())
                except (OSError, GameError):
                    pass  # a failed autosave must not end the game; the next turn tries again
