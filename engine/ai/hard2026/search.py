"""``hard-2026``: the ``hard`` agent as of 2026-12 (commit b7013c0), kept as a fixed reference
(issue 61: every later level is measured against a fixed opponent).

This module is a copy of ``engine/ai/search.py`` as it stood at b7013c0, with ``hard``'s
parameters as its own defaults (``Hard2026Params``) and the state evaluation read from the copy
beside it (``hard2026/utility.py``, a copy of ``engine/ai/utility.py`` at b7013c0) with the
decision kinds each ruleset left to easy then (``FROZEN``). Later changes to ``search.py``,
``utility.py`` or a policy's ``trusted`` kinds do not reach it. Do not improve it: a change here
moves the reference (``tests/test_ai_hard_2026.py`` holds its games to hard's hashes of that day).

Shared, not frozen: ``easy`` (its pick is the first candidate and it plays every playout), the
deployment placement (``engine/ai/deploy.py``), ``Game.sample_world`` and the rules themselves.
A change to those changes ``hard-2026``'s games as it changes ``easy``'s (docs/ai.md, "The
fixed reference").

What follows is search.py's own description, unchanged.

The search agents ``normal`` and ``hard``: truncated look-ahead over sampled worlds.

For a decision with more than one answer:

1. ``easy`` (the greedy agent, ``easy.py``) gives its pick; that pick is always a candidate.
2. The other enumerated options are ranked by a short look (each applied on one sampled world,
   played on by ``easy`` for both sides until this player's next decision, scored by the
   utility below) and the best ``k - 1`` join the candidates. A move space is searched only
   through easy's own point: the other candidates are the decision's enumerated options
   (hold, stay, a ready-made charge...).
3. Rounds: each round draws one world (``Agent.worlds``, bound by the simulator and the client:
   ``Game.sample_world`` -- the same view, with the dice to come, the opponent's cards and the
   deck orders drawn anew), and for every candidate plays it on a copy of that world (the same
   world and the same dice for every candidate: common random numbers), then lets ``easy`` play
   both sides to the end of the current activation (``depth=1``; ``depth=2`` also plays the
   activation after it), at most ``steps`` decisions. The resulting state is scored by the
   utility: material and position in each ruleset's own terms (below), plus a win or a loss.
4. Rounds go on while the time ``budget`` (seconds) lasts, or exactly ``iters`` rounds when
   ``iters`` > 0 (deterministic: the tests use it). The candidate with the best mean wins;
   easy's pick keeps the decision unless another beats it by ``margin``.

A whole activation is one step of the search (a macro-action): the candidate is the first
choice, ``easy`` plays the rest of it and the reply.

Honesty: the agent reads only the Decision, its view, the static table and rules (``attach``)
and the worlds it samples. A world is built from what this player sees plus the agent's own RNG
(``Rules.determinize``), so no decision can depend on the opponent's real hand, the real deck
order or the real dice to come (``tests/test_ai_search.py`` holds the view fixed, changes the
hidden state and checks the answer stays the same).

Parameters: ``make_agent("hard-2026:budget=0.2")``; see ``Hard2026Params`` (types, bounds, meaning).
"""
from __future__ import annotations

import copy
import random
import time
from typing import TYPE_CHECKING

from pydantic import Field

from engine.core.collector import fewer_collections
from engine.core.protocol import Choice, Decision

from ..base import Agent, NoParams, register_agent
from ..easy import EasyAgent, fallback, policy_class
from .utility import FROZEN, Utility

if TYPE_CHECKING:
    from ..utility import Utility as BaseUtility

# The budget's clock. By default the agent's own CPU time (this thread's), not the wall clock:
# on a loaded machine (a simulation beside other jobs) the search still gets the rounds its
# budget buys, so its strength does not depend on what else runs; on a quiet machine the two
# are the same. The client counts wall time instead (``Hard2026Agent.time_from``): in the window
# the budget is a promise about when the answer is on screen (docs/ai.md, "In the window").
clock = time.thread_time

def segment_key(st) -> tuple:
    """Changes when an activation ends: the turn, the active player, Doubles' acting fighter,
    Counterblast's activation count."""
    return (st.turn, st.active, getattr(st, "acting", None), getattr(st, "activations", None))


