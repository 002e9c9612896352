"""Split attacks for the Counterblast policy (a mixin of ``CounterblastPolicy``).

003: "When shooting or striking, any model may choose to attack multiple targets by splitting their
dice." A split is priced as the number of models it is expected to put Down (or finish): the sum,
over its shares, of each share's chance by the engine's chain with that share's dice against that
target (``Odds.shot``: the difficulty and cover the target's own Shoot option states; ``Odds.strike``
from the view). A single attack's price is its own chance. A split is taken when it beats the best
single attack by ``SPLIT_MARGIN``: two wounded enemies a token or two from going Down, each worth a
few dice, rather than all dice at one of them.
"""
from __future__ import annotations

from engine.rulesets.counterblast.choices import Shoot, SplitShoot, SplitStrike

from .cb_host import CounterblastHost
from .cb_odds import label_numbers

SPLIT_MARGIN = 0.05


class SplitPlay(CounterblastHost):
    split_margin = SPLIT_MARGIN

    def best_split(self, d, v):
        """(the best SplitShoot/SplitStrike option, its expected Downs), or None."""
        nums = {}
        for o, lab in zip(d.options, d.labels):
            if isinstance(o, Shoot):
                got = label_numbers(lab)
                if got is not None:
                    nums[(o.model, o.weapon, o.target)] = got
        best = None
        for o in d.options:
            if isinstance(o, SplitShoot):
                val = 0.0
                for t, n in zip(o.targets, o.dice):
                    got = nums.get((o.model, o.weapon, t))
                    if got is None:
                        val = None
                        break
                    val += self.price.shot(v, o.model, o.weapon, t, cover=got[1], diff=got[0], dice=n)[2]
            elif isinstance(o, SplitStrike):
                val = sum(self.price.strike(v, o.model, o.weapon, t, dice=n)[2] for t, n in zip(o.targets, o.dice))
            else:
                continue
            if val is not None and (best is None or val > best[1] + 1e-9):
                best = (o, val)
        return best
