"""A roster is a shipped id or a roster object: each ruleset refuses an unknown id (naming the ids
there are), an object that does not read (naming the field) and any other type, in its own words
(``engine.rulesets.common.roster_of`` holds the one check the three rulesets share)."""
from __future__ import annotations

import pytest
from ai_fixtures import HOME

from engine.core import Game, Setup
from engine.core.errors import SetupError
from engine.data.maps import load_map
from engine.paths import resolve_map

# ruleset: (a good shipped id, the refusal of 'nope' up to the ids listed, of a bad object, of a number)
WORDS = {
    "counterblast": ("dustjaw-raiders", "no crew 'nope' (shipped: ", "roster 1", "roster 1: a crew id or a crew object, not int"),
    "doubles": ("ash_skulls", "player 1: no warband 'nope' (bundled: ", "<roster of player 1>",
                "player 1: a roster is a warband id or a warband object, not int"),
    "frontier": ("bootleggers", "player 1: no posse 'nope' (shipped: ", "player 1: the posse is refused: ",
                 "player 1: a roster is a faction id or a posse object, not int"),
}


def _refusal(ruleset: str, roster) -> str:
    good = WORDS[ruleset][0]
    with pytest.raises(SetupError) as err:
        Game(Setup(ruleset, load_map(resolve_map(HOME[ruleset])), (roster, good), {"deployment": "automatic"}, 1))
    return str(err.value)


@pytest.mark.parametrize("ruleset", sorted(WORDS))
def test_a_roster_that_is_not_one_is_refused_in_the_rulesets_words(ruleset):
    good, unknown, bad_object, other = WORDS[ruleset]
    said = _refusal(ruleset, "nope")
    assert said.startswith(unknown) and good in said and said.endswith(")")
    said = _refusal(ruleset, {"schema_version": 1, "name": 7})
    assert said.startswith(bad_object) and "name" in said
    assert _refusal(ruleset, 12) == other
