"""Opposed tests, favoured suits, damage and the leaders' eighth-card actions (pure functions).

A combat action: the attacker's strength + card against the defender's defence + card +
padded clothing (terrain cover never counts in combat). A shot: the attacker's shooting value
+ card against defence + card + clothing + cover (half covered +1, three-quarters covered +2).
Both cards are chosen in secret and revealed together; the state machine collects them and
calls ``resolve_combat`` / ``resolve_shot``, which return a ``DuelResult`` with every number
explained (``parts``) so the log and the client can show how the result came about.

Nothing here touches the game state or the RNG, except ``first_turn_draw`` which turns cards
from the players' decks and hands them back shuffled.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple, TypeVar

from engine.core.rng import GameRng

from .cards import Card, PlayerCards, Suit

Faction = Literal["sheriffs", "outlawmen", "bootleggers", "townsfolk"]
FACTIONS: tuple[Faction, ...] = ("sheriffs", "outlawmen", "bootleggers", "townsfolk")

FAVOURED_SUIT: dict[str, Suit] = {
    "sheriffs": Suit.SPADES,
    "outlawmen": Suit.DIAMONDS,
    "bootleggers": Suit.CLUBS,
    "townsfolk": Suit.HEARTS,
}

# The leaders' eighth-card actions, by faction.
LEADER_ACTION: dict[str, str] = {
    "sheriffs": "dead_eyed_aim",        # +1 to shot/strength or to defence
    "outlawmen": "dirt_in_the_wound",   # +1 damage or toughness, only in the damage step
    "townsfolk": "heart_of_the_town",   # the leader regains 2 wounds before damage
    "bootleggers": "slippery_paws",     # steal an item worth under $10 from the other model
}

Kind = Literal["combat", "shot"]
TieBreak = Literal["attacker", "defender", "score_draw", "none"]


class DuelError(ValueError):
    """An opposed test that the rules do not allow (two jokers in a pair, a ganger's pair,
    a shot without a ranged weapon, ...). Raised before anything is decided."""


@dataclass(frozen=True)
class Bonus:
    """A favoured-suit bonus: ``test`` adds to shot/strength/defence, ``damage`` to damage
    (attacker) or toughness (defender)."""
    test: int = 0
    damage: int = 0


NO_BONUS = Bonus()
# J +1 test; Q +1 damage/toughness; K +1 to both; A +2 to both.
FAVOURED_FACE_BONUS: dict[int, Bonus] = {11: Bonus(1, 0), 12: Bonus(0, 1), 13: Bonus(1, 1), 14: Bonus(2, 2)}


@dataclass(frozen=True)
class DuelRules:
    """The house-rulable numbers the duel needs (built from ``data.Options.duel_rules()``)."""
    cover_half_at: float = 0.5
    cover_three_quarters_at: float = 0.75
    cover_half_bonus: int = 1
    cover_three_quarters_bonus: int = 2
    tiebreak_cards: Literal["any", "number_only"] = "number_only"
    into_combat_penalty: int = 1
    heal_amount: int = 2
    steal_below_dollars: int = 10
    sheriff_bonus: int = 1
    outlaw_bonus: int = 1


DEFAULT_RULES = DuelRules()


# --- cards in a test ----------------------------------------------------------------------

@dataclass(frozen=True)
class Play:
    """The card(s) one player commits to one opposed test: none (an empty hand), one card,
    or a leader's eighth-card pair (a true pair, or a card and one joker)."""
    cards: tuple[Card, ...] = ()

    @classmethod
    def of(cls, *cs: Card) -> Play:
        p = cls(tuple(cs))
        if len(cs) > 2:
            raise DuelError("a test takes one card, or two for a leader's eighth-card pair")
        if len(cs) == 2:
            check_pair(*cs)
        return p

    @property
    def is_pair(self) -> bool:
        return len(self.cards) == 2

    @property
    def is_empty(self) -> bool:
        return not self.cards

    def describe(self) -> str:
        return " + ".join(c.code for c in self.cards) or "no card"


def check_pair(a: Card, b: Card) -> None:
    """A legal eighth-card pair: two cards of the same rank, or one card and one joker.
    Raises ``DuelError`` otherwise (two jokers are never allowed)."""
    if a == b:
        raise DuelError("a pair needs two different cards")
    if a.is_joker and b.is_joker:
        raise DuelError("two jokers can never make an eighth-card pair")
    if a.is_joker or b.is_joker:
        return
    if a.rank != b.rank:
        raise DuelError(f"{a.code} and {b.code} are not a pair (different ranks)")


