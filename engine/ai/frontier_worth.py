"""What a Frontier card play is worth besides its test (issue 61, item 2), for ``easy_frontier``.

- **Next turn's priority.** The cards a player spends in tests lie face up and decide next
  turn's priority: the better poker hand of them (``poker.best_hand``, the ruleset's own
  ranking) moves and activates first. A card still in hand at the end of the turn counts for
  nothing (kept, ditched or forfeited), and a leader's pair counts only its kept card. So a
  card that lifts the hand of the cards already face up (a second seven beside a seven, a
  fifth heart) is worth more spent now than held: ``priority_gain`` prices that lift at
  ``PRIORITY_STEP`` wounds per category of hand (high card, pair, two pair, ...).
- **Slippery Paws** (the Bootleggers' leader's pair): the thief takes an item worth under $10
  from the other model whatever the test's result (``duel.stealable``, the ruleset's rule).
  ``steal_gain`` is what the best such item is worth, the victim's loss plus the thief's gain,
  both measured by ``kit_worth``: the agent's own rough value of a model's kit in wounds (a gun
  to shoot with, padded clothing, a melee weapon's damage, drinks).
"""
from __future__ import annotations

from engine.rulesets.frontier import duel, poker
from engine.rulesets.frontier.cards import card as parse_card

PRIORITY_STEP = 0.25    # wounds a category of next turn's priority hand is worth (measured: docs/ai.md)


class Worth:
    """Kept answers per cards / kit: the same piles and kits come back decision after decision."""

    step = PRIORITY_STEP     # 0: card play blind to priority, as before (for the head-to-head bench)

    def __init__(self, rules):
        self.rules = rules
        self._cats: dict = {}

    # ------------------------------------------------------------------ priority
    def category(self, codes: frozenset) -> int:
        got = self._cats.get(codes)
        if got is None:
            if len(self._cats) > 8192:
                self._cats.clear()
            got = self._cats[codes] = int(poker.best_hand([parse_card(c) for c in codes]).category) if codes else -1
        return got

    def priority_gain(self, played: list, cards: tuple) -> float:
        """The lift of the face-up hand when ``cards`` (a Commit's codes: one card, or a pair's
        kept card then its discarded one) are spent now, in wounds."""
        if not cards or not self.step:
            return 0.0
        now = frozenset(played)
        return self.step * (self.category(now | {cards[0]}) - self.category(now))

    # ------------------------------------------------------------------ Slippery Paws
    def kit_worth(self, items) -> float:
        """A model's kit in wounds (the agent's judgement, from the items' data)."""
        its = [self.rules.items[i] for i in items]
        guns = [i for i in its if i.kind == "firearm"]
        worth = (1.0 + 0.25 * max(i.damage for i in guns)) if guns else 0.0
        worth += 0.6 * max([i.defence for i in its if i.kind == "clothing"] + [0])
        worth += 0.3 * max([i.damage for i in its if i.kind == "melee"] + [0])
        worth += 0.4 * sum(i.heal for i in its if i.kind == "drink")
        return worth

    def item_swing(self, item: str, victim_items, thief_items) -> float:
        """What taking ``item`` from the victim is worth to the thief's side."""
        rest = list(victim_items)
        rest.remove(item)
        return (self.kit_worth(victim_items) - self.kit_worth(rest)
                + self.kit_worth(list(thief_items) + [item]) - self.kit_worth(thief_items))

    def steal_gain(self, victim_items, thief_items) -> float:
        """The best item Slippery Paws may take (none: 0)."""
        ok = duel.stealable([self.rules.items[i] for i in dict.fromkeys(victim_items)], self.rules.duel_rules)
        return max([self.item_swing(i.id, victim_items, thief_items) for i in ok] + [0.0])