# ------------------------------------------------------------------ parameters
class Hard2026Params(NoParams):
    """``hard``'s parameters and defaults as of b7013c0 (``SearchParams`` with ``HardParams``'
    budget, k and depth). Utility units are about a wound (a win is 20), so the bounds on margin,
    tie, z and position are far past any useful value."""
    budget: float = Field(0.8, gt=0, le=600, description="CPU seconds of search per decision")
    iters: int = Field(0, ge=0, le=100_000, description="> 0: exactly this many rounds, no clock")
    k: int = Field(4, ge=1, le=100, description="candidates searched")
    depth: int = Field(2, ge=1, le=10, description="activations played after the candidate")
    steps: int = Field(40, ge=1, le=100_000, description="most decisions in one playout")
    prefilter: int = Field(24, ge=1, le=10_000, description="most other options ranked by a short look")
    margin: float = Field(0.05, ge=0, le=100, description="utility another candidate must beat easy's pick by")
    settle: int = Field(4, ge=2, le=100_000, description="rounds before the search may stop early")
    tie: float = Field(0.25, ge=0, le=100, description="indifference zone of the early stop, in utility units")
    z: float = Field(1.0, ge=0, le=100, description="standard errors a change from easy's pick needs")
    position: float = Field(0.3, ge=0, le=100, description="weight of a ruleset's position term (Frontier's)")


