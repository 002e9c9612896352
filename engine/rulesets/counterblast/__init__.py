"""Counterblast: sci-fi skirmish with d10 pools, a Moxie economy, reactions, Dread and Panic.

Source: ``shared/seeds/003_52d4831de0a47706.txt``; the rules as implemented and every
interpretation are in ``docs/rules/counterblast.md``.

Phase 1 (this package so far) holds the self-contained mechanics the state machine calls:

- ``options``    house-rulable constants (``CounterblastOptions``)
- ``checks``     ability checks with exploding dice (``ability_check``)
- ``odds``       exact distributions of checks and attack chains
- ``data``       profiles, weapons, gear, crews, missions (pydantic, schema-versioned)
- ``attacks``    Shoot / Strike / Throw difficulties, raw damage, split dice
- ``damage``     Defense and cover, damage tokens vs Mettle, stabilising, healing, falling, burning
- ``movement``   Rush and Jump distances, what may Rush or Jump
- ``moxie``      Moxie pool, the Moxie check and roll-offs, activation costs, group checks
- ``panic``      Dread, the Panic test, Rally
- ``conditions`` condition effects, including the project's own definition of Stunned
- ``actions``    the action catalogue: category, spends or not, reaction triggers, Multitasking
- ``scoring``    battle score, objective score, mission score, degree of victory

Phase 2, the playable state machine: ``state`` (``CBState``, ``Model``, ``Activation``), ``rules``
(the set-up and the ``pending`` / ``apply`` dispatch of ``CounterblastRules``) and ``flow/`` (its parts: activations, actions, movement,
reactions, attacks, end of turn, geometry, words), with ``choices`` (the players' answers) and
``attack_odds`` (the odds of an attack).
"""
RULESET_ID = "counterblast"
