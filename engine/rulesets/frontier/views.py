"""What Last Hope Frontier's players read and may not see: the view (each player's cards as that
player may see them), the pieces the client draws, each option in words (by the table in
``choice_words``), the aiming and range notes, the odds of an attack; and what is hidden from a player (``hidden_from``) and a world
that player cannot tell from the real one (``determinize``: the unseen cards dealt anew).
``ViewRules`` gives ``FrontierRules`` these (a mixin); none changes the state."""
from __future__ import annotations

import math

from engine.core import Choice
from engine.core.board import piece
from engine.rulesets.common import copied_piece

from . import duel
from .cards import full_deck
from .choice_words import CHOICE_WORDS
from .duel import FAVOURED_SUIT
from .state import INCH, MODEL_HEIGHT_MM, FrontierState, Model


class ViewRules:
    """The views and words of ``FrontierRules`` (a mixin)."""

    def aim_info(self, st: FrontierState, attacker: str, target: str) -> list[str]:
        a, d = st.models.get(attacker), st.models.get(target)
        if a is None or d is None:
            return []
        hidden = max(0.0, 1.0 - self._visible(st, a, d))
        bonus = duel.cover_bonus(min(1.0, hidden), self.duel_rules) if hidden < 1.0 else None
        gap = max(0.0, math.hypot(a.x - d.x, a.y - d.y) - a.radius - d.radius) / INCH
        cover = "hidden: cannot be shot" if bonus is None else (
            f"{hidden:.0%} hidden, cover +{bonus} to its defence in a shot" if bonus else f"{hidden:.0%} hidden, no cover")
        reach = ", ".join(f"{self.items[w].name} {r:g}\"" for w, r in self._ranged(a)) or "no ranged weapon"
        return [cover, f"{gap:.1f}\" edge to edge" + (" (in base contact)" if self._in_contact(a, d) else "")
                + f"; ranges: {reach}"]

    def ranges(self, st: FrontierState, model: str) -> list[tuple[str, float]]:
        m = st.models.get(model)
        return [] if m is None else [(self.items[w].name, r * INCH) for w, r in self._ranged(m)]

    def view(self, st: FrontierState, player: int | None, drawing: bool = True) -> dict:
        cards = {}
        for q in (1, 2):
            c = st.cards[q]
            mine = player == q
            cards[str(q)] = {
                "hand": [x.code for x in c.hand] if mine else None,
                "hand_size": len(c.hand),
                "committed": [x.code for x in c.committed] if mine else len(c.committed),
                "played": [x.code for x in c.played],
                "discard": len(c.discard),
                "deck": len(c.deck),
                "spent": c.spent,
                "to_spend": self._must_spend(st, q),     # cards still to spend this turn (public)
                "pairs_played": c.pairs_played,
            }
        t = st.test
        models, pieces = [], []
        for m in st.models.values():     # one pass for both lists
            models.append({"id": m.id, "player": m.player, "name": m.name, "x": m.x, "y": m.y, "z": m.z,
                           "radius": m.radius, "wounds": m.wounds, "max_wounds": m.max_wounds,
                           "items": list(m.items), "moved": m.moved, "second_move": m.second_move})
            if drawing:
                pieces.append(self._piece(st, m))
        v = {
            "ruleset": self.id, "you": player, "turn": st.turn, "phase": st.phase, "active": st.active,
            "priority": st.priority, "passed": {str(q): st.passed[q] for q in (1, 2)},
            "posses": {str(q): {"id": self.posses[q].id, "name": self.posses[q].name, "faction": self.faction[q],
                                "favoured": FAVOURED_SUIT[self.faction[q]].value if self.faction[q] in FAVOURED_SUIT
                                else None}
                       for q in (1, 2)},
            "models": models,
            "cards": cards,
            "test": None if t is None else {"kind": t.kind, "attacker": t.attacker, "defender": t.defender,
                                             "weapon": t.weapon, "friend": t.friend},
            "first_draw": [list(x) for x in st.first_draw],
            "result": st.result,
        }
        if st.mission is not None:
            v["mission"] = self._mission_view(st)
        if drawing:
            v["pieces"] = pieces
        return self.deploy_view(st, player, drawing, v)

    def _piece(self, st: FrontierState, m: Model) -> dict:
        """The model in the shared shape of ``engine.core.board`` (what the client draws)."""
        t = st.test
        active = t is not None and m.id in (t.attacker, t.defender)
        box = st.mission is not None and st.mission.get("box", {}).get("carrier") == m.id
        key = (m.id, m.player, m.profile, m.name, m.x, m.y, m.z, m.radius, m.wounds, m.max_wounds, m.moved,
               m.second_move, tuple(m.items), active, box)
        return copied_piece(self, key, lambda: self._build_piece(m, active, box))

    def _build_piece(self, m: Model, active: bool, box: bool = False) -> dict:
        prof = self.profiles[m.player][m.profile]
        marks = (["moved"] if m.moved else []) + (["second move used"] if m.second_move else []) \
            + (["carries the strongbox"] if box else [])
        cache = self.__dict__.setdefault("_profile_words", {})
        key = (m.player, m.profile, tuple(m.items))
        if key not in cache:   # worded once per profile and kit (items change hands in play)
            names = [self.items[i].name if i in self.items else i for i in m.items]
            cache[key] = [f"{prof.role}, Strength {prof.strength}  Shooting {prof.shooting}  Defence {prof.defence}  "
                          f"Toughness {prof.toughness}  Move {prof.move:g}\"",
                          "carries: " + (", ".join(names) or "nothing")]
        lines = cache[key]
        return piece(m.id, m.player, m.name, m.x, m.y, m.z, m.radius, MODEL_HEIGHT_MM, out=not m.standing,
                     health=f"{m.wounds}/{m.max_wounds} wounds", markers=marks, active=active, profile=lines)

    def _who(self, m: Model) -> str:
        return f"{self.posses[m.player].name}'s {m.name}"

    def describe_choice(self, st: FrontierState, c: Choice) -> str:
        return CHOICE_WORDS(self, st, c)

    # --- what a player may not see ------------------------------------------------------------
    def hidden_from(self, st: FrontierState, player: int) -> tuple:
        """The cards ``player`` cannot see (as in ``determinize``): the opponent's hand, committed
        card, deck and discard, and the player's own deck and discard. A decision that turns the
        opponent's committed card over, or draws a card, changes it: no undo past it."""
        out = []
        for q in (1, 2):
            piles = st.cards[q]
            names = ("deck", "discard") if q == player else ("hand", "committed", "deck", "discard")
            out.append(tuple(tuple(getattr(piles, n)) for n in names))
        return self.deploy_hidden(st, player, tuple(out))

    def determinize(self, st: FrontierState, player: int | None, rng) -> FrontierState:
        """The state with the dice reseeded (``Rules.determinize``) and every card ``player``
        does not see dealt anew, keeping each pile's count: of the opponent's 54 cards, all but
        those played face up (hand, committed and unrevealed card, deck, discard); of the
        player's own, the deck and the discard (the view gives their counts only). Each pool is
        built from the full deck's fixed order less the cards in view, then shuffled with
        ``rng``, so the result depends on the view and ``rng`` alone."""
        new = super().determinize(st, player, rng)   # the deployment's unseen spots redrawn there too
        if player not in (1, 2):
            return new
        for q in (1, 2):
            piles = new.cards[q]
            if q == player:
                seen = set(piles.hand) | set(piles.committed) | set(piles.played)
                redeal = ("deck", "discard")
            else:
                seen = set(piles.played)
                redeal = ("hand", "committed", "deck", "discard")
            pool = [c for c in full_deck() if c not in seen]
            rng.shuffle(pool)
            if "committed" in redeal and len(piles.committed) == 2:
                # a leader's committed pair (kept, discarded) stays a legal pair: the first card
                # of the shuffled pool, and the next one that pairs with it
                pool = self._pair_first(pool)
                n_hand = len(piles.hand)
                pool = pool[2:2 + n_hand] + pool[:2] + pool[2 + n_hand:]
            i = 0
            for name in redeal:
                n = len(getattr(piles, name))
                setattr(piles, name, pool[i:i + n])
                i += n
            assert i == len(pool), "every unseen card is dealt to exactly one pile"
        return new

    def redact(self, st: FrontierState, player: int | None) -> FrontierState:
        """The deployment's copy (``Rules.redact``) with every card ``player`` does not see left
        out, each pile keeping its count: the opponent's hand, committed card, deck and discard,
        and the player's own deck and discard (a spectator: all of those of both sides); an
        unseen card is ``None``. The piles played face up stay."""
        new = super().redact(st, player)
        for q in (1, 2):
            piles = new.cards[q]
            names = ("deck", "discard") if q == player else ("hand", "committed", "deck", "discard")
            for name in names:
                setattr(piles, name, [None] * len(getattr(piles, name)))
        return new

    @staticmethod
    def _pair_first(pool: list) -> list:
        """``pool`` reordered so its first two cards make a legal eighth-card pair (the first
        card that has a partner, then its first partner), the rest in their order."""
        for i, a in enumerate(pool):
            for j in range(i + 1, len(pool)):
                b = pool[j]
                try:
                    duel.check_pair(a, b)
                except duel.DuelError:
                    continue
                rest = [c for k, c in enumerate(pool) if k not in (i, j)]
                return [a, b] + rest
        raise AssertionError("no legal pair among the unseen cards")

    # --- odds ------------------------------------------------------------------------------------
    def attack_odds(self, st: FrontierState, c: Choice, player: int | None):
        """Exact odds of a Shoot, a Fight or the attacker's Commit, from what ``player`` may know
        (``attack_odds.py``, model in ``odds.py``); None for any other choice."""
        from . import attack_odds as _attack_odds
        return _attack_odds.attack_odds(self, st, c, player)