def is_pair(a: Card, b: Card) -> bool:
    try:
        check_pair(a, b)
    except DuelError:
        return False
    return True


def favoured(card: Card, faction: str) -> bool:
    """A card of the faction's favoured suit. (A joker is judged by ``play_favoured``.)"""
    return not card.is_joker and card.suit == FAVOURED_SUIT[faction]


def effective_card(play: Play, faction: str) -> Card | None:
    """The one card a play counts as. A joker alone is the ace of the favoured suit; a joker
    in a pair copies its partner; a true pair counts as its favoured card if it has one."""
    cs = play.cards
    if not cs:
        return None
    if len(cs) == 1:
        c = cs[0]
        return Card(14, FAVOURED_SUIT[faction]) if c.is_joker else c
    real = [c for c in cs if not c.is_joker]
    fav = [c for c in real if favoured(c, faction)]
    return (fav or real)[0]


def play_value(play: Play, faction: str) -> int:
    """The face value added to the test: 2..10, J 11, Q 12, K 13, A 14; a lone joker 14;
    no card 0."""
    c = effective_card(play, faction)
    return 0 if c is None else c.rank


def play_favoured(play: Play, faction: str) -> bool:
    c = effective_card(play, faction)
    return c is not None and favoured(c, faction)


def favoured_bonus(play: Play, faction: str) -> Bonus:
    """The favoured-suit face bonus of a play (once per play, even for a pair)."""
    return _card_bonus(effective_card(play, faction), faction)


def _card_bonus(c: Card | None, faction: str) -> Bonus:
    if c is None or not favoured(c, faction):
        return NO_BONUS
    return FAVOURED_FACE_BONUS.get(c.rank, NO_BONUS)


def breaks_ties(play: Play, faction: str, rules: DuelRules = DEFAULT_RULES) -> bool:
    """Whether this play breaks a drawn test: any favoured-suit card (rule ``"any"``), or only
    favoured number cards 2-10 (rule ``"number_only"``)."""
    return _card_breaks_ties(effective_card(play, faction), faction, rules)


def _card_breaks_ties(c: Card | None, faction: str, rules: DuelRules) -> bool:
    if c is None or not favoured(c, faction):
        return False
    return rules.tiebreak_cards == "any" or not c.is_face


# --- numbers of the rules -------------------------------------------------------------------

def damage_from_margin(margin: int) -> int:
    """Damage from the winning margin: 0 -> 0, 1-5 -> 1, 6-10 -> 2, 11+ -> 3."""
    if margin <= 0:
        return 0
    if margin <= 5:
        return 1
    if margin <= 10:
        return 2
    return 3


def cover_bonus(covered_fraction: float, rules: DuelRules = DEFAULT_RULES) -> int:
    """Defence bonus from terrain in a shot: half covered +1, three-quarters covered +2.
    ``covered_fraction`` is the share of the target hidden (1 - visible fraction from the
    table's silhouette sampling). A fully hidden model cannot be targeted at all; that is the
    table's call, here 1.0 simply gets the three-quarters bonus."""
    if not 0.0 <= covered_fraction <= 1.0:
        raise DuelError(f"covered fraction {covered_fraction} is not between 0 and 1")
    if covered_fraction >= rules.cover_three_quarters_at:
        return rules.cover_three_quarters_bonus
    if covered_fraction >= rules.cover_half_at:
        return rules.cover_half_bonus
    return 0


def heal(wounds: int, max_wounds: int, amount: int) -> int:
    """Wounds after regaining ``amount``, never above the maximum (whiskey, hooch, Heart of
    the Town). A model out of action (0 wounds) is not brought back."""
    if wounds <= 0:
        return wounds
    return min(max_wounds, wounds + amount)


T = TypeVar("T")


def stealable(items: Iterable[T], rules: DuelRules = DEFAULT_RULES) -> list[T]:
    """Items Slippery Paws may take: those worth under $10 (``item.value``)."""
    return [i for i in items if i.value < rules.steal_below_dollars]


# --- the models -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Weapon:
    """What the attacker uses. ``range`` in inches, 0 for base contact only. A ``thrown``
    weapon (the hunting knife) is lost after it is thrown."""
    name: str
    damage: int = 0
    range: float = 0.0
    thrown: bool = False

    @property
    def melee(self) -> bool:
        return self.range == 0 or self.thrown


UNARMED = Weapon("bare hands", 0)


