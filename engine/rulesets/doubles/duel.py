"""The duel: attack and defence dice pools, kept results, doubles and their effects, rerolls.

A duel is an immutable ``Duel`` value moved on by pure steps. ``next_step(duel)`` says what
happens next, one of:

- ``RollStep(role, reason)``: chance; call ``roll(duel, role, rng)``;
- ``KeepStep(role, options)``: the side picks which (up to) two dice to keep; ``keep(...)``;
- ``EffectStep(role, double, options)``: the side kept a new double and picks its effect
  (or ``"none"``); ``choose_effect(...)``;
- ``ManoeuvreStep(role, options)``: the side picks one of the opponent's dice, which is
  rerolled at once; ``manoeuvre(...)``;
- ``DiscardStep(role, target, options)`` (only with ``penalty_rule="opponent_discards"``):
  the side sets one of the penalised target's dice aside; ``discard(...)``;
- ``ResolveStep()``: ``resolve(duel)`` gives the ``DuelResult``.

Every step function refuses (``DuelError``) a call that does not answer the current step,
and, values being immutable, the duel it was given is left as it was.

Readings (docs/rules/doubles.md, "Interpretations"): a result is the sum of the two kept dice
and a double is two equal kept dice; an advantage is one more die in the pool; a penalty die
is rolled with the pool and cancels the highest die, and a pair holding a penalty die is no
double (``penalty_rule="cancels_highest"``: a penalty never makes a roll better; the other
readings are options); the side lower on the initiative
track rolls, keeps and picks its effects first; a double triggers a new effect only when one of
its two dice was rolled since that side last chose (so rerolls chain, without limit).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Literal

from .data import DEFAULT_OPTIONS, DoublesOptions

Role = Literal["attacker", "defender"]
DuelKind = Literal["shoot", "melee"]

# Effect ids. Attacker double 1-5: one of these; double 6: the force attack (all its parts).
PRECISE_ATTACK = "precise_attack"
MANOEUVRE = "manoeuvre"
FLAW = "flaw"
TACTICAL_ADVANTAGE = "tactical_advantage"
FORCE_ATTACK = "force_attack"
# Defender double 1-5: one of these; double 6 when shot: low ammunition.
AGGRESSIVENESS = "aggressiveness"
INTIMIDATION = "intimidation"
COVER = "cover"
LOW_AMMUNITION = "low_ammunition"
NO_EFFECT = "none"

ATTACKER_EFFECTS: tuple[str, ...] = (PRECISE_ATTACK, MANOEUVRE, FLAW, TACTICAL_ADVANTAGE)
DEFENDER_EFFECTS: tuple[str, ...] = (MANOEUVRE, AGGRESSIVENESS, INTIMIDATION, COVER)

EFFECT_WORDS: dict[str, str] = {
    PRECISE_ATTACK: "Precise attack: the opponent takes a penalty",
    MANOEUVRE: "Manoeuvre: pick one of the opponent's dice to be rerolled",
    FLAW: "Flaw: the defender's armour counts 1 less (+1 damage if it has none)",
    TACTICAL_ADVANTAGE: "Tactical advantage: a tie of results goes to the attacker",
    FORCE_ATTACK: "Force attack: armour to 0 (or +1 damage), off-balance, +1 damage, weapon-break tests",
    AGGRESSIVENESS: "Aggressiveness: 1 less damage on each hit taken this turn",
    INTIMIDATION: "Intimidation: if the defence scores higher, the attacker loses its remaining AP (or 2 next turn)",
    COVER: "Cover: more defence against projectiles until the end of the turn",
    LOW_AMMUNITION: "Low ammunition: the attacker needs a double on an aptitude test to shoot next turn",
    NO_EFFECT: "No effect",
}


class DuelError(ValueError):
    """A step was called that does not answer what the duel is waiting for."""


def other(role: Role) -> Role:
    return "defender" if role == "attacker" else "attacker"


# --------------------------------------------------------------------------------------------
# Pools
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PoolSpec:
    """What a side rolls, announced before the roll.

    ``dice`` is the characteristic plus weapon bonus (attack) or the defence characteristic;
    ``action_points`` are AP spent for one die each; ``advantage`` and ``penalty`` count dice.
    """
    dice: int
    action_points: int = 0
    advantage: int = 0
    penalty: int = 0

    def __post_init__(self):
        for name in ("dice", "action_points", "advantage", "penalty"):
            if getattr(self, name) < 0:
                raise ValueError(f"PoolSpec.{name} must not be negative")

    def counts(self, options: DoublesOptions = DEFAULT_OPTIONS, extra_penalty: int = 0) -> tuple[int, int]:
        """(ordinary dice, penalty dice) after advantage and penalty cancel (option)."""
        adv, pen = self.advantage, self.penalty + extra_penalty
        if options.cancel_advantage_and_penalty:
            m = min(adv, pen)
            adv, pen = adv - m, pen - m
        return self.dice + self.action_points + adv, pen


def attack_pool(characteristic: int, weapon_bonus: int = 0, *, action_points: int = 0,
                advantage: int = 0, penalty: int = 0) -> PoolSpec:
    """The attacker's characteristic plus the weapon bonus in d6, plus AP and advantage dice."""
    return PoolSpec(characteristic + weapon_bonus, action_points, advantage, penalty)


