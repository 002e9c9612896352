"""Counterblast's flow of play, one part per module; each holds a mixin of ``CounterblastRules``
(``../rules.py``, which keeps the state, the set-up and the ``pending`` / ``apply`` dispatch):

- ``geometry``     bases, distances, sight and cover, engagement, model helpers
- ``activations``  the Moxie phase, leader election, Activation phases, paying for actions
- ``actions``      the actions a model may take (options, split attacks) and their effects
- ``movement``     move spaces, Rush / Action-roll moves, Prone, Jumps and throws, falls, flight
- ``reactions``    Snapshot, Pursuit, Return fire, Action roll, Counterstrike, Parry, Disperse
- ``attacks``      attack checks, Defense and damage, conditions inflicted, Throw, Psi
- ``turn_end``     Upkeep, Dread, Panic and Rally, the end of the game and its scores
- ``words``        the view, option labels with their odds, ``attack_odds``
- ``choice_words`` each choice type's words, by a table (``describe_choice``)
- ``common``       constants and the action-kind table

Not to be confused with the phase-1 modules one level up (``../actions.py``, ``../movement.py``,
``../attacks.py``, ``../panic.py``): those hold the self-contained rule functions these call.
"""
