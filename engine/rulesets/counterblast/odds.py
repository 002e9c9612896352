"""Exact odds of checks and attack chains, for the client's odds display and the AI.

One die of a check, with difficulty D and explosions on E, falls into one of four face classes
(counts out of 10 faces):

    c00  no success, no explosion       c10  success, no explosion
    c01  explosion, no success (E < D)  c11  success and explosion

A die that explodes is followed by a fresh die of the same kind, so the probability generating
function G(x) of the successes contributed by one die (with all its descendants) satisfies

    G(x) = (c00 + c10 x)/10 + (c01 + c11 x)/10 * G(x)   =>   G(x) = (c00 + c10 x) / (A - c11 x),
    A = 10 - c01.

A pool of N dice has generating function G(x)^N, whose coefficients have the closed form

    P(S = k) = sum_{j=0}^{min(N,k)} C(N,j) c10^j c00^(N-j) * C(N+k-j-1, k-j) c11^(k-j) / A^(N+k-j)

(binomial numerator times a negative-binomial series). Every coefficient is computed exactly as a
``Fraction``. When c11 > 0 the support is infinite: coefficients are listed from k = 0 upward
until the mass not yet listed is below ``tol`` (1e-12 by default); that remaining mass, exactly
known as 1 - sum, is reported as ``Dist.tail`` and lies entirely above the largest listed value.

Attack chains (Shoot/Strike successes S times weapon damage W = raw damage R; Defense check K
against it; tokens T = max(0, R - K)) use the exact pmf of K up to the largest R needed, since
P(K >= R) = 1 - P(K < R) is a finite sum; only the truncation of S leaves a ``tail``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

from .checks import pool_size
from .options import DEFAULT_OPTIONS, CounterblastOptions

TOL = 1e-12


@dataclass(frozen=True)
class Dist:
    """A distribution over non-negative integers.

    ``pmf`` holds exact probabilities of the listed values; ``tail`` is the exact mass not listed
    (below ``tol``; for a check's successes it belongs to values above ``max(pmf)``).
    """
    pmf: dict[int, Fraction]
    tail: Fraction = Fraction(0)

    def p(self, k: int) -> Fraction:
        return self.pmf.get(k, Fraction(0))

    def at_least(self, k: int) -> Fraction:
        """P(X >= k), counting the tail (exact for a check's successes)."""
        return sum((v for j, v in self.pmf.items() if j >= k), Fraction(0)) + self.tail

    def at_most(self, k: int) -> Fraction:
        return sum((v for j, v in self.pmf.items() if j <= k), Fraction(0))

    def mean(self) -> float:
        return float(sum(j * v for j, v in self.pmf.items()))

    def total(self) -> Fraction:
        return sum(self.pmf.values(), Fraction(0)) + self.tail

    def floats(self) -> dict[int, float]:
        return {k: float(v) for k, v in sorted(self.pmf.items())}


def face_classes(difficulty: int, explode_on: int | None) -> tuple[int, int, int, int]:
    """(c00, c10, c01, c11): faces of a d10 by (success?, explodes?)."""
    if explode_on is not None and explode_on > 10:
        explode_on = None
    if explode_on is not None and explode_on < 2:
        raise ValueError(f"explode_on={explode_on}: every die would explode forever")
    c = [0, 0, 0, 0]
    for v in range(1, 11):
        s = v >= difficulty
        e = explode_on is not None and v >= explode_on
        c[(1 if s else 0) + (2 if e else 0)] += 1
    return c[0], c[1], c[2], c[3]


def _coefficient(n: int, k: int, cls: tuple[int, int, int, int]) -> Fraction:
    c00, c10, c01, c11 = cls
    a = 10 - c01
    total = Fraction(0)
    for j in range(0, min(n, k) + 1):
        m = k - j
        if m and not c11:
            continue
        num = comb(n, j) * c10 ** j * c00 ** (n - j) * (comb(n + m - 1, m) if n else (1 if m == 0 else 0)) * c11 ** m
        if num:
            total += Fraction(num, a ** (n + m))
    return total


def successes_exact(n: int, difficulty: int, explode_on: int | None, upto: int) -> list[Fraction]:
    """Exact P(S = k) for k = 0..upto (no truncation involved)."""
    cls = face_classes(difficulty, explode_on)
    return [_coefficient(n, k, cls) for k in range(upto + 1)]


def check_dist(n: int, difficulty: int, explode_on: int | None = 10, tol: float = TOL) -> Dist:
    """Distribution of the successes of ``n`` dice vs ``difficulty``, exploding on ``explode_on``.

    ``n`` is the pool actually rolled (already capped: see ``check_odds``).
    """
    if n < 0:
        raise ValueError("a pool cannot have fewer than 0 dice")
    cls = face_classes(difficulty, explode_on)
    pmf: dict[int, Fraction] = {}
    acc = Fraction(0)
    limit = Fraction(tol)
    finite = cls[3] == 0
    k = 0
    while True:
        v = _coefficient(n, k, cls)
        if v:
            pmf[k] = v
        acc += v
        rest = 1 - acc
        if finite and k >= n:
            return Dist(pmf, Fraction(0))
        if not finite and rest < limit:
            return Dist(pmf, rest)
        k += 1


def check_odds(ability: int, difficulty: int, *, bonus_dice: int = 0, explode_on: int | None = 10,
               options: CounterblastOptions = DEFAULT_OPTIONS, tol: float = TOL) -> Dist:
    """``check_dist`` for an ability rating, applying the dice cap like ``ability_check``."""
    return check_dist(pool_size(ability, bonus_dice, options), difficulty, explode_on, tol)


def scale(d: Dist, factor: int) -> Dist:
    """X * factor (successes times weapon damage)."""
    if factor == 0:
        return Dist({0: d.total()})
    return Dist({k * factor: v for k, v in d.pmf.items()}, d.tail)


def tokens_after_defense(raw: Dist, defense_dice: int, defense_difficulty: int = 7,
                         explode_on: int | None = 10) -> Dist:
    """Damage tokens T = max(0, R - K) for raw damage R and a Defense check K of ``defense_dice``."""
    top = max(raw.pmf, default=0)
    k_pmf = successes_exact(defense_dice, defense_difficulty, explode_on, top)
    k_below = [Fraction(0)] * (top + 2)     # k_below[r] = P(K < r)
    for r in range(1, top + 2):
        k_below[r] = k_below[r - 1] + k_pmf[r - 1]
    out: dict[int, Fraction] = {}
    for r, pr in raw.pmf.items():
        if r == 0:
            out[0] = out.get(0, Fraction(0)) + pr
            continue
        out[0] = out.get(0, Fraction(0)) + pr * (1 - k_below[r])
        for t in range(1, r + 1):
            q = k_pmf[r - t]
            if q:
                out[t] = out.get(t, Fraction(0)) + pr * q
    return Dist({k: v for k, v in out.items() if v}, raw.tail)


@dataclass(frozen=True)
class DamageOutcome:
    """What a distribution of new damage tokens does to a model with ``mettle`` and ``tokens``."""
    unharmed: Fraction        # no new token
    down: Fraction            # ends Down (Mettle <= tokens <= 2 x Mettle), not a casualty
    casualty: Fraction        # ends with more than 2 x Mettle tokens
    tail: Fraction            # unlisted mass (< tol), not counted in the three above

    @property
    def down_or_worse(self) -> Fraction:
        return self.down + self.casualty


def damage_outcome(tokens_dealt: Dist, mettle: int, current_tokens: int = 0) -> DamageOutcome:
    down = cas = Fraction(0)
    for t, p in tokens_dealt.pmf.items():
        after = current_tokens + t
        if after > 2 * mettle:
            cas += p
        elif after >= mettle:
            down += p
    return DamageOutcome(tokens_dealt.p(0), down, cas, tokens_dealt.tail)


@dataclass(frozen=True)
class AttackOdds:
    successes: Dist
    raw: Dist
    tokens: Dist
    outcome: DamageOutcome | None = field(default=None)


def attack_odds(attack_dice: int, difficulty: int, weapon_damage: int, defense_dice: int, *,
                defense_difficulty: int = 7, explode_on: int | None = 10,
                defense_explode_on: int | None = 10, mettle: int | None = None,
                current_tokens: int = 0, tol: float = TOL) -> AttackOdds:
    """The usual chain: a Shoot/Strike check, x weapon damage, then the target's Defense.

    ``attack_dice`` and ``defense_dice`` are pools as rolled (capped, cover and Parry dice
    already added: see ``damage.defense_pool``). With ``mettle``, also the Down/casualty odds.
    """
    s = check_dist(attack_dice, difficulty, explode_on, tol)
    raw = scale(s, weapon_damage)
    tokens = tokens_after_defense(raw, defense_dice, defense_difficulty, defense_explode_on)
    outcome = damage_outcome(tokens, mettle, current_tokens) if mettle is not None else None
    return AttackOdds(s, raw, tokens, outcome)
