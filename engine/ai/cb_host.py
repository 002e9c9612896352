"""What the Counterblast policy's mixins (``cb_activation``, ``cb_groups``, ``cb_maneuvers``,
``cb_melee``, ``cb_skills``, ``cb_splits``) read of ``CounterblastPolicy`` and of one another,
declared for the type checker only.

Each mixin derives from ``CounterblastHost``. At run time it is an empty class (the names below
are declared under ``TYPE_CHECKING``), so the policy's method resolution and behaviour are those of
the mixins alone; for mypy it is a ``Policy`` that holds the Counterblast rules, the odds and the
methods each mixin calls on ``self``, with the signatures of their definitions.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.rulesets.counterblast.flow.movement import CBMoveSpace
    from engine.rulesets.counterblast.rules import CounterblastRules
    from engine.table import Base, Table

    from .cb_odds import Odds
    from .easy import Policy as _Policy
else:
    _Policy = object


class CounterblastHost(_Policy):
    if TYPE_CHECKING:
        rules: CounterblastRules
        table: Table
        price: Odds                 # the engine's chances (``cb_odds``)
        markers: dict
        activated: dict             # turn -> models this agent activated
        ctrl_range: float           # the mission's control range (mm)

        # CounterblastPolicy's (easy_counterblast.py)
        def table_now(self, v): ...
        def base(self, mid, m) -> Base: ...
        def on_table(self, m) -> bool: ...
        def live(self, v, player): ...
        def goals(self, v): ...
        def rush_pays(self, v, mid, after=None) -> bool: ...
        def far_from_goal(self, v, mid) -> bool: ...
        def view_move_space(self, v, mid, allowance: float | None = None, at=None) -> CBMoveSpace: ...
        def best_move(self, space, v, mid, actions_after: int): ...

        # the mixins' own, called from another mixin
        def engaged_in_view(self, enemies: dict, me: Base) -> bool: ...
        def charge_in_view(self, v, mid) -> bool: ...
        def craft_in_view(self, v, mid) -> bool: ...
        def heal_value(self, v, o) -> float: ...
        def member_shot(self, v, mid) -> float: ...
        def guns_that_see(self, v, table, mid, me: Base, prone: bool, ready_only: bool = False): ...
