"""Every ruleset's words for its choices (``describe_choice``), recorded before the three
if/isinstance ladders became dispatch tables (issue 63, 2026-12-07) and compared after: the
same seeded games must word every option byte for byte as they did.

Seeded games of each ruleset on its home map, one per mission and the plain game, with random
and easy agents in both seats, word every option of their first decisions and the answer
given (a point on the table is an answer, not an option). Each option of a type seen is
worded once more with each name field pointing at no model, so the fallbacks (``c.describe()``,
an unknown name) are recorded too. The words are hashed per choice type: a mismatch names the
type whose words changed. Recorded on main at 65bd6e9.
"""
from __future__ import annotations

import dataclasses
import hashlib

import pytest

from engine.ai import make_agent
from engine.core import Game, Setup
from engine.core.rules import get_rules
from engine.data.maps import load_map
from engine.paths import resolve_map

DECISIONS = 400           # per game
AGENTS = ("random", "easy")

# ruleset -> choice type -> (how many words, the first 16 hex digits of their sha256)
RECORDED = {
    'counterblast': {
        'ActivateGroup': (11720, '56744aa4488177ea'), 'ActivateSingle': (2437, 'f8b1c06eea074288'),
        'Aim': (853, '862669985748edb2'), 'AimAssist': (23, '8d8c23ab51c5da87'), 'Boost': (8, '646f37262fdeae53'),
        'DoNothing': (1897, '7d5c305706af72d8'), 'ElectLeader': (305, '791f1949e862fb72'),
        'EndActivation': (1199, '6f6870bf9e75a725'), 'GoProne': (735, 'fe2f3480d052fb44'),
        'GroupAction': (1668, '31fb5930ffd05ab1'), 'HackDoor': (9, '5a6cd5baa064fa4e'),
        'HackMark': (120, '663518bff68d7e78'), 'HackTerminal': (10, 'e244b02621f3c69a'),
        'Jump': (3810, '33dfcae83bc3d5c7'), 'KeepLeader': (148, '51dc2a3a28ead857'),
        'MoveProne': (36, 'b9bd6204f5513a0f'), 'MoveTo': (495, '04813d84ad8d5bd4'),
        'NoReaction': (263, '0a5769100de8284d'), 'PassTurn': (363, '85f1fd79088540dd'),
        'PsiCraft': (360, '5971f059a1287e8e'), 'PsiStrike': (197, '301f7580ec22647c'),
        'Rally': (25, '8ecbee96b06d4dd3'), 'React': (463, 'cef7b9e5366f271f'), 'Recover': (83, '96de8209a69f9a59'),
        'ReduceDread': (39, '0f384ceeff8a9329'), 'Rush': (369, '3774bf0342573860'),
        'Shoot': (882, '535ef3abb9bba479'), 'SplitShoot': (1499, '7f20cd22921e4859'),
        'StandUp': (133, '48e1c206b2a8aca5'), 'Stay': (108, 'd109cc944ac632b1'), 'Treat': (32, '90ceed6e5d701cfe'),
    },
    'doubles': {
        'Announce': (642, '3892537583dd4268'), 'ChooseEffect': (329, '9183591a96433214'),
        'EndActivation': (819, 'b7cdd08df140d819'), 'Face': (10, '4a66d4ba6c2d1541'),
        'KeepDice': (1053, '3bc9965721b340c3'), 'MeleeAttack': (30, '2db661e7e5ca6211'),
        'MoveTo': (321, 'f0324220475180f6'), 'RerollDie': (57, 'da5e8b89ed3ecbfd'),
        'Shoot': (238, '9e62df8a560a957f'), 'ShootAt': (130, 'c22daf4c4c2126e2'), 'StandUp': (5, '47e103b052073fed'),
        'TakeRelic': (6, '522cf15b5957a867'),
    },
    'frontier': {
        'Commit': (2505, 'ae084a6ceb76970e'), 'Drink': (6, '39c14a2425e24627'), 'Fight': (47, '81d36d76022498a2'),
        'Hold': (2367, 'f3f30679f364dbe4'), 'KeepLast': (282, 'a5cfa0fb57db5c00'),
        'LayDown': (2617, 'eb7bd1419d6237d9'), 'MoveTo': (2609, '914b8d1dab5c0825'),
        'Pass': (338, 'd6403e32c13f17df'), 'Shoot': (1204, '14449bf1f1c260e8'),
    },
}


def _word(rules, st, c) -> str:
    try:
        return rules.describe_choice(st, c)
    except Exception as err:  # noqa: BLE001 - a fallback that raises is recorded as such
        return f"!{type(err).__name__}"


def _strays(c):
    """``c`` with each text field in turn naming nothing on the table."""
    for f in dataclasses.fields(c):
        if isinstance(getattr(c, f.name), str):
            yield dataclasses.replace(c, **{f.name: "nobody-here"})


def recorded_words(ruleset: str) -> dict[str, tuple[int, str]]:
    rules_cls = get_rules(ruleset)
    mapfile = load_map(resolve_map(rules_cls.home_map))
    words: dict[str, list[str]] = {}
    strayed: set[str] = set()

    def note(rules, st, c):
        name = type(c).__name__
        words.setdefault(name, []).append(_word(rules, st, c))
        if name not in strayed:
            strayed.add(name)
            words[name] += [_word(rules, st, s) for s in _strays(c)]

    for mission in [None, *sorted(rules_cls.missions())]:
        for agent in AGENTS:
            options = {"deployment": "automatic"} | ({"mission": mission} if mission else {})
            g = Game(Setup(ruleset, mapfile, (), options, 11))
            agents = {p: make_agent(agent, p, 11 * 7 + p) for p in (1, 2)}
            for a in agents.values():
                a.attach(g.table, g.rules)
            for _ in range(DECISIONS):
                d = g.pending()
                if d is None:
                    break
                for o in d.options:
                    note(g.rules, g.state, o)
                a = agents[d.player]
                answer = a.choose(d, g.view(d.player, drawing=False) if getattr(a, "reads_view", True) else None)
                note(g.rules, g.state, answer)
                g.submit(d.player, answer)
    return {name: (len(ws), hashlib.sha256("\n".join(ws).encode()).hexdigest()[:16])
            for name, ws in sorted(words.items())}


@pytest.mark.parametrize("ruleset", ["counterblast", "doubles", "frontier"])
def test_every_option_is_worded_as_recorded(ruleset):
    got = recorded_words(ruleset)
    assert len(got) >= 8      # the games reach most of the ruleset's choice types
    assert got == RECORDED[ruleset]


if __name__ == "__main__":    # prints the table to record (run on the commit named above)
    for rs in ("counterblast", "doubles", "frontier"):
        print(f"    {rs!r}: {recorded_words(rs)!r},")