def defence_pool(defence: int, *, action_points: int = 0, advantage: int = 0, penalty: int = 0) -> PoolSpec:
    """The defender's defence characteristic in d6, plus AP and advantage dice."""
    return PoolSpec(defence, action_points, advantage, penalty)


@dataclass(frozen=True)
class Die:
    id: int
    value: int
    penalty: bool = False

    def describe(self) -> str:
        return f"{self.value}{' (penalty die)' if self.penalty else ''}"


@dataclass(frozen=True, order=True)
class Keep:
    """A choice of kept results: values high to low, and which of them are penalty dice.
    ``penalty_breaks_double``: a pair with a penalty die in it is no double (the
    ``cancels_highest`` reading); build keeps with ``make_keep`` to get it from the options."""
    values: tuple[int, ...]
    penalty_values: tuple[int, ...] = ()
    penalty_breaks_double: bool = False

    @property
    def total(self) -> int:
        return sum(self.values)

    @property
    def pair(self) -> bool:
        """Two equal values, whatever the dice."""
        return len(self.values) == 2 and self.values[0] == self.values[1]

    @property
    def is_double(self) -> bool:
        return self.pair and not (self.penalty_breaks_double and self.penalty_values)

    @property
    def double(self) -> int | None:
        return self.values[0] if self.is_double else None

    def describe(self) -> str:
        if not self.values:
            return "no dice: result 0"
        pen = f", penalty {'+'.join(map(str, self.penalty_values))}" if self.penalty_values else ""
        dbl = f" (double {self.values[0]})" if self.is_double else (
            " (no double: a penalty die)" if self.pair else "")
        return f"keep {' + '.join(map(str, self.values))} = {self.total}{dbl}{pen}"


def make_keep(values, penalty_values=(), options: DoublesOptions = DEFAULT_OPTIONS) -> Keep:
    """The ``Keep`` of these values under the options' penalty reading."""
    pens = tuple(penalty_values)
    return Keep(tuple(values), pens, bool(pens) and options.penalty_rule == "cancels_highest")


_KEEPS: dict = {}


def legal_keeps(dice: tuple[Die, ...] | list[Die], options: DoublesOptions = DEFAULT_OPTIONS) -> tuple[Keep, ...]:
    """The distinct legal keeps: two dice (fewer if fewer are rolled); under ``must_keep``
    including as many penalty dice as there are, up to two. Ordered best total first, doubles
    before others. Kept per the dice's values and penalty marks and the penalty reading, all the
    answer reads (in any order: the keeps are a set, sorted): a search asks it for the same few
    rolls thousands of times. Keeps are frozen, so callers may share them."""
    key = (options.penalty_rule, tuple(sorted((d.value, d.penalty) for d in dice)))
    got = _KEEPS.get(key)
    if got is None:
        if len(_KEEPS) >= 4096:
            _KEEPS.clear()
        got = _KEEPS[key] = _legal_keeps(tuple(dice), options)
    return got


