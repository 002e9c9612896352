"""Opposed tests, favoured suits, damage, leaders' eighth-card actions, first-turn draw.

Seed: ../shared/seeds/000_0c05cfd63e59894e.txt.
"""
import dataclasses

import pytest

from engine.core.rng import GameRng
from engine.rulesets.frontier.cards import PlayerCards, Suit, card, full_deck
from engine.rulesets.frontier.data import load_items
from engine.rulesets.frontier.duel import (
    FAVOURED_SUIT,
    Bonus,
    DuelError,
    DuelRules,
    Fighter,
    Play,
    Weapon,
    apply_unsoakable,
    breaks_ties,
    check_pair,
    cover_bonus,
    damage_from_margin,
    favoured_bonus,
    first_draw_winner,
    first_turn_draw,
    heal,
    play_value,
    resolve_combat,
    resolve_shot,
    stealable,
)


def F(faction="sheriffs", S=2, Sh=2, D=2, T=1, W=3, M=None, leader=False, clothing=0):
    return Fighter(faction, S, Sh, D, T, W, W if M is None else M, leader, clothing)


def P(*codes):
    return Play.of(*(card(c) for c in codes))


REVOLVER = Weapon("revolver", 1, 12)


def test_favoured_suits():
    # 000_0c05cfd63e59894e.txt: 'Sheriffs love spades, outlawmen love diamonds, bootleggers love clubs and townsfolk love hearts.'
    assert FAVOURED_SUIT == {"sheriffs": Suit.SPADES, "outlawmen": Suit.DIAMONDS,
                             "bootleggers": Suit.CLUBS, "townsfolk": Suit.HEARTS}


@pytest.mark.parametrize("code,bonus", [("JS", Bonus(1, 0)), ("QS", Bonus(0, 1)), ("KS", Bonus(1, 1)),
                                        ("AS", Bonus(2, 2)), ("10S", Bonus()), ("2S", Bonus()),
                                        ("AH", Bonus()), ("JK1", Bonus(2, 2))])
def test_favoured_face_bonuses(code, bonus):
    # 000_0c05cfd63e59894e.txt: 'J of favoured suit is an additional + 1', 'Q ... +1 damage',
    # 'K ... +1 in shot/combat and +1 damage', 'A ... +2 in shot/combat and +2damage',
    # 'jokers are equal to A of favoured suit card when used on their own'
    assert favoured_bonus(P(code), "sheriffs") == bonus


def test_card_values_in_a_test():
    assert play_value(P("7D"), "sheriffs") == 7
    assert play_value(P("JK2"), "outlawmen") == 14
    assert play_value(Play(), "outlawmen") == 0
    assert play_value(P("9S", "JK1"), "sheriffs") == 9  # a joker in a pair copies its partner


@pytest.mark.parametrize("code,fac,bonus", [("JD", "outlawmen", 1), ("KC", "bootleggers", 1), ("AH", "townsfolk", 2),
                                            ("QS", "sheriffs", 0), ("JH", "sheriffs", 0)])
def test_face_bonus_adds_to_the_test_for_each_faction(code, fac, bonus):
    r = resolve_combat(F(fac, S=0), F("sheriffs", D=0, T=20), P(code), P("2H"))
    assert r.attack.value == card(code).rank + bonus


def test_damage_bands():
    # 000_0c05cfd63e59894e.txt: '1 – 5 difference ... = 1 damage', '6 – 10 ... = 2', '11+ ... = 3'
    assert [damage_from_margin(m) for m in (0, 1, 5, 6, 10, 11, 30)] == [0, 1, 1, 2, 2, 3, 3]


def test_combat_uses_strength_and_clothing_but_never_cover():
    # 000_0c05cfd63e59894e.txt: 'Defence bonuses from terrain cannot be applied'
    r = resolve_combat(F(S=4), F(D=1, clothing=2), P("9H"), P("5C"))
    assert r.attack.value == 13 and r.defence.value == 8 and r.kind == "combat"
    assert "cover" not in dict(r.defence.parts)
    with pytest.raises(TypeError):
        resolve_combat(F(), F(), P("9H"), P("5C"), covered_fraction=0.75)  # no such input


