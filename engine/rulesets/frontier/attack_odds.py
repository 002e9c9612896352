"""``FrontierRules.attack_odds``: the odds of a ``Shoot``, a ``Fight`` or the attacker's ``Commit``
(its secret card for the test), as an ``engine.core.odds.AttackOdds``, from what the asking
player may know (model in ``odds.py``; docs/rules/frontier.md, Interpretations, "Attack odds").

What this reads of the hidden cards: the asking player's own hand (and own committed card), and
of every other pile only what ``FrontierRules.view`` shows that player: the face-up ``played``
piles and the hand sizes. Never the opponent's hand or any deck order.
"""
from __future__ import annotations

from engine.core.odds import AttackOdds, pct

from . import duel, odds
from .cards import card as parse_card
from .choices import Commit, Fight, Shoot
from .data import fighter

ASSUMES = ("the card you cannot see is drawn uniformly from its owner's cards you cannot see (its 54 less "
           "the face-up played pile); a defender plays one card, never a pair")


def _fighter(rules, st, m):
    return fighter(rules.profiles[m.player][m.profile], rules.faction[m.player], rules.catalogue,
                   wounds=m.wounds, items=m.items)


def _classes(rules, st, owner: int, viewer, faction: str) -> tuple:
    """``class_counts`` of the cards ``owner`` may play, as ``viewer`` knows them."""
    piles = st.cards[owner]
    if not piles.hand and not piles.committed:
        return ()                                     # a public count: it has no card
    if viewer == owner:
        cards = list(piles.hand) + list(piles.committed)
    else:
        cards = odds.unseen_by(piles.played)
    return odds.class_counts(cards, faction)


def _odds(rules, st, kind, a, d, weapon_id, friend, a_play, viewer) -> tuple[odds.CardOdds, str]:
    fa, fd = _fighter(rules, st, a), _fighter(rules, st, d)
    if kind == "combat":
        weapon = rules.items[weapon_id].melee_weapon() if weapon_id else duel.UNARMED
        covered = 0.0
    else:
        weapon = rules.items[weapon_id].ranged_weapon()
        covered = max(0.0, 1.0 - rules._visible(st, a, d))
    d_cls = _classes(rules, st, d.player, viewer, fd.faction)
    o = odds.card_test_odds(kind, fa, fd, a_play, d_cls, weapon, covered, bool(friend), rules.duel_rules)
    return o, weapon.name


def _words(play: duel.Play) -> str:
    return " + ".join(c.describe() for c in play.cards) or "no card"


def _build(rules, st, kind, a, d, o: odds.CardOdds, friend: str, how: str, assumes: str) -> AttackOdds:
    hit = float(o.hit)
    outcomes = [("hit", hit)]
    for k in range(1, max(2, d.wounds)):
        outcomes.append((f"{k}+ wound" + ("s" if k > 1 else ""), float(o.at_least(k))))
    outcomes.append(("taken out", float(o.out)))
    others = (("friend hit", float(o.friend)),) if friend else ()
    wound = outcomes[1][1]
    verb = "shoots" if kind == "shot" else "fights"
    summary = (f"{a.name} {verb} {d.name}{how}: {pct(hit)} to hit, {pct(wound)} to wound, "
               f"{pct(float(o.out))} to take out")
    if friend:
        summary += f"; {pct(float(o.friend))} the shot goes astray into {st.models[friend].name}"
    return AttackOdds(a.id, d.id, summary, tuple(outcomes), True, "exact", assumes, others)


def attack_odds(rules, st, c, player) -> AttackOdds | None:
    if isinstance(c, (Shoot, Fight)):
        kind = "shot" if isinstance(c, Shoot) else "combat"
        a, d = st.models.get(c.model), st.models.get(c.target)
        friend = getattr(c, "friend", "")
        weapon_id = c.weapon
        fixed = None
    elif isinstance(c, Commit) and st.phase == "attack_card" and st.test is not None:
        t = st.test
        kind, a, d, friend, weapon_id = t.kind, st.models.get(t.attacker), st.models.get(t.defender), t.friend, t.weapon
        try:
            cs = tuple(parse_card(x) for x in c.cards)
            fixed = duel.Play.of(*cs)
        except ValueError:
            return None
    else:
        return None
    if a is None or d is None or not a.standing or not d.standing:
        return None
    if kind == "shot" and rules.items[weapon_id].ranged_weapon() is None:
        return None
    faction = rules.faction[a.player]
    if fixed is not None:
        if player != a.player:
            return None                               # the attacker's own secret: not for others
        o, _ = _odds(rules, st, kind, a, d, weapon_id, friend, fixed, player)
        return _build(rules, st, kind, a, d, o, friend, f" with the {_words(fixed)}", ASSUMES)
    if player != a.player:
        a_cls = _classes(rules, st, a.player, player, faction)
        o, _ = _odds(rules, st, kind, a, d, weapon_id, friend, a_cls, player)
        return _build(rules, st, kind, a, d, o, friend, "", ASSUMES + "; so is the attacker's card")
    # the attacker's own view: one variant per card (or pair) it could commit
    plays = []
    for opt in rules._commit_options(st, a.player, a):
        plays.append(duel.Play.of(*(parse_card(x) for x in opt.cards)))
    if not plays:
        plays = [duel.Play()]
    variants = []
    for play in plays:
        o, _ = _odds(rules, st, kind, a, d, weapon_id, friend, play, player)
        variants.append((play, o))
    variants.sort(key=lambda v: (-v[1].expected_wounds(), -v[1].hit, v[0].describe()))
    built = tuple((play.describe(), _build(rules, st, kind, a, d, o, friend, f" with the {_words(play)}", ASSUMES))
                  for play, o in variants)
    best = built[0][1]
    return AttackOdds(best.attacker, best.target, best.summary.replace(" with the ", " with the best card, the ", 1)
                      if variants[0][0].cards else best.summary, best.outcomes, True, "exact",
                      ASSUMES + "; headline: your best card (most wounds expected)", best.others, variants=built)