def _legal_keeps(dice: tuple[Die, ...], options: DoublesOptions) -> tuple[Keep, ...]:
    k = min(2, len(dice))
    need = min(k, sum(d.penalty for d in dice)) if options.penalty_rule == "must_keep" else None
    found: set[Keep] = set()
    for combo in combinations(dice, k):
        if need is not None and sum(d.penalty for d in combo) != need:
            continue
        vals = tuple(sorted((d.value for d in combo), reverse=True))
        pens = tuple(sorted((d.value for d in combo if d.penalty), reverse=True))
        found.add(make_keep(vals, pens, options))
    return tuple(sorted(found, key=lambda kp: (-kp.total, not kp.is_double, kp.values, kp.penalty_values)))


def best_keep(dice, options: DoublesOptions = DEFAULT_OPTIONS) -> Keep:
    """The keep with the highest result (ties: a double first)."""
    return legal_keeps(dice, options)[0]


def cancel_highest(dice: tuple[Die, ...], count: int) -> tuple[tuple[Die, ...], tuple[Die, ...]]:
    """(dice left, dice set aside): the ``count`` highest dice go, a penalty die before an
    ordinary die of the same value (``cancels_highest``). So a penalty die lower than the best
    die takes its place, and one that is not lower changes nothing."""
    order = sorted(dice, key=lambda d: (d.value, d.penalty, -d.id), reverse=True)
    gone = {d.id for d in order[:max(0, count)]}
    return tuple(d for d in dice if d.id not in gone), tuple(d for d in order if d.id in gone)


def _ids_for_keep(dice: tuple[Die, ...], kp: Keep, prefer: frozenset[int]) -> tuple[int, ...]:
    """Die ids realising ``kp``; among equal dice, prefer the ids in ``prefer`` (fresh dice)."""
    wanted = [(v, False) for v in kp.values]
    for v in kp.penalty_values:
        wanted.remove((v, False))
        wanted.append((v, True))
    chosen: list[int] = []
    for v, pen in wanted:
        cands = [d for d in dice if d.value == v and d.penalty == pen and d.id not in chosen]
        cands.sort(key=lambda d: (d.id not in prefer, d.id))
        chosen.append(cands[0].id)
    return tuple(chosen)


# --------------------------------------------------------------------------------------------
# Aptitude tests (no opponent: the player keeps the best, or looks for a double)
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AptitudeResult:
    dice: tuple[Die, ...]
    best: Keep
    has_double: bool

    @property
    def result(self) -> int:
        return self.best.total


def aptitude_test(aptitude: int, rng, *, advantage: int = 0, penalty: int = 0,
                  options: DoublesOptions = DEFAULT_OPTIONS) -> AptitudeResult:
    """Roll an aptitude test: ``aptitude`` d6 plus advantage and penalty dice, keep two.

    ``result`` is the best legal keep; ``has_double`` says whether a legal keep is a double
    (off-balance and low ammunition ask for one). The dice come in the order rolled: the
    ordinary dice, then the penalty dice. With ``penalty_rule="opponent_discards"`` there is no
    opponent, so each penalty sets the highest die aside.
    """
    n, pen = PoolSpec(aptitude, 0, advantage, penalty).counts(options)
    if options.penalty_rule == "opponent_discards":
        dice = tuple(Die(i, rng.d(6)) for i in range(n))
        for _ in range(min(pen, len(dice))):
            top = max(dice, key=lambda d: (d.value, d.id))
            dice = tuple(d for d in dice if d.id != top.id)
    else:
        dice = tuple(Die(i, rng.d(6)) for i in range(n)) + tuple(Die(n + i, rng.d(6), True) for i in range(pen))
        if options.penalty_rule == "cancels_highest":
            dice, _ = cancel_highest(dice, pen)
    keeps = legal_keeps(dice, options)
    return AptitudeResult(dice, keeps[0], any(kp.is_double for kp in keeps))


def double_test(aptitude: int, rng, *, advantage: int = 0, penalty: int = 0,
                options: DoublesOptions = DEFAULT_OPTIONS) -> bool:
    """An aptitude test that is passed only with a double (off-balance, low ammunition)."""
    return aptitude_test(aptitude, rng, advantage=advantage, penalty=penalty, options=options).has_double


def off_balance_test(aptitude: int, rng, *, advantage: int = 0, penalty: int = 0,
                     options: DoublesOptions = DEFAULT_OPTIONS) -> bool:
    """A force attack's off-balance: True when the defender is knocked to the ground."""
    return not double_test(aptitude, rng, advantage=advantage, penalty=penalty, options=options)


