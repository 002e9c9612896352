"""The game screen's state (issue 63): every field the screen changes as it runs, in one place,
each with the part that owns it (the only module that assigns it; ``tests/test_play_state.py``
checks that with ``ast``). A dict or set field is emptied or filled in place by others where said. The parts (``game/play/*``) read what they need here and write only
their own fields; the widgets are made once by the scene and never replaced.

Owners, by module of ``game/play`` (or the scene, ``game/scenes/play.py``): ``scene`` (the
view read again: ``PlayScene.refresh``), ``answers`` (submit, undo, glides), ``ai_turns``,
``deploying``, ``options`` (the prompt and the list), ``frame`` (the layout and what is drawn
around the table), ``commands`` (settings, files, dialogs), ``keys``, ``routing`` (the pointer,
the toggles), ``source`` (a replay's position), ``state`` (the messages: ``say``, ``note``), and ``game/scenes/game_over.py`` (the players came
back to look at the table).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from game.names import named

if TYPE_CHECKING:
    from game.ui.log_panel import LogPanel


@dataclass(eq=False)
class PlayState:
    # --- made once by the scene (never replaced) -----------------------------------------------
    session: object                                    # scene: GameSession / RemoteSession (its game may change)
    source: object                                     # scene: LiveSource or RecordSource (game/play/source.py)
    renderer: object                                   # scene: the table's renderer
    presenter: object                                  # scene: the ruleset's presenter
    tray: object                                       # scene: the dice tray
    hand: object                                       # scene: the card hand
    deploy_tray: object                                # scene: the tray of models to place
    log: LogPanel                                      # scene: the log panel
    options: object                                    # scene: the options list widget
    effects: object                                    # scene: shots and floating words on the table
    hint: object                                       # scene (tests give another): HintPart
    map_name: str = ""                                 # scene
    unit: str = "in"                                   # scene: the rules' unit of length
    # --- the view, read again after every change (scene: PlayScene.refresh) ----------------------
    viewer: int | None = None                          # scene
    view: dict = field(default_factory=dict)           # scene
    pieces: list = field(default_factory=list)         # scene
    decision: object = None                            # scene
    ctrl: object = None                                # scene: the generic controller while the viewer answers
    scoreboard: object = None                          # scene
    names: dict = field(default_factory=dict)          # scene: each side's name in the header
    names_shown: object = None                         # scene: the network players' names last shown
    last_selected: str | None = None                   # pointer: kept across decisions (Esc drops it)
    actors_before: dict = field(default_factory=dict)  # pointer: who could act in each player's last decision
    seen_version: int = -1                             # scene
    shown_player: int | None = None                    # scene: whose log is shown
    # --- time, messages -----------------------------------------------------------------------
    t: float = 0.0                                     # scene: the screen's clock
    message: tuple | None = None                       # state (say, note): (text, until)
    mouse: tuple = (-1, -1)                            # routing: where the pointer was last seen
    toggles: dict = field(default_factory=lambda: {"reach": True, "sight": False, "threat": False})  # routing
    # --- answers and glides (answers) ---------------------------------------------------------
    anim: dict = field(default_factory=dict)           # answers: id -> (route points, start time, duration)
    ai_named: set = field(default_factory=set)         # answers: models the AI's last turn named
    reach_cache: dict = field(default_factory=dict)    # table_overlays (answers empties it)
    shade_cache: dict = field(default_factory=dict)    # table_overlays (answers empties it)
    ranges_cache: dict = field(default_factory=dict)   # table_overlays
    # --- the AI (ai_turns) --------------------------------------------------------------------
    ai_enabled: bool = True                            # scene: the source's (a replay answers nothing)
    think_apart: bool = True                           # ai_turns' setting: clock-bound agents in a process
    worker: object = None                              # ai_turns: the answer being thought about
    ai_wait: float = 0.0                               # ai_turns: no AI answer before this time
    ai_host: object = None                             # ai_turns: the AI's process
    ai_deaths: int = 0                                 # ai_turns: processes that died under this screen
    speed: float = 1.0                                 # commands (+ / -): the AI's speed
    # --- settings and keys --------------------------------------------------------------------
    sound: bool = True                                 # commands (M)
    prone_moves: bool = False                          # keys (P): a move ends Prone (Counterblast)
    deploy_facing: float | None = None                 # deploying (Q / E)
    game_over_seen: bool = False                       # game_over (game/scenes/game_over.py: back to the table)
    # --- the layout and the frame (frame) ------------------------------------------------------
    table_rect: object = None                          # frame
    panel_rect: object = None                          # frame
    panel_w: int = 0                                   # frame
    cam: object = None                                 # frame (the pan tool moves it)
    prompt: object = None                              # frame: the prompt's text box
    score_want: int = 0                                # frame
    score_h: int = 0                                   # frame
    fitted_for_deploy: bool = False                    # frame
    relayout_due: bool = False                         # frame
    header: str | None = None                          # frame
    memo: dict = field(default_factory=dict)           # frame: text surfaces once per content
    thinking_rect: object = None                       # frame: where "AI … thinking" was drawn
    toast_rect: object = None                          # frame: where the last message was drawn
    # --- the prompt and the list (options) ----------------------------------------------------
    last_prompt: object = None                         # options (None: fill it again)
    listed: list = field(default_factory=list)         # options: the listed options' indices
    odds_cache: dict = field(default_factory=dict)     # options

    def say(self, text: str, error: bool = False) -> None:
        """A message at the table's foot for five seconds, and a line in the log."""
        self.message = (named(text, dict(getattr(self.session, "names", None) or {})), self.t + 5.0)
        self.log.add(("refused: " if error else "") + text, "error" if error else "info")

    def note(self, text: str, seconds: float = 2.5) -> None:
        """A message at the table's foot only (a setting turned on or off: not the log's)."""
        self.message = (text, self.t + seconds)