def test_shot_uses_shooting_value_clothing_and_cover():
    # 000_0c05cfd63e59894e.txt: 'Half covered models ... give +1 to defense total.' '3/4 covered ... +2'
    shooter, target = F(S=0, Sh=3), F(D=1, clothing=1)
    for frac, bonus in ((0.0, 0), (0.49, 0), (0.5, 1), (0.74, 1), (0.75, 2), (1.0, 2)):
        r = resolve_shot(shooter, target, P("8H"), P("4C"), REVOLVER, covered_fraction=frac)
        assert r.attack.value == 11
        assert r.defence.value == 1 + 4 + 1 + bonus
    assert cover_bonus(0.6, DuelRules(cover_half_bonus=3)) == 3
    with pytest.raises(DuelError):
        cover_bonus(1.5)


def test_damage_adds_favoured_face_and_weapon_and_subtracts_toughness():
    # margin 13 -> 3; K of spades +1 damage; machete +3; toughness 1 + defender's Q of diamonds +1
    att, dfn = F("sheriffs", S=3), F("outlawmen", D=0, T=1, W=10)
    r = resolve_combat(att, dfn, P("KS"), P("QD"), Weapon("machete", 3))
    assert r.attack.value == 3 + 13 + 1 and r.defence.value == 12
    assert r.margin == 5 and dict(r.damage.parts) == {"margin 5": 1, "favoured suit": 1, "machete": 3}
    assert r.toughness.value == 2 and r.wounds == 3 and r.defender_wounds_after == 7


@pytest.mark.parametrize("name,bonus", [("switchblade", 0), ("hunting_knife", 1), ("hatchet", 2), ("machete", 3)])
def test_melee_weapon_bonuses_from_the_catalogue(name, bonus):
    # 000_0c05cfd63e59894e.txt: 'Switchblade ... adds 0 damage', 'Hunting knife ... adds 1 damage',
    # 'Hatchet ... adds 2 damage', 'Machete ... adds 3 damage'
    w = load_items()[name].melee_weapon()
    r = resolve_combat(F(S=10), F(D=0, T=0, W=10), P("2H"), P("2C"), w)
    assert r.margin == 10 and r.wounds == 2 + bonus


def test_thrown_hunting_knife_range_one_and_lost():
    # 000_0c05cfd63e59894e.txt: 'can be thrown in 1 distance, but item is lost'
    knife = load_items()["hunting_knife"].ranged_weapon()
    assert knife.range == 1 and knife.thrown and knife.damage == 1
    r = resolve_shot(F(Sh=2), F(D=2), P("3H"), P("9C"), knife)
    assert not r.success and r.weapon_lost
    assert not resolve_shot(F(Sh=2), F(D=2), P("9H"), P("3C"), REVOLVER).weapon_lost


def test_weapons_must_fit_the_action():
    with pytest.raises(DuelError):
        resolve_combat(F(), F(), P("2H"), P("3H"), REVOLVER)
    with pytest.raises(DuelError):
        resolve_shot(F(), F(), P("2H"), P("3H"), Weapon("hatchet", 2))
    assert load_items()["hatchet"].ranged_weapon() is None


# --- ties -------------------------------------------------------------------------------------

def test_tie_broken_by_the_attackers_favoured_card():
    # 000_0c05cfd63e59894e.txt: 'If a favoured suit has been used by one player, add 1 ... strength
    # value means the combat action has been successful.'
    r = resolve_combat(F("sheriffs", S=2), F("outlawmen", D=3), P("6S"), P("5C"))
    assert r.tie and r.tie_break == "attacker" and r.success and r.margin == 1


def test_tie_broken_by_the_defenders_favoured_card():
    # 000_0c05cfd63e59894e.txt: '1 to the defence value means defence is higher. Do not move onto the damage step.'
    r = resolve_combat(F("sheriffs", S=2), F("outlawmen", D=3), P("6H"), P("5D"))
    assert r.tie and r.tie_break == "defender" and not r.success and r.wounds == 0
    assert r.damage.parts == ()


