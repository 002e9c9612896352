"""Frontier: what a player remembers of the cards that left the table face up.

``Game.sample_world`` deals every card the view does not show anew, evenly: for a player's
opponent, its 54 less the cards face up in its ``played`` pile. But the view forgets: at the end
of a turn the played cards go to their owner's discard, and from then on the view shows only the
discard's count. A player at the table saw them played, so they cannot be in the opponent's hand,
its committed card or its deck until that discard is shuffled back into the deck. A world that
deals them there is one the player can tell from the real game.

``CardMemory`` keeps, per side, the cards this player saw face up that have since gone to the
discard, from the views the agent is handed (nothing else: a card seen in one view and gone from
``played`` in the next has gone to the discard; a discard that shrank was shuffled into the deck,
and the memory of it is dropped). ``condition`` then moves each remembered card that a sampled
world dealt elsewhere into the discard, swapping it with an unremembered card of the discard
drawn with the agent's RNG: among the worlds that fit the view, only those that fit the memory.
A card discarded unseen (the second card of a leader's pair, a forfeit, a ditched hand) is not
remembered and stays uniform. The search agents also hand the memory to their own easy's model
of the opponent's card (``FrontierPolicy.gone``).
"""
from __future__ import annotations


class CardMemory:
    def __init__(self):
        self.gone: dict[int, set[str]] = {1: set(), 2: set()}
        self._played: dict[int, list[str]] = {1: [], 2: []}
        self._discard: dict[int, int] = {1: 0, 2: 0}

    def observe(self, view: dict) -> None:
        """Update from one view (``Rules.view`` of this player)."""
        cards = view.get("cards") if isinstance(view, dict) else None
        if not cards:
            return
        for q in (1, 2):
            c = cards.get(str(q))
            if not c:
                continue
            played = list(c.get("played") or [])
            discard = c.get("discard", 0)
            if discard < self._discard[q]:
                # the discard was shuffled into the deck: what was remembered there is in the deck now
                self.gone[q] = set()
            else:
                self.gone[q] |= set(self._played[q]) - set(played)
            self._played[q], self._discard[q] = played, discard

    def condition(self, world, rng) -> None:
        """Put every remembered card of ``world`` (a sampled ``Game``) in its owner's discard,
        swapping it with an unremembered discard card (``rng``'s choice). Left as dealt when
        the memory cannot fit (more remembered cards unseen than the discard holds)."""
        st = world.state
        for q in (1, 2):
            gone = self.gone[q]
            if not gone:
                continue
            piles = st.cards[q]
            discard = piles.discard
            free = [i for i, c in enumerate(discard) if c.code not in gone]
            misplaced = []
            for name in ("hand", "deck") + (("committed",) if len(piles.committed) == 1 else ()):
                pile = getattr(piles, name)
                misplaced += [(pile, i) for i, c in enumerate(pile) if c.code in gone]
            if not misplaced or len(misplaced) > len(free):
                continue
            rng.shuffle(free)
            for (pile, i), j in zip(misplaced, free):
                pile[i], discard[j] = discard[j], pile[i]
        world._pending_ok = False