@dataclass(frozen=True)
class Fighter:
    """A model's numbers at the moment of the test."""
    faction: Faction
    strength: int
    shooting: int
    defence: int
    toughness: int
    wounds: int
    max_wounds: int
    is_leader: bool = False
    clothing: int = 0
    name: str = ""

    def __post_init__(self) -> None:
        if self.faction not in FAVOURED_SUIT:
            raise DuelError(f"unknown faction {self.faction!r}")
        if self.wounds <= 0:
            raise DuelError(f"{self.name or 'the model'} is out of action and cannot take part in a test")


@dataclass(frozen=True)
class Total:
    """One side's total with its parts, e.g. (("strength", 3), ("J of Spades", 11), ...)."""
    parts: tuple[tuple[str, int], ...]

    @property
    def value(self) -> int:
        return sum(v for _, v in self.parts)


@dataclass(frozen=True)
class DuelResult:
    kind: Kind
    attack: Total
    defence: Total
    tie: bool                       # the raw totals were equal
    tie_break: TieBreak | None      # how a tie was settled (None when there was no tie)
    success: bool                   # the test passed: the damage step is reached
    margin: int                     # winning difference after any tie-break (0 on failure)
    damage: Total                   # empty when the damage step is not reached
    toughness: Total
    wounds: int                     # wounds the defender loses
    attacker_healed: int
    defender_healed: int
    attacker_wounds_after: int
    defender_wounds_after: int
    friendly_damage: int            # shooting into combat: unsoakable damage to the shooter's friend
    steal_by: Literal["attacker", "defender"] | None
    weapon_lost: bool
    leader_actions: tuple[tuple[str, str], ...] = field(default=())  # (side, action)

    @property
    def defender_out(self) -> bool:
        return self.defender_wounds_after <= 0

    def describe(self) -> str:
        a, d = self.attack.value, self.defence.value
        s = f"{self.kind}: {a} vs {d}"
        if self.tie:
            s += f" (tie: {self.tie_break})"
        if not self.success:
            s += " - fails"
            if self.friendly_damage:
                s += f"; friendly model takes {self.friendly_damage} unsoakable damage"
            return s
        return (s + f" - passes by {self.margin}: damage {self.damage.value} vs toughness "
                f"{self.toughness.value} = {self.wounds} wound(s)")


class DuelNumbers(NamedTuple):
    """What a resolved test changes, without its words (``resolve_combat`` / ``resolve_shot``
    with ``worded=False``): the numbers of the ``DuelResult`` the same test gives."""
    success: bool
    wounds: int
    defender_out: bool
    friendly_damage: int
    attacker_healed: int
    defender_healed: int


def _card_part(play: Play, c: Card | None) -> tuple[str, int]:
    """The card's line of a total: its words and face value (``c``: the card it counts as)."""
    if c is None:
        return ("no card", 0)
    label = play.describe() if (play.is_pair or play.cards[0].is_joker) else c.describe()
    if play.cards[0].is_joker and not play.is_pair:
        label += f" (as {c.describe()})"
    return (label, c.rank)


def _check_play(who: Fighter, play: Play, side: str) -> None:
    if len(play.cards) > 2:
        raise DuelError(f"the {side} committed {len(play.cards)} cards")
    if play.is_pair:
        check_pair(*play.cards)
        if not who.is_leader:
            raise DuelError(f"only a leader can play an eighth-card pair ({side}: {who.name or who.faction})")


