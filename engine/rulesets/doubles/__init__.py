"""Doubles: the d6 duel skirmish of ``004_664065b4c29fdc82.txt`` (the document has no title).

Phase 1 holds the ruleset's self-contained mechanics, which the state machine calls:

- ``duel``: attack and defence pools, keeps, doubles and their effects, rerolls, the outcome;
- ``damage``: the damage table, armour, weapon breakage;
- ``shooting``: range bands, who may shoot, shooting into a melee, back shots, modifiers, sight;
- ``turn``: the whole-game interpretations (initiative track, action points, movement,
  engagement, victory);
- ``data``: the pydantic schemas of warbands and of the house-rule options.

The state machine, ``rules.DoublesRules``, is split by phase: ``rules`` (the core: set-up,
look-ups, ``pending`` and ``apply``), ``choices``, ``state``, ``deployment``, ``activation``
(turns, activations, moves), ``attacks`` (shots and blows through the duel to the damage),
``spaces`` (moves and shots at the ground) and ``views`` (the view and the words); the odds are
``odds`` and ``attack_odds``.

The rules in words, with every interpretation, are in ``docs/rules/doubles.md``.
"""
RULESET_ID = "doubles"
