"""Counterblast's choices in words: one describer per choice type in ``CHOICE_WORDS``, a table
built once (``engine.core.choice_words``); ``WordsRules.describe_choice`` asks it. A describer
takes the rules, the state and the choice. A Shoot's and a Strike's words quote their odds
(``WordsRules._describe_shot`` / ``_describe_strike``), a move's its distance; the others name
models, weapons and pieces only.
"""
from __future__ import annotations

import math

from engine.core.choice_words import ChoiceWords
from engine.rulesets.common import MoveTo

from .. import actions as act_mod
from .. import choices as C
from .common import MM

_COMPASS = {0: "east", 45: "north-east", 90: "north", 135: "north-west", 180: "west", 225: "south-west",
            270: "south", 315: "south-east"}


def _heading_words(heading) -> str:
    """'north (90°)' for a compass heading (the table's +y is north), else the heading in whole
    degrees ('316°' for 315.59: a player reads a direction, not hundredths; issue 58)."""
    h = float(heading)
    name = _COMPASS.get(int(h)) if h.is_integer() else None
    return f"{name} ({h:g}°)" if name else f"{round(h) % 360}°"


def _moves(r, st, c) -> str:
    m = st.models.get(c.model)
    d = math.hypot(c.x - m.x, c.y - m.y) / MM if m else 0
    return f"{r.names.get(c.model)} moves {d:.1f}\""


def _split(kind: str):
    def words(r, st, c) -> str:
        N = r.names.get
        return (f"{N(c.model)} splits {sum(c.dice)} dice with the {r._wname(kind, c.weapon)} between "
                + " and ".join(f"{N(t)} ({d})" for t, d in zip(c.targets, c.dice)))
    return words


def _react(r, st, c) -> str:
    N = r.names.get
    kind = "shoot" if c.reaction in ("return_fire", "snapshot") else "strike"
    w = f" with the {r._wname(kind, c.weapon)}" if c.weapon else ""
    return f"{N(c.model)}: {act_mod.ACTIONS[c.reaction].name}{w} ({r.opt.reaction_cost} Moxie)"


def _model_does(what: str):
    """'Vex Aims': the model's name and a fixed phrase."""
    return lambda r, st, c: f"{r.names.get(c.model)} {what}"


def _channels(r, st, c) -> str:     # PsiStrike, PsiCraft
    return f"{r.names.get(c.model)} channels {r.enigma(c.model, c.enigma).name} at {r.names.get(c.target)}"


def _on_target(r, st, c) -> str:     # Treat, Engineer
    return f"{r.names.get(c.model)} uses {type(c).__name__} on {r.names.get(c.target)} (Knack/7)"


CHOICE_WORDS = ChoiceWords({
    C.KeepLeader: lambda r, st, c: "keep the leader",
    C.ElectLeader: lambda r, st, c: f"elect {r.names.get(c.model)} as leader ({r.opt.leader_election_cost} Moxie)",
    C.ActivateSingle: lambda r, st, c: f"activate {r.names.get(c.model)} ({r.opt.single_activation_cost} Moxie)",
    C.ActivateGroup: lambda r, st, c: (f"activate the group {', '.join(r.names.get(i) for i in c.models)} "
                                     f"({r.opt.group_activation_cost} Moxie)"),
    C.PassTurn: lambda r, st, c: "pass the turn",
    C.EndActivation: lambda r, st, c: "end the activation",
    C.GroupAction: lambda r, st, c: f"the group uses {act_mod.ACTIONS[c.action].name}",
    MoveTo: _moves,
    C.MoveProne: lambda r, st, c: _moves(r, st, c) + " and drops Prone",
    C.Shoot: lambda r, st, c: r._describe_shot(st, c.model, c.weapon, c.target),
    C.SplitShoot: _split("shoot"),
    C.SplitStrike: _split("strike"),
    C.Strike: lambda r, st, c: r._describe_strike(st, c.model, c.weapon, c.target),
    C.MoveD5: _model_does("moves a d5 (Half-blind)"),
    C.Jump: lambda r, st, c: f"{r.names.get(c.model)} jumps a d5 toward {_heading_words(c.heading)}",
    C.Throw: lambda r, st, c: (f"{r.names.get(c.model)} throws {r.names.get(c.target)} "
                             "(Grit; the direction is chosen after a success)"),
    C.ThrowDirection: lambda r, st, c: (f"{r.names.get(c.model)} sends {r.names.get(c.target)} "
                                      f"toward {_heading_words(c.heading)}"),
    C.React: _react,
    C.NoReaction: lambda r, st, c: "no reaction",
    C.ReduceDread: lambda r, st, c: f"spend {c.moxie} Moxie to reduce Dread by {c.moxie}",
    C.GoProne: _model_does("drops Prone"),
    C.StandUp: _model_does("stands up"),
    C.Rush: _model_does("Rushes (d10)"),
    C.Stay: _model_does("stays put"),
    C.Aim: _model_does("Aims"),
    C.Recover: _model_does("Recovers"),
    C.Rally: _model_does("Rallies (Knack/7)"),
    C.DoNothing: _model_does("does nothing"),
    C.Treat: _on_target,
    C.Engineer: _on_target,
    C.HackMark: lambda r, st, c: f"{r.names.get(c.model)} hacks {r.names.get(c.target)} with a scanner to Mark it (Knack/7)",
    C.HackTerminal: lambda r, st, c: f"{r.names.get(c.model)} hacks the terminal {c.marker} (Knack/7)",
    C.HackDoor: lambda r, st, c: f"{r.names.get(c.model)} hacks the {r.table.piece(c.door).label} open (Knack/7)",
    C.PsiStrike: _channels,
    C.PsiCraft: _channels,
    C.AimAssist: lambda r, st, c: f"{r.names.get(c.model)} Aim-Assists {r.names.get(c.friend)} (+1D Zap)",
    C.Boost: lambda r, st, c: f"{r.names.get(c.model)} Boosts {r.names.get(c.friend)} (+1D Knack)",
    C.DogPile: lambda r, st, c: f"{r.names.get(c.model)} Dog-piles {r.names.get(c.target)} (+1D to the next Strike on it)",
})