# --------------------------------------------------------------------------------------------
# Duel state
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Side:
    role: Role
    spec: PoolSpec
    dice: tuple[Die, ...] = ()
    set_aside: tuple[Die, ...] = ()          # cancelled by penalty dice, or discarded by the opponent
    rolled: bool = False
    kept: tuple[int, ...] | None = None      # die ids of the current keep
    fresh: frozenset[int] = frozenset()      # dice rolled since this side last chose its keep
    extra_penalty: int = 0                   # penalties given before this side rolled
    discards_due: int = 0
    effects: tuple[str, ...] = ()

    def die(self, die_id: int) -> Die:
        for d in self.dice:
            if d.id == die_id:
                return d
        # a clear refusal, never the StopIteration of a bare next() (issue 59)
        raise DuelError(f"die {die_id!r} is not one of the {self.role}'s dice "
                        f"(there are: {', '.join(str(d.id) for d in self.dice) or 'none'})")

    @property
    def keep(self) -> Keep | None:
        if self.kept is None:
            return None
        ds = [self.die(i) for i in self.kept]
        return Keep(tuple(sorted((d.value for d in ds), reverse=True)),
                    tuple(sorted((d.value for d in ds if d.penalty), reverse=True)))

    @property
    def score(self) -> int:
        kp = self.keep
        return kp.total if kp else 0

    @property
    def remaining(self) -> int:
        kept = set(self.kept or ())
        return sum(d.value for d in self.dice if d.id not in kept)


@dataclass(frozen=True)
class Obligation:
    kind: Literal["manoeuvre", "penalty"]
    by: Role
    count: int = 1

    @property
    def target(self) -> Role:
        return other(self.by)


@dataclass(frozen=True)
class Duel:
    kind: DuelKind
    first: Role
    attacker: Side
    defender: Side
    # static (the game's options): left out of the game state's hash
    options: DoublesOptions = field(default=DEFAULT_OPTIONS, metadata={"hash": False})
    obligations: tuple[Obligation, ...] = ()
    effect_due: tuple[Role, int, int, tuple[str, ...]] | None = None   # (role, double, choices left, chosen for it)
    next_id: int = 0
    rerolls: int = 0
    log: tuple[str, ...] = ()

    def side(self, role: Role) -> Side:
        return self.attacker if role == "attacker" else self.defender

    @property
    def second(self) -> Role:
        return other(self.first)

    def _with(self, role: Role, side: Side, **kw) -> Duel:
        return replace(self, **{role: side}, **kw)


def start_duel(kind: DuelKind, attack: PoolSpec, defence: PoolSpec, *, first: Role,
               options: DoublesOptions = DEFAULT_OPTIONS) -> Duel:
    """A duel before any die is rolled. ``first`` is the side lower on the initiative track
    (``turn.first_roller``): it rolls, keeps and picks its effects before the other rolls."""
    if kind not in ("shoot", "melee"):
        raise DuelError(f"unknown duel kind {kind!r}")
    if first not in ("attacker", "defender"):
        raise DuelError(f"first must be 'attacker' or 'defender', not {first!r}")
    return Duel(kind, first, Side("attacker", attack), Side("defender", defence), options)


# --------------------------------------------------------------------------------------------
# Steps
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RollStep:
    role: Role
    reason: Literal["pool", "penalty_die"]


@dataclass(frozen=True)
class KeepStep:
    role: Role
    options: tuple[Keep, ...]


@dataclass(frozen=True)
class EffectStep:
    role: Role
    double: int
    options: tuple[str, ...]


@dataclass(frozen=True)
class ManoeuvreStep:
    role: Role
    options: tuple[Die, ...]      # the opponent's dice, one per distinct (value, penalty, kept)


@dataclass(frozen=True)
class DiscardStep:
    role: Role
    target: Role
    options: tuple[Die, ...]


@dataclass(frozen=True)
class ResolveStep:
    pass


Step = RollStep | KeepStep | EffectStep | ManoeuvreStep | DiscardStep | ResolveStep