def _resolve(kind: Kind, attacker: Fighter, defender: Fighter, a_play: Play, d_play: Play,
             weapon: Weapon, cover: int, into_combat: bool, rules: DuelRules,
             worded: bool = True) -> DuelResult | DuelNumbers:
    """The test. Every number is worked out once, here; ``worded=False`` leaves out only the
    words (the cards' names in the totals' parts, the result's record) and returns
    ``DuelNumbers``: a scorer weighing thousands of duels reads nothing else."""
    _check_play(attacker, a_play, "attacker")
    _check_play(defender, d_play, "defender")
    fa, fd = attacker.faction, defender.faction
    a_pair = LEADER_ACTION[fa] if a_play.is_pair else None
    d_pair = LEADER_ACTION[fd] if d_play.is_pair else None

    # Heart of the Town: on reveal, before any damage is worked out.
    a_wounds = heal(attacker.wounds, attacker.max_wounds, rules.heal_amount) if a_pair == "heart_of_the_town" else attacker.wounds
    d_wounds = heal(defender.wounds, defender.max_wounds, rules.heal_amount) if d_pair == "heart_of_the_town" else defender.wounds

    # The test: each term a number first (the words, when asked for, list the terms that count).
    a_card, d_card = effective_card(a_play, fa), effective_card(d_play, fd)
    ab, db = _card_bonus(a_card, fa), _card_bonus(d_card, fd)
    a_skill = attacker.strength if kind == "combat" else attacker.shooting
    a_face = 0 if a_card is None else a_card.rank
    d_face = 0 if d_card is None else d_card.rank
    a_aim = rules.sheriff_bonus if a_pair == "dead_eyed_aim" else 0
    d_aim = rules.sheriff_bonus if d_pair == "dead_eyed_aim" else 0
    d_cover = cover if kind == "shot" else 0
    a_total = a_skill + a_face + ab.test + a_aim
    d_total = defender.defence + d_face + db.test + defender.clothing + d_cover + d_aim
    tie = a_total == d_total
    tie_break: TieBreak | None = None
    if tie:
        a_brk, d_brk = _card_breaks_ties(a_card, fa, rules), _card_breaks_ties(d_card, fd, rules)
        if a_brk and d_brk:
            tie_break = "score_draw"
        elif a_brk:
            tie_break = "attacker"
        elif d_brk:
            tie_break = "defender"
        else:
            tie_break = "none"
    margin = a_total - d_total + (tie_break == "attacker") - (tie_break == "defender")
    success = margin > 0

    damage_total = toughness_total = wounds = 0
    a_dirt = rules.outlaw_bonus if a_pair == "dirt_in_the_wound" else 0
    d_dirt = rules.outlaw_bonus if d_pair == "dirt_in_the_wound" else 0
    if success:
        damage_total = damage_from_margin(margin) + ab.damage + weapon.damage + a_dirt
        toughness_total = defender.toughness + db.damage + d_dirt
        wounds = max(0, damage_total - toughness_total)
    else:
        margin = 0

    friendly = rules.into_combat_penalty if (kind == "shot" and into_combat and not success) else 0
    if not worded:
        return DuelNumbers(success, wounds, d_wounds - wounds <= 0, friendly,
                           a_wounds - attacker.wounds, d_wounds - defender.wounds)

    # The words: the same terms, those that count, each with its name.
    att: list[tuple[str, int]] = [("strength" if kind == "combat" else "shooting", a_skill), _card_part(a_play, a_card)]
    if ab.test:
        att.append(("favoured suit", ab.test))
    if a_pair == "dead_eyed_aim":
        att.append(("Dead Eyed Aim", a_aim))
    dfn: list[tuple[str, int]] = [("defence", defender.defence), _card_part(d_play, d_card)]
    if db.test:
        dfn.append(("favoured suit", db.test))
    if defender.clothing:
        dfn.append(("padded clothing", defender.clothing))
    if d_cover:
        dfn.append(("cover", d_cover))
    if d_pair == "dead_eyed_aim":
        dfn.append(("Dead Eyed Spirit", d_aim))
    if tie_break == "attacker":
        att.append(("favoured suit breaks the tie", 1))
    elif tie_break == "defender":
        dfn.append(("favoured suit breaks the tie", 1))
    dmg: list[tuple[str, int]] = []
    tough: list[tuple[str, int]] = []
    if success:
        dmg.append((f"margin {margin}", damage_from_margin(margin)))
        if ab.damage:
            dmg.append(("favoured suit", ab.damage))
        if weapon.damage:
            dmg.append((weapon.name, weapon.damage))
        if a_pair == "dirt_in_the_wound":
            dmg.append(("Dirt in the Wound", a_dirt))
        tough.append(("toughness", defender.toughness))
        if db.damage:
            tough.append(("favoured suit", db.damage))
        if d_pair == "dirt_in_the_wound":
            tough.append(("Whiskey in the Wound", d_dirt))
    steal_by = "attacker" if a_pair == "slippery_paws" else ("defender" if d_pair == "slippery_paws" else None)
    actions = tuple((s, x) for s, x in (("attacker", a_pair), ("defender", d_pair)) if x)
    return DuelResult(
        kind=kind, attack=Total(tuple(att)), defence=Total(tuple(dfn)), tie=tie, tie_break=tie_break,
        success=success, margin=margin, damage=Total(tuple(dmg)), toughness=Total(tuple(tough)),
        wounds=wounds,
        attacker_healed=a_wounds - attacker.wounds, defender_healed=d_wounds - defender.wounds,
        attacker_wounds_after=a_wounds, defender_wounds_after=max(0, d_wounds - wounds),
        friendly_damage=friendly, steal_by=steal_by,
        weapon_lost=(kind == "shot" and weapon.thrown), leader_actions=actions,
    )


