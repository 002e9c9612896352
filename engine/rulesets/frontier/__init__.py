"""Last Hope Frontier: the playing-card Wild West skirmish (seed ``000_0c05cfd63e59894e.txt``).

Phase 1 holds the self-contained mechanics the state machine calls:

- ``cards``  -- cards, the 54-card deck per player, hands of eight, where every card is;
- ``poker``  -- best five of the cards played, the next turn's priority;
- ``duel``   -- opposed tests, favoured suits, damage, leaders' eighth-card actions,
  the first-turn high-card draw, weapons and cover;
- ``turns``  -- the turn's card economy (seven spent), running out of actions, victory;
- ``data``   -- pydantic schemas for posses, items and house-rule options, and their loaders;
- ``rules``  -- phase 2: the playable state machine (``FrontierRules``, ruleset id ``frontier``):
  its core, with ``pending`` and ``apply``; its parts are ``state``, ``setup``, ``deployment``,
  ``flow`` (the turn), ``moves`` and ``views`` (the view, the words, what is hidden).

The rules in plain words, and every choice we made where the seed is silent, are in
``docs/rules/frontier.md``.
"""
RULESET_ID = "frontier"
