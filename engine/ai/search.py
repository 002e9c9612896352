"""The search agents ``normal`` and ``hard``: truncated look-ahead over sampled worlds.

For a decision with more than one answer:

1. ``easy`` (the greedy agent, ``easy.py``) gives its pick; that pick is always a candidate.
2. The other enumerated options are ranked by a short look (each applied on one sampled world,
   played on by ``easy`` for both sides until this player's next decision, scored by the
   utility below) and the best ``k - 1`` join the candidates. When easy's pick is a point of a
   move space, up to ``moves`` other destinations it scored nearly as well join them too (an
   inch apart at least); with ``moves`` 0 a move space is searched only through easy's point.
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

Since 2026-12-07 (issue 61, items 3-4): ``race`` > 0 races the candidates, dropping a hopeless
challenger for the next ranked option (progressive widening; off by default, not shown to help);
in Frontier the worlds and the agent's own easy keep the cards it saw go to the discard
(``frontier_belief.CardMemory``). Since 2026-12-08 (issue 61): ``moves`` > 0 adds the destinations
easy scored nearly as well as its own point (``Policy.runners_up``) as candidates, so a move space
is searched beyond easy's point; ``hard``'s defaults are k 3, moves 3, depth 2 and Frontier's
movement phase searched (``hard-2026``: k 4, depth 2, no other destination, the phase easy's).

Honesty: the agent reads only the Decision, its view, the static table and rules (``attach``)
and the worlds it samples. A world is built from what this player sees plus the agent's own RNG
(``Rules.determinize``), so no decision can depend on the opponent's real hand, the real deck
order or the real dice to come (``tests/test_ai_search.py`` holds the view fixed, changes the
hidden state and checks the answer stays the same).

Parameters: ``make_agent("hard:budget=2.0,k=5")``; see ``SearchParams`` (types, bounds, meaning).
"""
from __future__ import annotations

import copy
import logging
import random
import time

from pydantic import Field

from engine.core.collector import fewer_collections
from engine.core.protocol import Choice, Decision

from .base import Agent, NoParams, register_agent
from .easy import EasyAgent, fallback, policy_class
from .fitted import WeightsError, fitted_utility
from .frontier_belief import CardMemory
from .utility import Utility

# The budget's clock. By default the agent's own CPU time (this thread's), not the wall clock:
# on a loaded machine (a simulation beside other jobs) the search still gets the rounds its
# budget buys, so its strength does not depend on what else runs; on a quiet machine the two
# are the same. The client counts wall time instead (``SearchAgent.time_from``): in the window
# the budget is a promise about when the answer is on screen (docs/ai.md, "In the window").
clock = time.thread_time
log = logging.getLogger("skirmish.ai")

def segment_key(st) -> tuple:
    """Changes when an activation ends: the turn, the active player, Doubles' acting fighter,
    Counterblast's activation count."""
    return (st.turn, st.active, getattr(st, "acting", None), getattr(st, "activations", None))


# ------------------------------------------------------------------ parameters
# The fields ``hard`` gives other defaults: each declared once, its default the argument.
def _budget(v: float):
    return Field(v, gt=0, le=600, description="CPU seconds of search per decision")


def _k(v: int):
    return Field(v, ge=1, le=100, description="candidates searched at once (live) among easy's pick and the options")


def _depth(v: int):
    return Field(v, ge=1, le=10, description="activations played after the candidate (2: through the reply)")


def _moves(v: int):
    return Field(v, ge=0, le=20, description="other destinations easy nearly chose, searched beside its own "
                 "move (0: none, a move space searched only through easy's point)")


def _searched(v: str):
    return Field(v, max_length=200, description="decision kinds searched though the ruleset leaves them to easy, "
                 "joined by '+' (Frontier's movement phase, 'move')")


