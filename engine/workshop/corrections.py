"""The generator's coarse-to-full corrections, kept reachable, and its verdict on a target it
could not meet (``generate/search.py``, ``docs/workshop.md``, "Generating a layout").

The chains score layouts on a coarse grid; a layout the coarse grid passes is measured on the
full grid, and the difference (full minus coarse, per figure, per side for a per-side figure) is
added to the coarse figures so the chains aim where the full grid will agree. A mean difference
learnt from the layouts checked can ask for a coarse reading that no layout gives: seed 11 at the
defaults learnt +5.65" of lane from one layout (a diagonal the full grid saw through a gap the
coarse grid missed, 62.0" coarse, 67.7" full), so every later layout had to read 57.35" or less
on the coarse grid, where the lane that hugs a long edge always reads 58"; no layout passed
again, no check ran again, the correction was never learnt anew, and the search ran its 60
rounds (issue 62). So:

- every correction is **clamped to what the coarse grid has shown it can reach**: the range of
  each figure over every layout the chains have held (``note_seen``); a target ``x <= V`` is left
  reachable by the lowest reading seen, ``x >= V`` by the highest (``clamp``);
- and the generator checks a layout on the full grid at least every few rounds even when none
  passes on the coarse grid, so a correction is always learnt again (``generate.CHECK_EVERY``).
"""
from __future__ import annotations

from .targets import PER_SIDE, Target, with_bias


def note_seen(seen: dict, figures: dict) -> None:
    """Widen ``seen`` (figure -> [low, high], per side {side: [low, high]}) by a layout's coarse
    figures; the signed hide difference (side 1 minus side 2) as ``hide_delta``."""
    def widen(slot: dict, key, x):
        if x is None:
            return
        lo_hi = slot.get(key)
        if lo_hi is None:
            slot[key] = [x, x]
        else:
            lo_hi[0], lo_hi[1] = min(lo_hi[0], x), max(lo_hi[1], x)

    for k, v in figures.items():
        if isinstance(v, dict):
            side_slot = seen.setdefault(k, {})
            for s, x in v.items():
                widen(side_slot, s, x)
        elif isinstance(v, (int, float)) and k not in ("points",):
            widen(seen, k, float(v))
    h = figures.get("hide")
    if isinstance(h, dict) and None not in (h.get("1"), h.get("2")):
        widen(seen, "hide_delta", h["1"] - h["2"])


def merge_seen(parts) -> dict:
    """The union of several chains' ranges."""
    out: dict = {}
    for seen in parts:
        for k, v in seen.items():
            if isinstance(v, dict):
                slot = out.setdefault(k, {})
                for s, (lo, hi) in v.items():
                    a = slot.get(s)
                    slot[s] = [lo, hi] if a is None else [min(a[0], lo), max(a[1], hi)]
            else:
                a = out.get(k)
                out[k] = list(v) if a is None else [min(a[0], v[0]), max(a[1], v[1])]
    return out


def _band(t: Target) -> tuple[float, float]:
    tol = t.tolerance()
    lo = t.value - tol if t.op in ("=", ">=") else float("-inf")
    hi = t.value + tol if t.op in ("=", "<=") else float("inf")
    return lo, hi


def _clamp1(b: float, rng, lo: float, hi: float) -> float:
    """``b`` within [lo - highest seen, hi - lowest seen]: some layout seen then reads inside."""
    if rng is None:
        return b
    return min(max(b, lo - rng[1]), hi - rng[0])


def clamp(bias: dict, seen: dict, targets) -> dict:
    """``bias`` with each correction limited so that every target stays reachable on the coarse
    grid by a reading the chains have already shown (see the module note). The hide difference,
    read from the corrected hides, is kept reachable through the corrections' own difference."""
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in bias.items()}
    for t in targets:
        b = out.get(t.metric)
        if b is None:
            continue
        lo, hi = _band(t)
        rng = seen.get(t.metric)
        if isinstance(b, dict):
            out[t.metric] = {s: _clamp1(x, (rng or {}).get(s), lo, hi) for s, x in b.items()}
        elif t.metric not in PER_SIDE:
            out[t.metric] = _clamp1(b, rng, lo, hi)
    hide = out.get("hide")
    diff = next((t for t in targets if t.metric == "hide_diff"), None)
    delta = seen.get("hide_delta")
    if diff is not None and isinstance(hide, dict) and delta is not None and {"1", "2"} <= set(hide):
        _, hi = _band(diff)
        # the corrected difference is |d + (b1 - b2)| for a seen signed difference d
        gap = hide["1"] - hide["2"]
        want = min(max(gap, -hi - delta[1]), hi - delta[0])
        if want != gap:
            mid = (hide["1"] + hide["2"]) / 2
            hide["1"], hide["2"] = mid + want / 2, mid - want / 2
    return out


# ----------------------------------------------------------------------------- the verdict

def _fmt(x) -> str:
    return "-" if x is None else f"{x:.4g}"


def _range_text(rng) -> str:
    if rng is None:
        return "no reading"
    if isinstance(rng, dict):
        return ", ".join(f"side {s} {_fmt(lo)}-{_fmt(hi)}" for s, (lo, hi) in sorted(rng.items()))
    return f"{_fmt(rng[0])}-{_fmt(rng[1])}"


def _reached(t: Target, rng) -> bool:
    """Whether some coarse reading the chains held fell inside ``t`` (each side for a per-side one)."""
    if rng is None:
        return True
    lo, hi = _band(t)
    pairs = rng.values() if isinstance(rng, dict) else [rng]
    return all(a <= hi + 1e-9 and b >= lo - 1e-9 for a, b in pairs)


def verdict(targets, full: dict, coarse: dict, bias: dict, seen: dict, unit: str = "in") -> list[str]:
    """One sentence per target the chosen layout misses on the full grid: which, by how much, and
    why the search did not meet it (never reached on the coarse grid; reached there, but the full
    grid reads otherwise; or reached alone, never with the other targets at once)."""
    out = []
    corrected = with_bias(coarse, bias)
    for t in targets:
        miss = t.worst_miss(full) - t.tolerance()
        if miss <= 1e-9:
            continue
        f = full.get(t.metric)
        shown = ("/".join(_fmt(x) for x in f.values()) if isinstance(f, dict) else _fmt(f))
        head = f"target {t.text()} not met: {shown} on the full grid (missed by {miss:.2f})"
        rng = seen.get("hide_delta" if t.metric == "hide_diff" else t.metric)
        if t.metric == "hide_diff" and rng is not None:
            rng = [min(abs(rng[0]), abs(rng[1])) if rng[0] * rng[1] > 0 else 0.0, max(abs(rng[0]), abs(rng[1]))]
        if not _reached(t, rng):
            why = (f"no layout the chains held reached it on the coarse grid (its readings: "
                   f"{_range_text(rng)}): the catalog, the gaps and the other targets leave no room for it")
        elif t.worst_miss(corrected) <= t.tolerance() + 1e-9:
            c = coarse.get(t.metric)
            cs = "/".join(_fmt(x) for x in c.values()) if isinstance(c, dict) else _fmt(c)
            why = (f"the coarse grid read {cs} (inside, with its correction) and the full grid {shown}: "
                   "a difference the coarse grid cannot see (lines through gaps narrower than its step)")
        else:
            why = (f"layouts reached it on the coarse grid (its readings: {_range_text(rng)}), "
                   "but none together with every other target")
        out.append(f"{head}; {why}")
    return out
