"""``hard``'s state evaluation tuned by self-play (issue 61, item 3): named features of a state and
weights fitted to game outcomes.

The hand-weighted utility (``utility.py``) adds material, missions and position with weights
chosen by hand. Here each of those terms is a *feature* (mine minus the opponent's), and the
weights come from a logistic regression of who won on the features at every activation end of
cheap easy-v-easy games (``bench/fit_eval.py``; its data in ``data/experiments/``). The fitted
model gives a win probability ``p = sigmoid(w . f)``; the value is ``WIN * (2p - 1)``, so it
stays in the utility's units (a win is ``WIN`` = 20) and the search's ``margin``, ``tie`` and
``z`` keep their meaning, and its mean over sampled worlds is an expected result, not an
expected log-odds (a state already won cannot outweigh two that are lost).

Not ``hard``'s default: ``hard:fitted=true`` (any search agent) turns it on. Measured against
``hard-2026`` it was not stronger in Doubles and weaker in Frontier (docs/ai.md, "A stronger hard"):
a fit of who wins predicts the result better than the hand weights, but ranks moves no better.

The weights are data: ``engine/ai/eval_weights.json``, one entry per ruleset, each with its
feature weights and where they came from. A malformed file is refused with the file, the field
and the reason (``WeightsError``); ``hard`` then falls back to the hand-weighted utility, never
crashes. A state with a mission, when the weights were fitted on games without one (no
``mission`` weight), is valued by the hand-weighted utility too. ``hard-2026`` never reads this module (its utility is frozen in ``hard2026/``).
"""
from __future__ import annotations

import json
import math
from pathlib import Path

from .utility import WIN, DoublesUtility, FrontierUtility

WEIGHTS = Path(__file__).with_name("eval_weights.json")


class WeightsError(ValueError):
    """A weights file that cannot be used: the message names the file, the field and the reason."""


# ------------------------------------------------------------------ features per ruleset
def doubles_features(util: DoublesUtility, st, player: int) -> dict[str, float]:
    """Doubles, mine minus theirs, each fighter weighed by its victory value over the mean:
    ``standing`` (not out of action), ``health`` (health share of those standing), ``ground``
    (standing but on the ground), ``fresh`` (standing and not yet activated this turn: tempo),
    ``standing_late`` (``standing`` times the share of the game's turns played: near the turn
    limit the points decide), ``mission_points`` and ``mission_held`` (the mission terms of
    ``DoublesUtility.mission_value``, split)."""
    R = util.rules
    if not util._scale:
        DoublesUtility.value(util, st, player)   # the hand utility fills the scales once
    f = {"standing": 0.0, "health": 0.0, "ground": 0.0, "fresh": 0.0}
    for k, fi in st.fighters.items():
        if fi.out:
            continue
        s = util._scale.get(k, 1.0) * (1 if fi.side == player else -1)
        f["standing"] += s
        f["health"] += s * max(0, fi.health) / util._max[k]
        f["ground"] += s * (1.0 if fi.on_ground else 0.0)
        f["fresh"] += s * (0.0 if fi.activated else 1.0)
    f["standing_late"] = f["standing"] * min(1.0, st.turn / max(1, R.opts.turn_limit))
    f["mission_points"], f["mission_held"] = 0.0, 0.0
    if st.mission is not None:
        o = 3 - player
        pts = st.mission["points"]
        f["mission_points"] = float(pts[player] - pts[o])
        f["mission_held"] = util.mission_value(st, player) / 0.75 - 2.0 * f["mission_points"]
    return f


def frontier_features(util: FrontierUtility, st, player: int) -> dict[str, float]:
    """Frontier, mine minus theirs: ``standing``, the share of a posse's models still standing,
    ``wounds``, the share of its wounds left (shares, not counts: two posses may differ in size,
    and a count would read the faction, not the game; a rout counts shares too), ``cards`` (the
    strength of the cards in hand and committed, as ``FrontierUtility`` prices them, /10),
    ``position`` (``frontier_position``), ``mission`` (``mission_value``)."""
    n = {1: [0, 0, 0, 0], 2: [0, 0, 0, 0]}     # per player: models, standing, wounds left, most wounds
    for m in st.models.values():
        c = n[m.player]
        c[0] += 1
        c[1] += m.wounds > 0
        c[2] += max(0, m.wounds)
        c[3] += m.max_wounds
    o = 3 - player
    f = {"standing": n[player][1] / max(1, n[player][0]) - n[o][1] / max(1, n[o][0]),
         "wounds": n[player][2] / max(1, n[player][3]) - n[o][2] / max(1, n[o][3])}
    f["cards"] = (util.card_strength(st, player) - util.card_strength(st, 3 - player)) / 10.0
    f["position"] = util.frontier_position(st, player) if util.table is not None and util.policy is not None else 0.0
    f["mission"] = util.mission_value(st, player) if st.mission is not None else 0.0
    return f