def resolve_combat(attacker: Fighter, defender: Fighter, a_play: Play, d_play: Play,
                   weapon: Weapon = UNARMED, rules: DuelRules = DEFAULT_RULES,
                   worded: bool = True) -> DuelResult:
    """A combat action between models in base contact: strength + card vs defence + card +
    clothing. Terrain cover never applies. ``weapon`` is a base-contact weapon (or none).
    ``worded=False``: the numbers only (``DuelNumbers``)."""
    if not weapon.melee:
        raise DuelError(f"{weapon.name} is not a base-contact weapon")
    return _resolve("combat", attacker, defender, a_play, d_play, weapon, 0, False, rules, worded)


def resolve_shot(attacker: Fighter, defender: Fighter, a_play: Play, d_play: Play, weapon: Weapon,
                 covered_fraction: float = 0.0, into_combat: bool = False,
                 rules: DuelRules = DEFAULT_RULES, worded: bool = True) -> DuelResult:
    """A shot: shooting value + card vs defence + card + clothing + cover. Range and line of
    sight are the caller's to check (``weapon.range``). ``into_combat``: the target is in base
    contact with one of the shooter's own models, which takes unsoakable damage if the shot
    fails (``DuelResult.friendly_damage``). A thrown weapon is lost (``weapon_lost``).
    ``worded=False``: the numbers only (``DuelNumbers``)."""
    if weapon.range <= 0:
        raise DuelError(f"{weapon.name} cannot shoot (no range)")
    return _resolve("shot", attacker, defender, a_play, d_play, weapon,
                    cover_bonus(covered_fraction, rules), into_combat, rules, worded)


def apply_unsoakable(wounds: int, damage: int) -> int:
    """Unsoakable damage ignores toughness: each point is a wound."""
    return max(0, wounds - damage)


# --- who goes first -------------------------------------------------------------------------

def first_draw_winner(a: Card, faction_a: str, b: Card, faction_b: str) -> int | None:
    """Compare the two cards turned for the first turn: 0 or 1 goes first, None means redraw.
    Aces high; a joker goes first automatically (two jokers: redraw); equal ranks are broken by
    a card of the player's favoured suit; both favoured, or neither, is a redraw."""
    if a.is_joker or b.is_joker:
        if a.is_joker and b.is_joker:
            return None
        return 0 if a.is_joker else 1
    if a.rank != b.rank:
        return 0 if a.rank > b.rank else 1
    fa, fb = favoured(a, faction_a), favoured(b, faction_b)
    if fa and not fb:
        return 0
    if fb and not fa:
        return 1
    return None


@dataclass(frozen=True)
class FirstDraw:
    winner: int
    draws: tuple[tuple[Card, Card], ...]


def first_turn_draw(decks: Sequence[PlayerCards], factions: Sequence[str], rng: GameRng,
                    max_rounds: int = 1000) -> FirstDraw:
    """Each player turns the top card of their own deck until one goes first; the turned cards
    go back and each deck is shuffled again, so the 54 are whole before hands are dealt.
    Both decks must be undealt (no hand yet)."""
    if any(d.hand or d.played for d in decks):
        raise DuelError("the first-turn draw happens before any hand is dealt")
    turned: list[list[Card]] = [[], []]
    draws: list[tuple[Card, Card]] = []
    winner: int | None = None
    try:
        for _ in range(max_rounds):
            if not decks[0].deck or not decks[1].deck:
                for i in (0, 1):  # a deck ran dry on redraws: turned cards go back in
                    decks[i].deck.extend(turned[i])
                    turned[i] = []
                    rng.shuffle(decks[i].deck)
            a, b = decks[0].deck.pop(0), decks[1].deck.pop(0)
            turned[0].append(a)
            turned[1].append(b)
            draws.append((a, b))
            winner = first_draw_winner(a, factions[0], b, factions[1])
            if winner is not None:
                break
    finally:
        for i in (0, 1):
            decks[i].deck.extend(turned[i])
            rng.shuffle(decks[i].deck)
    if winner is None:
        raise DuelError(f"no first player after {max_rounds} redraws")
    return FirstDraw(winner, tuple(draws))
