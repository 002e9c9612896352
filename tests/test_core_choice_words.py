"""``engine.core.choice_words.ChoiceWords``: a choice worded by its type's describer, a subclass
by its nearest base's unless it has its own, any other by its own ``describe()``."""
from __future__ import annotations

from dataclasses import dataclass

from engine.core import Choice
from engine.core.choice_words import ChoiceWords
from engine.rulesets.common import MoveTo
from engine.rulesets.counterblast.choices import MoveProne


@dataclass(frozen=True)
class _Unworded(Choice):
    tag = "test.ChoiceWordsUnworded"
    n: int = 3


def test_a_choice_is_worded_by_its_type_its_nearest_base_or_itself():
    words = ChoiceWords({MoveTo: lambda r, st, c: f"{r} moves {c.model} in {st}"})
    assert words("rules", "state", MoveTo("a", 1.0, 2.0)) == "rules moves a in state"
    assert words("rules", "state", MoveProne("b", 1.0, 2.0)) == "rules moves b in state"   # a MoveTo
    assert words(None, None, _Unworded()) == _Unworded().describe()
    assert words.describer(_Unworded) is None


def test_a_subclass_with_its_own_describer_takes_it():
    words = ChoiceWords({MoveTo: lambda r, st, c: "move", MoveProne: lambda r, st, c: "move, prone"})
    assert words(None, None, MoveProne("b", 1.0, 2.0)) == "move, prone"
    assert words(None, None, MoveTo("b", 1.0, 2.0)) == "move"


def test_each_ruleset_words_each_of_its_choice_types_by_its_table():
    """No choice type a ruleset offers is left to the fallback (a type added without words)."""
    import engine.rulesets.counterblast.choices as cb
    import engine.rulesets.doubles.choices as db
    import engine.rulesets.frontier.choices as fr
    from engine.rulesets.counterblast.flow.choice_words import CHOICE_WORDS as CB
    from engine.rulesets.doubles.choice_words import CHOICE_WORDS as DB
    from engine.rulesets.frontier.choice_words import CHOICE_WORDS as FR
    for module, words in ((cb, CB), (db, DB), (fr, FR)):
        kinds = [v for v in vars(module).values()
                 if isinstance(v, type) and issubclass(v, Choice) and v.__module__ == module.__name__]
        assert kinds and [k.__name__ for k in kinds if words.describer(k) is None] == []