def _effect_options(duel: Duel, role: Role, double: int) -> tuple[str, ...]:
    side = duel.side(role)
    if role == "attacker":
        opts = (FORCE_ATTACK,) if double == 6 else ATTACKER_EFFECTS
    elif double == 6 and not (duel.kind == "melee" and duel.options.melee_defender_double_six == "two_effects"):
        opts = (LOW_AMMUNITION,)
    else:
        opts = DEFENDER_EFFECTS
    if duel.options.distinct_double_effects:
        opts = tuple(e for e in opts if e not in side.effects)
    if duel.effect_due is not None:
        # a melee defender's double 6 gives two effects: two different ones
        opts = tuple(e for e in opts if e not in duel.effect_due[3])
    return opts + (NO_EFFECT,)


def _distinct_dice(side: Side) -> tuple[Die, ...]:
    kept = set(side.kept or ())
    seen: dict[tuple, Die] = {}
    for d in side.dice:
        key = (d.value, d.penalty, d.id in kept)
        seen.setdefault(key, d)
    return tuple(sorted(seen.values(), key=lambda d: (-d.value, d.penalty, d.id)))


def next_step(duel: Duel) -> Step:
    """What the duel waits for now (pure)."""
    if duel.effect_due is not None:
        role, dbl, _, _ = duel.effect_due
        return EffectStep(role, dbl, _effect_options(duel, role, dbl))
    order = (duel.first, duel.second)
    for role in order:
        s = duel.side(role)
        if s.rolled and s.discards_due > 0 and s.dice:
            return DiscardStep(other(role), role, _distinct_dice(s))
    for role in order:
        s = duel.side(role)
        if s.rolled and s.kept is None:
            return KeepStep(role, legal_keeps(s.dice, duel.options))
    for ob in duel.obligations:
        t = duel.side(ob.target)
        if t.kept is None:
            continue                      # the target has not rolled yet: wait for it
        if ob.kind == "manoeuvre":
            if t.dice:
                return ManoeuvreStep(ob.by, _distinct_dice(t))
        else:
            return RollStep(ob.target, "penalty_die")
    for role in order:
        if not duel.side(role).rolled:
            return RollStep(role, "pool")
    return ResolveStep()


def _expect(duel: Duel, cls, role: Role | None = None):
    step = next_step(duel)
    if not isinstance(step, cls) or (role is not None and step.role != role):
        raise DuelError(f"the duel waits for {step!r}, not a {cls.__name__} by {role}")
    return step


def _drop_obligation(duel: Duel, ob: Obligation) -> tuple[Obligation, ...]:
    obs = list(duel.obligations)
    obs.remove(ob)
    return tuple(obs)


def roll(duel: Duel, role: Role, rng) -> Duel:
    """Chance: roll the side's pool (with its penalty dice), or the penalty dice given to it
    after it had rolled (a precise attack), after which it keeps again."""
    step = _expect(duel, RollStep, role)
    s = duel.side(role)
    nid = duel.next_id
    rule = duel.options.penalty_rule
    if step.reason == "pool":
        n, pen = s.spec.counts(duel.options, s.extra_penalty)
        if rule == "opponent_discards":
            new = [Die(nid + i, rng.d(6)) for i in range(n)]
            discards = pen
        else:
            new = [Die(nid + i, rng.d(6)) for i in range(n)] + [Die(nid + n + i, rng.d(6), True) for i in range(pen)]
            discards = 0
        msg = f"{role} rolls {[d.value for d in new if not d.penalty]}" + (
            f" with penalty dice {[d.value for d in new if d.penalty]}" if pen and discards == 0 else "")
        left, gone = tuple(new), ()
        if rule == "cancels_highest" and pen:
            left, gone = cancel_highest(left, pen)
            msg += f"; set aside {[d.value for d in gone]}"
        s2 = replace(s, dice=left, set_aside=s.set_aside + gone, rolled=True, kept=None,
                     fresh=frozenset(d.id for d in left), discards_due=discards)
        return duel._with(role, s2, next_id=nid + len(new), log=duel.log + (msg,))
    ob = next(o for o in duel.obligations if o.kind == "penalty" and o.target == role)
    new = [Die(nid + i, rng.d(6), True) for i in range(ob.count)]
    left, gone = s.dice + tuple(new), ()
    msg = f"{role} rolls penalty dice {[d.value for d in new]}"
    if rule == "cancels_highest":
        left, gone = cancel_highest(left, ob.count)
        msg += f", sets aside {[d.value for d in gone]}"
    gone_ids = {d.id for d in gone}
    s2 = replace(s, dice=left, set_aside=s.set_aside + gone, kept=None,
                 fresh=(s.fresh | {d.id for d in new}) - gone_ids)
    return duel._with(role, s2, next_id=nid + len(new), obligations=_drop_obligation(duel, ob),
                      log=duel.log + (msg + " and keeps again",))


