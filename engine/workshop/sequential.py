"""The balancer's keep rule: a sequential probability ratio test on paired game outcomes (issue 62).

A candidate plays the incumbent's seeds (the same game indices: the same dice and cards wherever
the change does not come into play). Pair game ``i`` of the incumbent with game ``i`` of the
candidate, both decisive. A pair whose winners agree says nothing about the change; a
**discordant** pair does: the candidate turned a zone-1 win into a zone-2 win, or the reverse.
Call a discordant pair *helpful* when it moves the table toward 50% (toward zone 2 when the
incumbent favours zone 1). With no effect, a discordant pair is helpful with probability 1/2
(McNemar's test on paired binary outcomes, McNemar 1947, Psychometrika 12:153-157); we test

    H0: p = 1/2 (the change does not help)   against   H1: p = p1 (> 1/2, it helps)

with Wald's sequential probability ratio test (Wald 1945, "Sequential tests of statistical
hypotheses", Ann. Math. Statist. 16:117-186): after each stage of games the log-likelihood ratio
of the discordant pairs so far,

    LLR = h * ln(2 p1) + u * ln(2 (1 - p1))        (h helpful, u unhelpful pairs),

is compared with Wald's bounds ``ln((1 - beta) / alpha)`` (keep: accept H1) and
``ln(beta / (1 - alpha))`` (drop: accept H0); in between, more games are played, up to the
candidate's maximum, where an undecided candidate is dropped (truncation only lowers the
chance of a false keep). ``alpha`` is the false-keep rate of one candidate; a step that tests
``k`` candidates gives each ``alpha / k`` (Bonferroni), so the chance that a step keeps a change
that does not help is at most about ``alpha`` (Wald's bounds hold the error rates approximately:
``alpha' <= alpha / (1 - beta)``; ``bench/balance.py false-keep`` measures the rate of the whole
rule on a table where no change can help).

A kept candidate must also not overshoot: the paired model's change ``d`` of the log-odds must
bring them nearer 0 (``gain_of(b, d) > 0``), since a change that turns 60% into 30% is
"helpful" pair by pair and still worse.
"""
from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Sprt:
    alpha: float = 0.05      # false-keep rate of a step (split among its candidates)
    beta: float = 0.2        # chance of dropping a change whose discordant pairs help at p1
    p1: float = 0.6          # the helpful share of discordant pairs H1 names

    def bounds(self, tests: int = 1) -> tuple[float, float]:
        """(drop bound, keep bound) of the LLR for one of ``tests`` candidates."""
        a = self.alpha / max(1, tests)
        return math.log(self.beta / (1 - a)), math.log((1 - self.beta) / a)

    def llr(self, helpful: int, unhelpful: int) -> float:
        return helpful * math.log(2 * self.p1) + unhelpful * math.log(2 * (1 - self.p1))

    def decide(self, helpful: int, unhelpful: int, tests: int = 1) -> str | None:
        """"keep", "drop" or None (play more)."""
        lo, hi = self.bounds(tests)
        x = self.llr(helpful, unhelpful)
        if x >= hi:
            return "keep"
        if x <= lo:
            return "drop"
        return None


def pairs(incumbent: list[dict], candidate: list[dict], toward_zone: int) -> tuple[int, int, int]:
    """(helpful, unhelpful, paired) over the games both maps played at the same index, both
    decisive. ``toward_zone``: the zone whose wins move the table toward 50% (2 when the incumbent
    favours zone 1)."""
    inc = {int(r["index"]): r.get("winner_zone", r.get("winner")) for r in incumbent if not r.get("error")}
    helpful = unhelpful = paired = 0
    for r in candidate:
        if r.get("error"):
            continue
        i = int(r["index"])
        a, b = inc.get(i), r.get("winner_zone", r.get("winner"))
        if a is None or b is None:
            continue
        paired += 1
        if a != b:
            if b == toward_zone:
                helpful += 1
            else:
                unhelpful += 1
    return helpful, unhelpful, paired


def toward(b: float) -> int:
    """The zone whose wins move the log-odds ``b`` (zone 1's) toward 0."""
    return 2 if b > 0 else 1