def test_both_favoured_is_a_score_draw_neither_is_no_damage():
    # 000_0c05cfd63e59894e.txt: 'If favoured suit is used by both players, score draw is resolved, no difference means no damage'
    r = resolve_combat(F("sheriffs", S=2), F("outlawmen", D=3), P("6S"), P("5D"))
    assert r.tie_break == "score_draw" and not r.success and r.wounds == 0
    # 000_0c05cfd63e59894e.txt: '0 difference is strength vs defence = 0 damage and do not move onto damage step.'
    r = resolve_combat(F("sheriffs", S=2), F("outlawmen", D=3), P("6H"), P("5C"))
    assert r.tie_break == "none" and not r.success


def test_favoured_face_cards_break_ties_unless_the_option_says_number_only():
    # J of spades: 2 + 11 + 1 = 14 vs 3 + 11 = 14
    # 000_0c05cfd63e59894e.txt: 'If the Active player and Non-active player's totals equal out to a
    # draw, check for use of non-face card favoured suits' (the default, number_only)
    att, dfn = F("sheriffs", S=2), F("outlawmen", D=3)
    assert resolve_combat(att, dfn, P("JS"), P("JC"), rules=DuelRules(tiebreak_cards="any")).tie_break == "attacker"
    r = resolve_combat(att, dfn, P("JS"), P("JC"))
    assert r.tie_break == "none" and not r.success
    assert DuelRules().tiebreak_cards == "number_only"
    assert breaks_ties(P("JK1"), "sheriffs", DuelRules(tiebreak_cards="any")) and not breaks_ties(P("JK1"), "sheriffs")
    assert breaks_ties(P("6S"), "sheriffs")


def test_a_lone_joker_is_the_favoured_ace():
    # 000_0c05cfd63e59894e.txt: 'jokers are equal to A of favoured suit card when used on their own in an opposed test'
    r = resolve_combat(F("townsfolk", S=1), F("bootleggers", D=1, T=1, W=9), P("JK2"), P("2C"))
    assert r.attack.value == 1 + 14 + 2
    assert dict(r.damage.parts)["favoured suit"] == 2
    r = resolve_combat(F("townsfolk", S=1), F("bootleggers", D=3, T=1, W=9), P("5H"), P("JK1"))
    assert r.defence.value == 3 + 14 + 2


# --- shooting into combat ------------------------------------------------------------------

def test_failed_shot_into_combat_costs_the_friend_one_unsoakable_damage():
    # 000_0c05cfd63e59894e.txt: 'your friendly model in combat takes one unsoakable damage as penalty.'
    miss = resolve_shot(F(Sh=1), F(D=3), P("2H"), P("9C"), REVOLVER, into_combat=True)
    assert not miss.success and miss.friendly_damage == 1
    assert apply_unsoakable(3, miss.friendly_damage) == 2 and apply_unsoakable(1, 1) == 0
    # 000_0c05cfd63e59894e.txt: 'If the shot vs defence test ... passes, you proceed onto the damage step as you normally would'
    hit = resolve_shot(F(Sh=3), F(D=1, T=0), P("9H"), P("2C"), REVOLVER, into_combat=True)
    assert hit.success and hit.friendly_damage == 0 and hit.wounds == 2 + 1  # margin 9 -> 2, revolver +1
    # a miss not into combat costs nothing; a score draw into combat is a miss
    assert resolve_shot(F(Sh=1), F(D=3), P("2H"), P("9C"), REVOLVER).friendly_damage == 0
    draw = resolve_shot(F("sheriffs", Sh=2), F("outlawmen", D=3), P("6S"), P("5D"), REVOLVER, into_combat=True)
    assert draw.tie_break == "score_draw" and draw.friendly_damage == 1


# --- leaders' eighth-card actions ------------------------------------------------------------

def test_pairs_true_or_with_one_joker_never_two_jokers():
    # 000_0c05cfd63e59894e.txt: 'Can't use two jokers in an eighth card paired action, it's too powerful.'
    check_pair(card("7S"), card("7H"))
    check_pair(card("JK1"), card("QD"))
    with pytest.raises(DuelError, match="two jokers"):
        check_pair(card("JK1"), card("JK2"))
    with pytest.raises(DuelError, match="not a pair"):
        check_pair(card("7S"), card("8S"))
    with pytest.raises(DuelError):
        P("7S", "7H", "7D")


def test_only_leaders_play_pairs():
    with pytest.raises(DuelError, match="only a leader"):
        resolve_combat(F(), F(), P("7S", "7H"), P("2C"))
    with pytest.raises(DuelError, match="only a leader"):
        resolve_combat(F(leader=True), F(), P("2C"), P("7S", "7H"))