def keep(duel: Duel, role: Role, choice: Keep) -> Duel:
    """The side keeps ``choice`` (one of ``KeepStep.options``). A double with a die rolled since
    the side last chose opens an ``EffectStep``."""
    step = _expect(duel, KeepStep, role)
    if choice not in step.options:
        raise DuelError(f"{choice.describe()} is not a legal keep for the {role}")
    s = duel.side(role)
    ids = _ids_for_keep(s.dice, choice, s.fresh)
    new_double = choice.is_double and any(i in s.fresh for i in ids)
    s2 = replace(s, kept=ids, fresh=frozenset())
    due = None
    if new_double:
        dbl = choice.values[0]
        two = role == "defender" and dbl == 6 and duel.kind == "melee" \
            and duel.options.melee_defender_double_six == "two_effects"
        due = (role, dbl, 2 if two else 1, ())
    return duel._with(role, s2, effect_due=due, log=duel.log + (f"{role} {choice.describe()}",))


def choose_effect(duel: Duel, role: Role, effect: str) -> Duel:
    """The side applies the effect of the double it just kept (``"none"`` declines it)."""
    step = _expect(duel, EffectStep, role)
    if effect not in step.options:
        raise DuelError(f"{effect!r} is not offered to the {role} for a double {step.double}: {step.options}")
    _, dbl, left, chosen = duel.effect_due
    due = (role, dbl, left - 1, chosen + (effect,)) if left > 1 else None
    if effect == NO_EFFECT:
        return replace(duel, effect_due=due, log=duel.log + (f"{role} declines the double's effect",))
    s = replace(duel.side(role), effects=duel.side(role).effects + (effect,))
    d = duel._with(role, s, effect_due=due, log=duel.log + (f"{role}: {EFFECT_WORDS[effect]}",))
    if effect == PRECISE_ATTACK:
        n = duel.options.precise_attack_penalty
        t = d.side(other(role))
        if n == 0:
            pass
        elif not t.rolled:
            d = d._with(other(role), replace(t, extra_penalty=t.extra_penalty + n))
        elif duel.options.penalty_rule != "opponent_discards":
            d = replace(d, obligations=d.obligations + (Obligation("penalty", role, n),))
        else:
            d = d._with(other(role), replace(t, discards_due=t.discards_due + n, kept=None))
    elif effect == MANOEUVRE:
        d = replace(d, obligations=d.obligations + (Obligation("manoeuvre", role),))
    return d


def manoeuvre(duel: Duel, role: Role, die_id: int, rng) -> Duel:
    """The side picks one of the opponent's dice (by id, from ``ManoeuvreStep.options`` or any
    die equal to one of them); it is rerolled at once and the opponent keeps again."""
    _expect(duel, ManoeuvreStep, role)
    t = duel.side(other(role))
    if die_id not in {d.id for d in t.dice}:
        raise DuelError(f"die {die_id} is not one of the {other(role)}'s dice")
    ob = next(o for o in duel.obligations if o.kind == "manoeuvre" and o.by == role)
    old = t.die(die_id)
    new = Die(duel.next_id, rng.d(6), old.penalty)
    dice = tuple(new if d.id == die_id else d for d in t.dice)
    t2 = replace(t, dice=dice, kept=None, fresh=t.fresh | {new.id})
    return duel._with(other(role), t2, next_id=duel.next_id + 1, rerolls=duel.rerolls + 1,
                      obligations=_drop_obligation(duel, ob),
                      log=duel.log + (f"{role} makes the {other(role)} reroll a {old.value}: {new.value}",))