class SearchParams(NoParams):
    """``normal``'s parameters (docs/ai.md, "Search agents"). Utility units are about a wound
    (a win is 20), so the bounds on margin, tie, z and position are far past any useful value."""
    budget: float = _budget(0.25)
    iters: int = Field(0, ge=0, le=100_000, description="> 0: exactly this many rounds, no clock")
    k: int = _k(3)
    depth: int = _depth(1)
    steps: int = Field(40, ge=1, le=100_000, description="most decisions in one playout")
    prefilter: int = Field(24, ge=1, le=10_000, description="most other options ranked by a short look")
    margin: float = Field(0.05, ge=0, le=100, description="utility another candidate must beat easy's pick by")
    settle: int = Field(4, ge=2, le=100_000, description="rounds before the search may stop early")
    tie: float = Field(0.25, ge=0, le=100, description="indifference zone of the early stop, in utility units")
    z: float = Field(1.0, ge=0, le=100, description="standard errors a change from easy's pick needs")
    position: float = Field(0.3, ge=0, le=100, description="weight of a ruleset's position term (Frontier's)")
    race: int = Field(0, ge=0, le=100_000, description="> 0: rounds before a hopeless challenger is dropped for the next option (0: never)")
    drop_z: float = Field(1.0, ge=0, le=100, description="standard errors above its paired mean a challenger may still reach")
    rank_share: float = Field(0.4, gt=0, le=1, description="most share of a time budget spent ranking the other options")
    moves: int = _moves(0)
    searched: str = _searched("")
    fitted: bool = Field(False, description="value states with the self-play-fitted weights (engine/ai/fitted.py) "
                         "where a ruleset has them (off: not shown to help, docs/ai.md 'A stronger hard')")


class HardParams(SearchParams):
    """``hard``: a longer search than ``normal``'s. Since 2026-12-08 (issue 61, item 3) it plays
    easy's pick, 2 other options and 3 other destinations easy nearly chose (``moves``), each
    through the reply (``depth`` 2), and searches Frontier's movement phase too (``searched``):
    a destination's worth shows only when the enemy answers it. The measured figures are in
    docs/ai.md, "Other destinations" (racing, ``race``, is there too: not shown to help, so off)."""
    budget: float = _budget(0.8)
    k: int = _k(3)
    depth: int = _depth(2)
    moves: int = _moves(3)
    searched: str = _searched("move")


