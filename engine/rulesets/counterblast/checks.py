"""Ability checks: one d10 per point of the ability (at most ``dice_cap`` dice), each die
showing the difficulty or more is a success, the count of successes is the result, and a
result of 0 is a failure. Dice showing the explosion number or more (10 unless a rule says
9 or 8) add one more die, which can explode in turn.

Dice are rolled from the game's ``GameRng`` in *waves*: first the whole pool, then one die for
every die of that wave that exploded, and so on until a wave has no explosions. Forced dice in
tests are consumed in exactly that order. Every die is kept in the result, in the order rolled,
so the client can show the dice as they fall.
"""
from __future__ import annotations

from dataclasses import dataclass

from engine.core.rng import GameRng

from .options import DEFAULT_OPTIONS, CounterblastOptions


@dataclass(frozen=True)
class Die:
    value: int
    wave: int          # 0 = the initial pool, 1 = dice added by explosions of wave 0, ...
    success: bool
    exploded: bool     # this die added another die


@dataclass(frozen=True)
class CheckResult:
    ability: int                 # the rating tested (before bonuses and cap)
    pool: int                    # dice actually rolled in wave 0
    difficulty: int
    explode_on: int | None       # None: no explosions for this check
    dice: tuple[Die, ...]
    successes: int
    automatic: bool = False      # result fixed to 0 by a rule (Blind Zap, a passed crew's Moxie)

    @property
    def result(self) -> int:
        return self.successes

    @property
    def success(self) -> bool:
        return self.successes > 0

    @property
    def failed(self) -> bool:
        return self.successes == 0

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(d.value for d in self.dice)

    def record(self, label: str, player: int | None = None) -> dict:
        """The roll as the dice tray draws it (``engine.core.rolls``): each d10, successes against
        the difficulty marked, explosions marked where they rolled on."""
        from engine.core.rolls import roll_record
        marks = [(["success"] if d.success else []) + (["explode"] if d.exploded else []) for d in self.dice]
        result = "automatic 0" if self.automatic else f"{self.successes} success{'es' if self.successes != 1 else ''}"
        return roll_record(label, 10, self.values, marks, target=self.difficulty, result=result, player=player)

    def describe(self) -> str:
        if self.automatic:
            return f"automatic result 0 (no dice) vs {self.difficulty}"
        shown = " ".join(f"{d.value}{'!' if d.exploded else ''}{'*' if d.success else ''}" for d in self.dice)
        ex = f", explode on {self.explode_on}+" if self.explode_on else ""
        return f"{self.pool}d10 vs {self.difficulty}{ex}: [{shown}] = {self.successes}"


def pool_size(ability: int, bonus_dice: int = 0, options: CounterblastOptions = DEFAULT_OPTIONS) -> int:
    """Dice rolled in the first wave: the ability (plus bonus dice) capped at ``dice_cap``."""
    if options.dice_cap_includes_bonus_dice:
        n = min(options.dice_cap, ability + bonus_dice)
    else:
        n = min(options.dice_cap, ability) + bonus_dice
    return max(0, n)


def _check_explode(explode_on: int | None) -> int | None:
    if explode_on is None or explode_on > 10:
        return None
    if explode_on < 2:
        raise ValueError(f"explode_on={explode_on}: every die would explode forever; use 2..10 or None")
    return explode_on


def ability_check(
    rng: GameRng,
    ability: int,
    difficulty: int,
    *,
    explode_on: int | None = 10,
    bonus_dice: int = 0,
    options: CounterblastOptions = DEFAULT_OPTIONS,
    automatic_zero: bool = False,
) -> CheckResult:
    """Roll an ability check: ``ability`` (+``bonus_dice``) d10s vs ``difficulty``.

    ``explode_on`` 10 by default (all checks explode unless a rule says otherwise), 9 or 8
    where a rule allows, ``None`` for a check that does not explode. ``automatic_zero``
    rolls nothing and gives result 0 (Blind Zap checks, a crew that has passed).
    """
    explode_on = _check_explode(explode_on)
    if automatic_zero:
        return CheckResult(ability, 0, difficulty, explode_on, (), 0, automatic=True)
    n = pool_size(ability, bonus_dice, options)
    dice: list[Die] = []
    wave = 0
    to_roll = n
    while to_roll:
        exploded = 0
        for _ in range(to_roll):
            v = rng.d(10)
            ex = explode_on is not None and v >= explode_on
            exploded += ex
            dice.append(Die(v, wave, v >= difficulty, ex))
        to_roll = exploded
        wave += 1
    return CheckResult(ability, n, difficulty, explode_on, tuple(dice), sum(d.success for d in dice))


def roll_off(rng: GameRng, contenders: list[int]) -> tuple[int, list[dict[int, int]]]:
    """Each contender rolls 1d10; the highest wins; those tied for highest roll again.

    Returns the winner and the rounds rolled (contender -> die), for the log.
    """
    if not contenders:
        raise ValueError("roll_off needs at least one contender")
    rounds: list[dict[int, int]] = []
    alive = list(contenders)
    while len(alive) > 1:
        rolls = {c: rng.d(10) for c in alive}
        rounds.append(rolls)
        top = max(rolls.values())
        alive = [c for c in alive if rolls[c] == top]
    return alive[0], rounds
