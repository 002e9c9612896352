"""Force strengths and matchups: what part of a table of pairings one force's change can even out.

A table of default forces gives, per map, each pairing's share (force A's win share against B,
``engine.workshop.stats``). Read as distances from even in points, d(A, B) = 100 * share - 50,
the table splits exactly into two parts:

- **strengths**: one number per force, s(A), with d(A, B) ~ s(A) - s(B) (the least-squares fit,
  strengths summing to zero). Making one force stronger or weaker on every pairing alike moves
  this part only, so it is what re-pricing or re-arming one force can fix.
- **matchups**: what is left, d(A, B) - (s(A) - s(B)): a force doing better against one
  opponent than its strength says (a rock-paper-scissors cycle, a weapon that meets a weakness).
  A change to one force moves this part only if it acts on some opponents more than others.

The two parts are orthogonal, so their summed squares add up to the table's summed squared
distance from even. Sampling alone puts some squared distance in each part even when the forces
are perfectly even: with P pairings of n forces and each cell's variance v, about (n - 1) * v
in the strengths and (P - n + 1) * v in the matchups (``noise``). A part far above its noise
is real.

Distances are in points of share, not log-odds: a linear reading, good near even (every cell of
the shipped tables lies within 25 points of it); with every force playing every other on the map
the strength of A is the mean of its distances over all n forces (the missing self-pairing
counting 0). Over several maps, a force's strength per map splits in turn into its mean over the
maps (what a change that acts on every table alike can move) and each map's departure from it
(a force x table interaction).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from engine.workshop.stats import Z95


@dataclass(frozen=True)
class Cell:
    a: str
    b: str
    share: float                    # A's win share against B, 0..1
    low: float | None = None        # its 95% interval, for the noise figures
    high: float | None = None


@dataclass
class Split:
    forces: list[str]
    strength: dict[str, float]                      # points: s(A)
    fitted: dict[tuple[str, str], float]            # points: s(A) - s(B)
    matchup: dict[tuple[str, str], float]           # points: d(A, B) - fitted
    total: float                                    # sum of d(A, B)^2
    strengths_ss: float                             # sum of fitted^2
    matchups_ss: float                              # sum of matchup^2
    noise: dict[str, float] = field(default_factory=dict)   # expected sums from sampling alone


def split(cells: list[Cell]) -> Split:
    """The least-squares strengths of the forces in ``cells`` (one map) and the matchups left.

    Refuses a table where a pairing appears twice or a force plays itself; a table with missing
    pairings is fitted on the pairings it has (the strengths are then fixed by those alone, and
    a force that meets nobody is refused)."""
    forces = sorted({c.a for c in cells} | {c.b for c in cells})
    seen: set[frozenset] = set()
    for c in cells:
        key = frozenset((c.a, c.b))
        if c.a == c.b:
            raise ValueError(f"{c.a} plays itself")
        if key in seen:
            raise ValueError(f"{c.a} v {c.b} appears twice")
        seen.add(key)
    idx = {f: i for i, f in enumerate(forces)}
    n, p = len(forces), len(cells)
    # rows: one per pairing (s_A - s_B = d), plus the constraint that the strengths sum to zero
    dist = [100.0 * c.share - 50.0 for c in cells]
    x = np.zeros((p + 1, n))
    y = np.zeros(p + 1)
    for r, c in enumerate(cells):
        x[r, idx[c.a]], x[r, idx[c.b]], y[r] = 1.0, -1.0, dist[r]
    x[p, :] = 1.0
    if np.linalg.matrix_rank(x) < n:
        raise ValueError("the pairings do not connect every force")
    s, *_ = np.linalg.lstsq(x, y, rcond=None)
    strength = {f: float(s[idx[f]]) for f in forces}
    fitted, matchup = {}, {}
    for c, d in zip(cells, dist):
        f = strength[c.a] - strength[c.b]
        fitted[(c.a, c.b)] = f
        matchup[(c.a, c.b)] = d - f
    out = Split(forces, strength, fitted, matchup,
                total=float(sum(d * d for d in dist)),
                strengths_ss=float(sum(v * v for v in fitted.values())),
                matchups_ss=float(sum(v * v for v in matchup.values())))
    variances = [cell_variance(c) for c in cells]
    known = [v for v in variances if v is not None]
    if variances and len(known) == len(variances):
        v = float(np.mean(known))
        out.noise = {"strengths": (n - 1) * v, "matchups": (p - n + 1) * v}
    return out


def cell_variance(c: Cell) -> float | None:
    """A cell's sampling variance in points squared, read off its 95% interval (the wider side)."""
    if c.low is None or c.high is None:
        return None
    half = 100.0 * max(c.share - c.low, c.high - c.share)
    return (half / Z95) ** 2


def across_maps(splits: dict[str, Split]) -> dict[str, dict]:
    """Per force: its strength on each map, their mean, and each map's departure from the mean."""
    forces = sorted({f for s in splits.values() for f in s.forces})
    out = {}
    for f in forces:
        per = {m: s.strength[f] for m, s in splits.items() if f in s.strength}
        mean = sum(per.values()) / len(per)
        out[f] = {"maps": per, "mean": mean, "departure": {m: v - mean for m, v in per.items()}}
    return out


def markdown(splits: dict[str, Split]) -> str:
    """The split of each map's table, and the forces' strengths across maps, as Markdown."""
    lines = []
    for label, s in splits.items():
        lines.append(f"\n**{label}**: summed squared distance from even {s.total:.0f} = strengths "
                     f"{s.strengths_ss:.0f} + matchups {s.matchups_ss:.0f}"
                     + (f" (sampling alone: about {s.noise['strengths']:.0f} and {s.noise['matchups']:.0f})"
                        if s.noise else ""))
        lines.append("")
        lines.append("| force | strength (points over an even opponent) |")
        lines.append("|---|---|")
        for f in sorted(s.forces, key=lambda f: -s.strength[f]):
            lines.append(f"| {f} | {s.strength[f]:+.1f} |")
        lines.append("")
        lines.append("| pairing (A v B) | A's distance from even | from strengths | matchup |")
        lines.append("|---|---|---|---|")
        for (a, b), m in s.matchup.items():
            fit = s.fitted[(a, b)]
            lines.append(f"| {a} v {b} | {fit + m:+.1f} | {fit:+.1f} | {m:+.1f} |")
    if len(splits) > 1:
        acr = across_maps(splits)
        labels = list(splits)
        lines.append("")
        lines.append("| force | " + " | ".join(labels) + " | mean over the maps |")
        lines.append("|---|" + "---|" * len(labels) + "---|")
        for f, row in acr.items():
            cells = " | ".join(f"{row['maps'][m]:+.1f}" if m in row["maps"] else "–" for m in labels)
            lines.append(f"| {f} | {cells} | {row['mean']:+.1f} |")
    return "\n".join(lines) + "\n"
