"""Headless engine core: the decision protocol, the seeded RNG, replays and saves."""
from .errors import (
                     EngineBug,
                     GameError,
                     GameOver,
                     IllegalChoice,
                     NotYourDecision,
                     SetupError,
                     StaleDecision,
                     UnknownRuleset,
)
from .game import Game, Setup, replay
from .odds import AttackOdds
from .protocol import Choice, ChoiceSpace, Decision, Event, Result
from .rng import GameRng
from .rules import Rules, available, get_rules, register
from .setup_info import MissionInfo, Scoreboard, ScoreLine
from .state import State, state_hash

__all__ = [
    "AttackOdds", "Choice", "ChoiceSpace", "Decision", "EngineBug", "Event", "Game", "GameError", "GameOver",
    "GameRng", "IllegalChoice", "MissionInfo", "NotYourDecision", "Result", "Rules", "Scoreboard", "ScoreLine", "SetupError", "Setup",
    "StaleDecision", "State", "UnknownRuleset", "available", "get_rules", "register", "replay",
    "state_hash",
]