def discard(duel: Duel, role: Role, die_id: int) -> Duel:
    """(``penalty_rule="opponent_discards"``) set one of the penalised opponent's dice aside."""
    step = _expect(duel, DiscardStep, role)
    t = duel.side(step.target)
    if die_id not in {d.id for d in t.dice}:
        raise DuelError(f"die {die_id} is not one of the {step.target}'s dice")
    gone = t.die(die_id)
    t2 = replace(t, dice=tuple(d for d in t.dice if d.id != die_id), set_aside=t.set_aside + (gone,),
                 discards_due=t.discards_due - 1, kept=None)
    return duel._with(step.target, t2, log=duel.log + (f"{role} sets aside the {step.target}'s {gone.value}",))


# --------------------------------------------------------------------------------------------
# Outcome
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DuelResult:
    kind: DuelKind
    winner: Role
    decided_by: Literal["result", "tactical_advantage", "remaining_dice", "second_tie"]
    attack_score: int
    defence_score: int
    attack_remaining: int
    defence_remaining: int
    attacker_effects: tuple[str, ...]
    defender_effects: tuple[str, ...]
    rerolls: int

    @property
    def hit(self) -> bool:
        return self.winner == "attacker"

    @property
    def difference(self) -> int:
        """Attack result minus defence result when the attack hits (0 otherwise)."""
        return self.attack_score - self.defence_score if self.hit else 0

    @property
    def flaws(self) -> int:
        return self.attacker_effects.count(FLAW)

    @property
    def force_attacks(self) -> int:
        return self.attacker_effects.count(FORCE_ATTACK)

    @property
    def off_balance(self) -> bool:
        """The defender must pass an aptitude test with a double or be knocked down."""
        return self.force_attacks > 0

    @property
    def weapon_break_tests(self) -> bool:
        return self.force_attacks > 0

    @property
    def aggressiveness(self) -> int:
        """Damage points taken off each hit the defender suffers this turn (this one included)."""
        return self.defender_effects.count(AGGRESSIVENESS)

    @property
    def intimidation(self) -> bool:
        """The attacker loses its remaining AP (or next turn's, see ``turn.intimidation_loss``)."""
        return INTIMIDATION in self.defender_effects and self.defence_score > self.attack_score

    @property
    def cover(self) -> int:
        """Times the defender took cover: advantage dice against projectiles until end of turn."""
        return self.defender_effects.count(COVER)

    @property
    def low_ammunition(self) -> bool:
        return LOW_AMMUNITION in self.defender_effects


def resolve(duel: Duel) -> DuelResult:
    """Compare the results: the higher wins; a tie goes to the attacker if it has a tactical
    advantage, else to the higher total of the remaining dice; a second tie fails the attack."""
    _expect(duel, ResolveStep)
    a, d = duel.attacker, duel.defender
    if a.score != d.score:
        winner, how = ("attacker" if a.score > d.score else "defender"), "result"
    elif TACTICAL_ADVANTAGE in a.effects:
        winner, how = "attacker", "tactical_advantage"
    elif a.remaining != d.remaining:
        winner, how = ("attacker" if a.remaining > d.remaining else "defender"), "remaining_dice"
    else:
        winner, how = "defender", "second_tie"
    return DuelResult(duel.kind, winner, how, a.score, d.score, a.remaining, d.remaining,
                      a.effects, d.effects, duel.rerolls)


def play_out(duel: Duel, rng, chooser) -> tuple[Duel, DuelResult]:
    """Drive a duel to its end, asking ``chooser(step)`` for every decision (tests, AI playouts).
    ``chooser`` returns a ``Keep``, an effect id or a die id, as the step asks."""
    while not isinstance(step := next_step(duel), ResolveStep):
        duel = take_step(duel, step, rng, chooser)
    return duel, resolve(duel)


def take_step(duel: Duel, step: Step, rng, chooser) -> Duel:
    """The duel after ``step`` (any but the ResolveStep): its roll made with ``rng``, or
    ``chooser(step)``'s answer given."""
    if isinstance(step, RollStep):
        return roll(duel, step.role, rng)
    if isinstance(step, KeepStep):
        return keep(duel, step.role, chooser(step))
    if isinstance(step, EffectStep):
        return choose_effect(duel, step.role, chooser(step))
    if isinstance(step, ManoeuvreStep):
        return manoeuvre(duel, step.role, chooser(step), rng)
    if not isinstance(step, DiscardStep):
        raise ValueError(f"no step to take at {step}")
    return discard(duel, step.role, chooser(step))