# ------------------------------------------------------------------ the agent
@register_agent
class SearchAgent(Agent):
    """``normal``: a short search (0.25 s, 3 candidates, to the end of the activation)."""
    name = "normal"
    Params = SearchParams
    params: SearchParams

    def __init__(self, player: int, seed: int = 0, params: SearchParams | None = None):
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
        self.race, self.drop_z, self.rank_share = p.race, p.drop_z, p.rank_share
        self.fitted = p.fitted
        self.moves = p.moves
        self.easy = EasyAgent(player, self.rng.getrandbits(32))
        self.roll = {q: EasyAgent(q, self.rng.getrandbits(32)) for q in (1, 2)}
        self.utility: Utility | None = None
        self.memory: CardMemory | None = None   # Frontier's cards seen going to the discard
        self.trusted: tuple[str, ...] = ()    # decision kinds left to easy (``Policy.trusted``)
        self.clock = clock          # the budget's clock (``time_from``)
        self.grace = 0.2            # a first round's playouts may run this share past the budget
        self._since: float | None = None
        self.last_error = ""
        self.stats = {"decisions": 0, "searched": 0, "rounds": 0, "playouts": 0, "changed": 0,
                      "errors": 0, "fallbacks": 0, "cut": 0, "settled": 0, "dropped": 0,
                      "search_seconds": 0.0}

    def attach(self, table, rules) -> None:
        super().attach(table, rules)
        self.easy.attach(table, rules)
        for a in self.roll.values():
            a.attach(table, rules)
        pol = self.easy.policy({"ruleset": rules.id})
        pol.keep_runners = self.moves > 0    # the destinations ``_destinations`` reads
        ruleset_policy = policy_class(rules)     # the ruleset's utility and trusted kinds
        self.memory = CardMemory() if rules.id == "frontier" else None
        if self.memory is not None and hasattr(pol, "gone"):
            pol.gone = self.memory.gone      # the opponent model deals no card seen going to the discard
        if hasattr(pol, "model_cards"):
            # Frontier's cards: the search agents' own pick models the opponent's card as the
            # one it would choose from a hand dealt from the cards it may hold (easy_frontier's
            # ``opponent_plays``); the playouts keep plain easy on both sides
            pol.model_cards = True
        self.utility = ruleset_policy.Utility(rules, table, pol, self.position)
        if self.fitted:
            try:
                self.utility = fitted_utility(rules, table, pol, self.position) or self.utility
            except WeightsError as err:    # a broken weights file: the hand-weighted utility, said
                self.last_error = str(err)
                log.warning("fitted evaluation not used: %s", err)
        self.trusted = tuple(k for k in ruleset_policy.trusted if k not in self.params.searched.split("+"))

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

        def members(c):       # the models a single or group activation activates
            return getattr(c, "models", None) or ((c.model,) if type(c).__name__ == "ActivateSingle" else ())
        for mid in members(pick) if type(pick).__name__ in ("ActivateSingle", "ActivateGroup") else ():
            if done.get(mid):
                done[mid] -= 1
        for mid in members(final) if type(final).__name__ in ("ActivateSingle", "ActivateGroup") else ():
            done[mid] = done.get(mid, 0) + 1

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
        if self.memory is not None:
            self.memory.observe(view)
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
        rng = random.Random(seed)
        w = self.worlds(rng)  # type: ignore[misc]  # bound by bind_worlds before the first choose
        if self.memory is not None:
            self.memory.condition(w, rng)    # Frontier: the cards seen going to the discard stay there
        return w

    def _ranked_others(self, others: list, t0: float, timed: bool, late: float) -> list:
        """The other options, best first: when there are more than the ``k - 1`` places, each is
        ranked by one short look on one sampled world (at most ``prefilter`` of them, for at most
        ``rank_share`` of a time budget); the ones not looked at follow in their order."""
        if len(others) <= self.k - 1:
            return list(others)
        w0 = self._world(self.rng.getrandbits(64))
        key = segment_key(w0.state)
        ranked: list[tuple] = []
        for i, o in enumerate(others[:self.prefilter]):
            if timed and ranked and self.clock() - t0 >= self.rank_share * self.budget:
                break  # the time budget: rank what was looked at, keep time for the rounds
            val = self._playout(w0, o, key, depth=1, until_mine=True, stop_at=late if timed else None)
            ranked.append((-val, i, o))
        ranked.sort(key=lambda t: (t[0], t[1]))
        looked = {id(o) for _, _, o in ranked}
        return [o for _, _, o in ranked] + [o for o in others if id(o) not in looked]

    def search(self, decision: Decision, pick: Choice, t0: float) -> Choice:
        """Rounds over the candidates (common random numbers: one world per round, every live
        candidate played on it), racing them: a challenger whose paired difference from easy's
        pick cannot reach ``margin`` at ``drop_z`` standard errors is dropped after ``race``
        rounds, and the next ranked option takes its place (progressive widening), so a search
        with the time for it looks past the first ``k`` candidates instead of replaying losers."""
        others = [o for o in decision.options if o != pick]
        alts = self._destinations(decision, pick)
        if not (others or alts) or self.k + len(alts) <= 1:
            return pick
        timed = self.iters <= 0
        deadline = t0 + self.budget
        late = deadline + self.grace * self.budget   # a playout still running then stops where it is
        clock = self.clock
        if timed and clock() >= deadline:
            return pick       # easy's pick (or, in the window, the wait for it) took the budget
        self.stats["searched"] += 1
        queue = self._ranked_others(others, t0, timed, late)
        live = [pick] + alts + queue[:self.k - 1]
        queue = queue[self.k - 1:]
        # per candidate (by its index in ``cands``): the rounds it was played in, round -> score
        cands: list = list(live)
        played: list[dict[int, float]] = [{} for _ in cands]
        alive = list(range(len(cands)))
        rounds = 0
        t_rounds = clock()
        while True:
            if not timed:
                if rounds >= self.iters:
                    break
            elif (rounds >= self.settle and not (self.race and queue)
                  and self._settled(self._table(played, alive))):
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
            part: dict[int, float] | None = {}
            for i in alive:
                if timed and clock() > (deadline if rounds > 0 else late):
                    # out of time inside a round: that round does not count (a first round
                    # cannot change the answer anyway: a change needs two rounds' evidence)
                    part = None
                    break
                cut = self.stats["cut"]
                # a dict here (None only just before the break above): mypy widens it in the loop
                part[i] = self._playout(w0, cands[i], key, depth=self.depth,  # type: ignore[index]
                                        stop_at=late if timed else None)
                if rounds > 0 and self.stats["cut"] != cut:
                    part = None   # a playout the clock cut short: a later round then does not count
                    break
            if part is None:
                break
            for i, s in part.items():
                played[i][rounds] = s
            rounds += 1
            if self.race and queue:
                for i in list(alive[1:]):
                    if not queue:
                        break
                    if len(played[i]) >= self.race and self._hopeless(played[0], played[i]):
                        alive.remove(i)
                        self.stats["dropped"] += 1
                        cands.append(queue.pop(0))
                        played.append({})
                        alive.append(len(cands) - 1)
        self.stats["rounds"] += rounds
        best, best_mean = 0, self.margin
        for i in alive[1:]:
            diffs = self._diffs(played[0], played[i])
            if len(diffs) >= 2 and sum(diffs) / len(diffs) > best_mean:
                best, best_mean = i, sum(diffs) / len(diffs)
        if best != 0 and self.z > 0 and not self._beats_pick(self._pair_rows(played[0], played[best]), 1):
            return pick
        return cands[best]

    def _destinations(self, decision: Decision, pick: Choice) -> list:
        """When easy's pick is a point of a move space: up to ``moves`` other destinations it
        scored nearly as well (``Policy.runners_up``), each one the decision's space accepts."""
        if not self.moves or not decision.spaces or not hasattr(pick, "x"):
            return []
        pol = self.easy._policy
        if pol is None:
            return []
        out: list[Choice] = []
        for alt in pol.runners_up(pick):
            if len(out) >= self.moves:
                break
            if any(self._accepts(sp, alt) for sp in decision.spaces):
                out.append(alt)
        return out

    @staticmethod
    def _accepts(space, choice) -> bool:
        try:
            return space.check(choice) is None
        except Exception:     # a space of another kind (a direction, a disengagement) may not read a point
            return False

    @staticmethod
    def _diffs(base: dict, other: dict) -> list[float]:
        """The paired differences ``other - base`` over the rounds both were played in."""
        return [other[r] - base[r] for r in other if r in base]

    @staticmethod
    def _pair_rows(base: dict, other: dict) -> list[list[float]]:
        return [[base[r], other[r]] for r in other if r in base]

    @staticmethod
    def _table(played: list[dict], alive: list[int]) -> list[list[float]]:
        """The rounds every live candidate was played in, as rows (``_settled``'s shape)."""
        common = set.intersection(*(set(played[i]) for i in alive))
        return [[played[i][r] for i in alive] for r in sorted(common)] or [[0.0] * len(alive)]

    def _hopeless(self, base: dict, other: dict) -> bool:
        """A challenger that cannot beat easy's pick by ``margin`` even at ``drop_z`` standard
        errors above its paired mean so far (an option that plays out as the pick does, or worse)."""
        d = self._diffs(base, other)
        r = len(d)
        if r < 2:
            return False
        mean = sum(d) / r
        var = sum((x - mean) ** 2 for x in d) / (r - 1)
        return mean + self.drop_z * (var / r) ** 0.5 < self.margin

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
        if r < 2:
            return False
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


@register_agent
class HardAgent(SearchAgent):
    """``hard``: a longer search (0.8 s; easy's pick, 2 other options and 3 other destinations,
    through the reply; before 2026-12-07 4 candidates through the reply and no other destination:
    ``hard-2026``)."""
    name = "hard"
    Params = HardParams