def test_sheriff_dead_eyed_aim_and_spirit():
    # 000_0c05cfd63e59894e.txt: 'your leaders action adds an additional 1 to shot/strength or defence'
    r = resolve_shot(F("sheriffs", Sh=3, leader=True), F("outlawmen", D=3), P("8H", "8S"), P("9C"), REVOLVER)
    assert ("Dead Eyed Aim", 1) in r.attack.parts
    # 3 + 8 + 1 = 12 against 3 + 9 = 12: the 8 of spades in the pair is favoured and breaks the tie
    assert r.tie and r.tie_break == "attacker" and r.attack.value == 13 and r.success
    r = resolve_combat(F("outlawmen", S=3), F("sheriffs", D=2, leader=True), P("9C"), P("9H", "JK1"))
    assert ("Dead Eyed Spirit", 1) in r.defence.parts and r.defence.value == 12 and not r.success


def test_outlaw_dirt_in_the_wound_only_in_the_damage_step():
    # 000_0c05cfd63e59894e.txt: 'will only apply if the initial shot/combat vs defence test is successful'
    boss = F("outlawmen", S=3, leader=True)
    r = resolve_combat(boss, F("sheriffs", D=1, T=1, W=5), P("9H", "9C"), P("2H"))
    assert r.success and ("Dirt in the Wound", 1) in r.damage.parts and r.wounds == 2 + 1 - 1
    miss = resolve_combat(boss, F("sheriffs", D=9, T=1, W=5), P("2H", "2C"), P("KH"))
    assert not miss.success and miss.damage.parts == ()
    r = resolve_combat(F("sheriffs", S=6), F("outlawmen", D=1, T=1, W=5, leader=True), P("9H"), P("2H", "2C"))
    # 15 vs 3: margin 12 -> 3 damage; toughness 1 + 1 = 2 -> 1 wound
    assert ("Whiskey in the Wound", 1) in r.toughness.parts and r.wounds == 3 - 2


def test_a_defending_leader_may_play_a_pair_of_face_cards():
    """Our reading (docs/rules/frontier.md, "Who may play a pair"): a leader may pair when it is
    attacked, and two Kings are a pair like two 7s. K♦ K♣ for the Outlaw boss: the favoured King
    counts once (+1 defence, +1 toughness) and Whiskey in the Wound adds +1 toughness."""
    boss = F("outlawmen", D=2, T=1, W=5, leader=True)
    r = resolve_combat(F("sheriffs", S=6), boss, P("AH"), P("KD", "KC"), Weapon("machete", 3))
    # 6 + 14 = 20 against 2 + 13 + 1 = 16: margin 4 -> 1, machete +3 = 4; toughness 1 + 1 + 1 = 3
    assert r.defence.value == 16 and r.success
    assert ("Whiskey in the Wound", 1) in r.toughness.parts and r.toughness.value == 3 and r.wounds == 1
    # the same Kings played by a ganger are refused: only leaders pair
    with pytest.raises(DuelError, match="only a leader"):
        resolve_combat(F("sheriffs", S=6), F("outlawmen", D=2), P("AH"), P("KD", "KC"))


def test_townsfolk_heart_of_the_town_heals_before_damage_capped():
    # 000_0c05cfd63e59894e.txt: 'your leader gain 2 wounds back before calculating for damage. These two wounds cannot take you above your maximum'
    mayor = F("townsfolk", D=1, T=0, W=1, M=6, leader=True)
    r = resolve_combat(F("sheriffs", S=12), mayor, P("2H"), P("3C", "3D"))
    assert r.defender_healed == 2 and r.wounds == 2 and r.defender_wounds_after == 1  # would be out without the heal
    capped = dataclasses.replace(mayor, wounds=5)
    r = resolve_combat(F("sheriffs", S=0), capped, P("2H"), P("3C", "JK1"))
    assert r.defender_healed == 1 and r.defender_wounds_after == 6
    r = resolve_combat(F("townsfolk", S=0, W=2, M=5, leader=True), F(D=9), P("4H", "4S"), P("2C"))
    assert r.attacker_healed == 2 and r.attacker_wounds_after == 4 and not r.success
    assert heal(0, 5, 2) == 0 and heal(4, 5, 2) == 5