FEATURES = {"doubles": doubles_features, "frontier": frontier_features}


# ------------------------------------------------------------------ the weights file
def load_weights(path: Path | str | None = None) -> dict[str, dict[str, float]]:
    """Per ruleset, its feature weights, from ``path``; raises ``WeightsError`` (file, field,
    reason) on anything malformed: not JSON, not an object, a ruleset without ``weights``, a
    weight that is not a finite number, a feature the ruleset does not have."""
    path = Path(path or WEIGHTS)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise WeightsError(f"{path}: cannot read it as JSON ({e})") from None
    if not isinstance(data, dict) or not isinstance(data.get("rulesets"), dict):
        raise WeightsError(f"{path}: field 'rulesets': missing or not an object")
    out: dict[str, dict[str, float]] = {}
    for rs, entry in data["rulesets"].items():
        where = f"rulesets.{rs}"
        if rs not in FEATURES:
            raise WeightsError(f"{path}: field '{where}': no features are defined for ruleset {rs!r}")
        if not isinstance(entry, dict) or not isinstance(entry.get("weights"), dict):
            raise WeightsError(f"{path}: field '{where}.weights': missing or not an object")
        ws: dict[str, float] = {}
        for name, w in entry["weights"].items():
            if name not in FEATURE_NAMES[rs]:
                raise WeightsError(f"{path}: field '{where}.weights.{name}': not a feature of {rs} "
                                   f"(known: {', '.join(FEATURE_NAMES[rs])})")
            if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w):
                raise WeightsError(f"{path}: field '{where}.weights.{name}': {w!r} is not a finite number")
            ws[name] = float(w)
        if not ws:
            raise WeightsError(f"{path}: field '{where}.weights': no weights")
        out[rs] = ws
    return out


FEATURE_NAMES = {
    "doubles": ("standing", "health", "ground", "fresh", "standing_late", "mission_points", "mission_held"),
    "frontier": ("standing", "wounds", "cards", "position", "mission"),
}

_cache: dict[str, dict[str, dict[str, float]] | None] = {}


def weights_for(ruleset: str, path: Path | str | None = None) -> dict[str, float] | None:
    """The fitted weights of ``ruleset`` from the shipped file (read once), or None when it has
    none. A malformed shipped file raises ``WeightsError`` (a test loads it)."""
    key = str(path or WEIGHTS)
    if key not in _cache:
        _cache[key] = load_weights(path)
    return (_cache[key] or {}).get(ruleset)


def win_value(weights: dict[str, float], feats: dict[str, float]) -> float:
    """``WIN * (2 p - 1)`` with ``p = sigmoid(w . f)``: the fitted win probability in utility units."""
    x = sum(w * feats.get(k, 0.0) for k, w in weights.items())
    x = max(-30.0, min(30.0, x))
    return WIN * (2.0 / (1.0 + math.exp(-x)) - 1.0)


class FittedDoublesUtility(DoublesUtility):
    """Doubles with the fitted weights (``weights``: feature -> weight)."""

    def __init__(self, rules, table=None, policy=None, position: float = 0.0, weights=None):
        super().__init__(rules, table, policy, position)
        self.weights = weights or {}

    def value(self, st, player: int) -> float:
        if st.mission is not None and not any(k.startswith("mission") for k in self.weights):
            return super().value(st, player)     # fitted without missions: the hand weights
        return win_value(self.weights, doubles_features(self, st, player))


class FittedFrontierUtility(FrontierUtility):
    """Frontier with the fitted weights."""

    def __init__(self, rules, table=None, policy=None, position: float = 0.0, weights=None):
        super().__init__(rules, table, policy, position)
        self.weights = weights or {}

    def value(self, st, player: int) -> float:
        if st.mission is not None and "mission" not in self.weights:
            return super().value(st, player)     # fitted without missions: the hand weights
        return win_value(self.weights, frontier_features(self, st, player))


FITTED = {"doubles": FittedDoublesUtility, "frontier": FittedFrontierUtility}


def fitted_utility(rules, table, policy, position: float, path: Path | str | None = None):
    """The fitted utility of ``rules``' ruleset, or None when the file has no weights for it."""
    ws = weights_for(rules.id, path)
    cls = FITTED.get(rules.id)
    if ws is None or cls is None:
        return None
    return cls(rules, table, policy, position, weights=ws)