# ------------------------------------------------------------------ the agent
@register_agent
class Hard2026Agent(Agent):
    """``hard-2026``: the hard agent as of 2026-12, a fixed reference (0.8 s, 4 candidates,
    through the reply's activation)."""
    name = "hard-2026"
    Params = Hard2026Params
    params: Hard2026Params

    def __init__(self, player: int, seed: int = 0, params: Hard2026Params | None = None):
        super().__init__(player, seed, params)
        p = self.params     # checked against ``Params`` (types and bounds) by ``check_agent``
        self.budget = p.budget
        self.iters = p.iters
        self.k = p.k
        self.depth = p.depth
        self.steps = p.steps
        self.prefilter = p.prefilter
        self.margin = p.margin
        self.settle = p.settle     # rounds before the search may stop early
        self.tie = p.tie
        self.z = p.z               # standard errors a change from easy's pick needs
        self.position = p.position  # weight of a ruleset's position term (Frontier's)
        self.easy = EasyAgent(player, self.rng.getrandbits(32))
        self.roll = {q: EasyAgent(q, self.rng.getrandbits(32)) for q in (1, 2)}
        self.utility: Utility | BaseUtility | None = None   # FROZEN's, else the policy's own
        self.trusted: tuple[str, ...] = ()    # decision kinds left to easy (``Policy.trusted``)
        self.clock = clock          # the budget's clock (``time_from``)
        self.grace = 0.2            # a first round's playouts may run this share past the budget
        self._since: float | None = None
        self.last_error = ""
        self.stats = {"decisions": 0, "searched": 0, "rounds": 0, "playouts": 0, "changed": 0,
                      "errors": 0, "fallbacks": 0, "cut": 0, "settled": 0,
                      "search_seconds": 0.0}

    def attach(self, table, rules) -> None:
        super().attach(table, rules)
        self.easy.attach(table, rules)
        for a in self.roll.values():
            a.attach(table, rules)
        pol = self.easy.policy({"ruleset": rules.id})
        ruleset_policy = policy_class(rules)     # the ruleset's utility and trusted kinds
        if hasattr(pol, "model_cards"):
            # Frontier's cards: the search agents' own pick models the opponent's card as the
            # one it would choose from a hand dealt from the cards it may hold (easy_frontier's
            # ``opponent_plays``); the playouts keep plain easy on both sides
            pol.model_cards = True
        # the utility and the kinds left to easy as they were at b7013c0; a policy that did not
        # exist then brings its own
        utility, trusted = FROZEN.get(ruleset_policy.__name__, (ruleset_policy.Utility, ruleset_policy.trusted))
        self.utility = utility(rules, table, pol, self.position)
        self.trusted = trusted

    # -------------------------------------------------------------- memory (Counterblast's easy)
    def _memory(self):
        pol = self.easy._policy
        return getattr(pol, "activated", None)

    def _remember(self, view: dict, pick: Choice, final: Choice) -> None:
        """Easy remembers the model it picked to activate; when the search plays another, the
        memory must say so."""
        act = self._memory()
        if act is None or final == pick:
            return
        done = act.setdefault(view.get("turn"), {})
        # the class name stands for an isinstance test (this frozen copy keeps it as it was)
        if type(pick).__name__ == "ActivateSingle" and done.get(pick.model):  # type: ignore[attr-defined]
            done[pick.model] -= 1  # type: ignore[attr-defined]
        if type(final).__name__ == "ActivateSingle":
            done[final.model] = done.get(final.model, 0) + 1  # type: ignore[attr-defined]

    def _prime_rollouts(self) -> None:
        mine = self._memory()
        for q, a in self.roll.items():
            pol = a._policy
            if pol is not None and hasattr(pol, "activated"):
                pol.activated = copy.deepcopy(mine) if (q == self.player and mine is not None) else {}

    # -------------------------------------------------------------- choosing
    def time_from(self, since: float, wall=time.monotonic) -> None:
        """Count the budget in wall time (``wall``, from now on) and the next decision's from
        ``since``, a moment on that clock: when the window asked, so the time its request took to
        arrive counts too; a first round's playouts stop at the budget, not 20% past it. The
        client calls it before each decision; a simulation never does (its budget stays the
        agent's own CPU time, whatever the load)."""
        self.clock, self._since, self.grace = wall, since, 0.0

    def choose(self, decision: Decision, view: dict) -> Choice:
        self.stats["decisions"] += 1
        since, self._since = self._since, None
        if len(decision.options) == 1 and not decision.spaces:
            return decision.options[0]
        t0 = self.clock() if since is None else since   # the budget counts easy's own pick too
        pick = self.easy.choose(decision, view)
        self.reason = getattr(self.easy, "reason", "")
        if self.worlds is None or self.utility is None or self.rules is None:
            return pick
        if decision.kind in self.trusted or decision.kind == "deploy":
            return pick     # a deployment is easy's scoring of spots (engine/ai/deploy.py), not searched
        for a in self.roll.values():
            a.policy({"ruleset": view.get("ruleset")})
        easy_reason = getattr(self.easy, "reason", "")
        with fewer_collections():      # a search makes many short-lived copies (the client too)
            final = self.search(decision, pick, t0)
        self.stats["search_seconds"] += self.clock() - t0
        self._remember(view, pick, final)
        if final != pick:
            self.stats["changed"] += 1
            self.reason = "a look-ahead over sampled worlds found this better than the first idea"
        else:
            self.reason = easy_reason + ("; the look-ahead agreed" if easy_reason else "")
        return final

    def _world(self, seed: int):
        return self.worlds(random.Random(seed))  # type: ignore[misc]  # bound by bind_worlds before the first choose

    def search(self, decision: Decision, pick: Choice, t0: float) -> Choice:
        others = [o for o in decision.options if o != pick]
        if not others or self.k <= 1:
            return pick
        timed = self.iters <= 0
        deadline = t0 + self.budget
        late = deadline + self.grace * self.budget   # a playout still running then stops where it is
        clock = self.clock
        if timed and clock() >= deadline:
            return pick       # easy's pick (or, in the window, the wait for it) took the budget
        self.stats["searched"] += 1
        cands = [pick]
        if len(others) <= self.k - 1:
            cands += others
        else:
            w0 = self._world(self.rng.getrandbits(64))
            key = segment_key(w0.state)
            ranked: list[tuple] = []
            for i, o in enumerate(others[:self.prefilter]):
                if timed and ranked and clock() - t0 >= 0.4 * self.budget:
                    break  # the time budget: rank what was looked at, keep time for the rounds
                val = self._playout(w0, o, key, depth=1, until_mine=True, stop_at=late if timed else None)
                ranked.append((-val, i, o))
            ranked.sort(key=lambda t: (t[0], t[1]))
            cands += [o for _, _, o in ranked[:self.k - 1]]
        sums = [0.0] * len(cands)
        scores: list[list[float]] = []
        rounds = 0
        t_rounds = clock()
        while True:
            if not timed:
                if rounds >= self.iters:
                    break
            elif rounds >= self.settle and self._settled(scores):
                self.stats["settled"] += 1
                break
            elif rounds > 0:
                now = clock()
                # stop when the budget is spent, or when another round like the ones so far
                # would end well past it
                if now >= deadline or now + 0.5 * (now - t_rounds) / rounds > deadline:
                    break
            w0 = self._world(self.rng.getrandbits(64))
            key = segment_key(w0.state)
            part: list | None = []
            for c in cands:
                if timed and rounds > 0 and clock() > deadline:
                    part = None   # out of time inside a round: that round does not count
                    break
                # a list here (None only just before the break above): mypy widens it in the loop
                part.append(self._playout(w0, c, key, depth=self.depth,  # type: ignore[union-attr]
                                          stop_at=late if timed and rounds == 0 else None))
            if part is None:
                break
            sums = [a + b for a, b in zip(sums, part)]
            scores.append(part)
            rounds += 1
        self.stats["rounds"] += rounds
        means = [s / rounds for s in sums]
        best = max(range(len(cands)), key=lambda i: (means[i] + (self.margin if i == 0 else 0.0), -i))
        if best != 0 and self.z > 0 and not self._beats_pick(scores, best):
            return pick
        return cands[best]

    def _beats_pick(self, scores: list[list[float]], i: int) -> bool:
        """Easy's pick gives way only to evidence: candidate ``i`` must beat it by ``margin`` plus
        ``z`` standard errors of the paired difference over the rounds played (one round
        gives no error estimate, so no change). Few noisy rounds (a loaded machine, Frontier's
        long playouts) then leave easy's answer alone instead of following the noise."""
        r = len(scores)
        if r < 2:
            return False
        diffs = [row[i] - row[0] for row in scores]
        mean = sum(diffs) / r
        var = sum((d - mean) ** 2 for d in diffs) / (r - 1)
        return mean > self.margin + self.z * (var / r) ** 0.5

    def _settled(self, scores: list[list[float]]) -> bool:
        """True when more rounds are unlikely to find a better answer (an indifference zone):
        against the leader (easy's pick counted with its ``margin``), no other candidate can be
        better by more than ``tie`` (utility units, about a wound) at two standard errors of the
        paired difference (the same worlds for every candidate, so the pairing takes most of
        the dice noise out). Only with a time budget; ``iters`` rounds are exact."""
        r = len(scores)
        n = len(scores[0])
        means = [sum(row[i] for row in scores) / r + (self.margin if i == 0 else 0.0) for i in range(n)]
        lead = max(range(n), key=lambda i: (means[i], -i))
        for i in range(n):
            if i == lead:
                continue
            diffs = [row[lead] - row[i] for row in scores]
            mean = sum(diffs) / r + (self.margin if lead == 0 else 0.0) - (self.margin if i == 0 else 0.0)
            var = sum((d - sum(diffs) / r) ** 2 for d in diffs) / (r - 1)
            se = (var / r) ** 0.5
            if mean - 2.0 * se <= -self.tie:
                return False

        return True

    def _roll_choice(self, d: Decision, w) -> Choice:
        """Easy's answer for whoever decides in the world. A state easy never leads to itself
        (a random or human opponent's half-played group activation) may be one its policy
        does not handle: then the plain fallback answers (counted in ``stats["fallbacks"]``)."""
        v = w.rules.view(w.state, d.player, drawing=False)   # agents never read the client's pieces
        v["log"] = []
        agent = self.roll[d.player]
        try:
            return agent.choose(d, v)
        except Exception:
            self.stats["fallbacks"] += 1
            return fallback(d, agent.rng)

    def _playout(self, root, choice: Choice, key: tuple, depth: int, until_mine: bool = False,
                 stop_at: float | None = None) -> float:
        """Play ``choice`` on a copy of world ``root``, then easy for both sides until ``depth``
        activation ends (or this player's next decision with ``until_mine``, or the clock passes
        ``stop_at``), and score the state. An exception inside the look-ahead scores the root
        world as it was."""
        self.stats["playouts"] += 1
        clock = self.clock
        self._prime_rollouts()
        w = root.clone()
        w.keep_labels = False     # a roll-out reads labels only while their decision is pending
        try:
            w.submit(self.player, choice)
            ends, n = 0, 0
            while n < self.steps:
                d = w.pending()
                if d is None:
                    break
                k = segment_key(w.state)
                if k != key:
                    ends += 1
                    key = k
                    if ends >= depth:
                        break
                if until_mine and d.player == self.player:
                    break
                if stop_at is not None and clock() > stop_at:
                    self.stats["cut"] += 1
                    break
                w.submit(d.player, self._roll_choice(d, w))
                n += 1
        except Exception as err:  # an engine refusal inside a look-ahead must not stop the real game
            self.stats["errors"] += 1
            self.last_error = f"{type(err).__name__}: {err}"
            return self.utility(root, self.player)  # type: ignore[misc]  # set by attach before any search
        return self.utility(w, self.player)  # type: ignore[misc]