def test_bootlegger_slippery_paws_steals_under_ten_dollars():
    # 000_0c05cfd63e59894e.txt: 'your leader steals an item worth less than $10 off the opposing model'
    r = resolve_combat(F("bootleggers", leader=True), F("sheriffs"), P("5C", "5H"), P("AS"))
    assert r.steal_by == "attacker"
    r = resolve_shot(F("sheriffs"), F("bootleggers", leader=True), P("AS"), P("JK1", "5H"), REVOLVER)
    assert r.steal_by == "defender"
    cat = load_items()
    names = {i.id for i in stealable(cat.items)}
    assert {"switchblade", "hunting_knife", "hatchet", "derringer", "whiskey", "hooch", "padded_vest"} == names
    assert all(i.value < 10 for i in stealable(cat.items))


def test_no_card_means_the_bare_characteristic():
    r = resolve_combat(F(S=3), F(D=2), P("2H"), Play())
    assert r.defence.value == 2 and dict(r.defence.parts)["no card"] == 0


def test_out_of_action_models_cannot_test():
    with pytest.raises(DuelError):
        F(W=0)


# --- first turn -------------------------------------------------------------------------------

def test_first_turn_high_card_rules():
    # 000_0c05cfd63e59894e.txt: 'high card draw, aces high, jokers auto go first. Any draws pulled,
    # favoured suit breaks ties. Drawn with both favoured suits equals a redraw.'
    s, o = "sheriffs", "outlawmen"
    assert first_draw_winner(card("AH"), s, card("KS"), o) == 0
    assert first_draw_winner(card("2H"), s, card("3C"), o) == 1
    assert first_draw_winner(card("2H"), s, card("JK1"), o) == 1
    assert first_draw_winner(card("JK2"), s, card("AS"), o) == 0
    assert first_draw_winner(card("JK2"), s, card("JK1"), o) is None
    assert first_draw_winner(card("9S"), s, card("9H"), o) == 0
    assert first_draw_winner(card("9H"), s, card("9D"), o) == 1
    assert first_draw_winner(card("9S"), s, card("9D"), o) is None
    assert first_draw_winner(card("9H"), s, card("9C"), o) is None
    assert first_draw_winner(card("9S"), s, card("9S"), s) is None  # mirror match, both favoured


def test_first_turn_draw_redraws_and_returns_the_cards():
    a = PlayerCards.stacked(["9S", "4H", "AS"])
    b = PlayerCards.stacked(["9D", "KD", "2C"])
    res = first_turn_draw([a, b], ["sheriffs", "outlawmen"], GameRng(1))
    assert [(x.code, y.code) for x, y in res.draws] == [("9S", "9D"), ("4H", "KD")]
    assert res.winner == 1
    for d in (a, b):
        d.check()
        assert len(d.deck) == 54 and not d.hand
    with pytest.raises(DuelError):
        b.deal(8)
        first_turn_draw([a, b], ["sheriffs", "outlawmen"], GameRng(1))


def test_first_turn_draw_is_seeded():
    def run(seed):
        rng = GameRng(seed)
        decks = [PlayerCards.new(rng), PlayerCards.new(rng)]
        return first_turn_draw(decks, ["townsfolk", "bootleggers"], rng), decks
    (r1, d1), (r2, d2) = run(4), run(4)
    assert r1 == r2 and d1[0] == d2[0]
    assert sorted(d1[0].deck, key=full_deck().index) == full_deck()


def test_results_explain_themselves():
    r = resolve_combat(F("townsfolk", S=3), F("bootleggers", D=1, T=1), P("AH"), P("JC"), Weapon("hatchet", 2))
    assert r.describe() == "combat: 19 vs 13 - passes by 6: damage 6 vs toughness 1 = 5 wound(s)"
    miss = resolve_shot(F(Sh=1), F(D=3), P("2H"), P("9C"), REVOLVER, into_combat=True)
    assert "fails" in miss.describe() and "unsoakable" in miss.describe()
    assert dict(resolve_combat(F(S=0), F(D=0), P("JK1"), P("2C")).attack.parts)["JK1 (as Ace of Spades)"] == 14
