"""Headless AI-vs-AI games: the simulator behind ``skirmish simulate``, the workshop's experiments
and the random-game tests.

The crossed design (the default): games come in **blocks** that share one game seed. A block
plays every crossing of the two rosters over the two deployment zones and of the two agents over
the two seats (player ``k`` deploys in zone ``k``), so one seed's luck is dealt to each roster
from each zone and to each agent from each seat. Identical rosters (or agents) are not crossed:
swapping two equal things would replay the same game. Game ``i`` is cell ``i mod K`` of block
``i div K`` (``K`` = 1, 2 or 4 cells), so its seed never depends on how many games are played.

Each agent is seeded from the game seed, its own name and its seat (``agent_seed``): two agents
that differ in anything play a different game, and no plan ever repeats (seed, rosters, agents).
"""
from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.ai import make_agent
from engine.core import Game, Result, Setup, SetupError
from engine.core.collector import fewer_collections
from engine.core.rules import get_rules
from engine.data.maps import MapFile


class DidNotEnd(RuntimeError):
    pass


@dataclass
class Played:
    game: Game
    result: Result
    decisions: int


def game_seed(seed: int, index: int) -> int:
    # Spread seeds apart so game i of one run never equals game j of a neighbouring run.
    return (seed * 1_000_003 + index * 7_919) % (2**31)


def agent_seed(seed: int, agent: str, seat: int) -> int:
    """The seed of ``agent`` (its full name, parameters included) playing seat ``seat`` in the
    game of seed ``seed``: a stable hash, the same in every process and Python run."""
    h = hashlib.blake2b(f"{seed}|{agent}|{seat}".encode(), digest_size=8)
    return int.from_bytes(h.digest(), "big") % (2**31)


def make_agents(seed: int, agents_by_seat: tuple[str, str]) -> dict:
    return {p: make_agent(agents_by_seat[p - 1], p, agent_seed(seed, agents_by_seat[p - 1], p)) for p in (1, 2)}


def play(game: Game, agents: dict, max_decisions: int = 50_000,
         on_step: Callable[[Game], None] | None = None) -> Played:
    for agent in agents.values():  # the public static facts only: the table and the ruleset object
        attach = getattr(agent, "attach", None)
        if attach is not None:
            attach(game.table, game.rules)
    for player, agent in agents.items():  # search agents: worlds the agent's player cannot tell apart
        bind = getattr(agent, "bind_worlds", None)
        if bind is not None:
            bind(lambda rng, p=player: game.sample_world(p, rng))
    n = 0
    keep = game.__dict__.get("keep_labels")
    game.keep_labels = False     # nobody here reads an answered decision's labels: unread ones stay unworded
    try:
        n = _play_loop(game, agents, max_decisions, on_step)
    finally:
        if keep is None:
            del game.keep_labels
        else:
            game.keep_labels = keep
    result = game.result()
    if result is None:
        raise DidNotEnd("no decision is pending but the ruleset reports no result")
    return Played(game, result, n)


def _play_loop(game: Game, agents: dict, max_decisions: int, on_step) -> int:
    n = 0
    with fewer_collections():
        while (d := game.pending()) is not None:
            if n >= max_decisions:
                raise DidNotEnd(f"no result after {max_decisions} decisions (turn {game.state.turn})")
            agent = agents[d.player]
            # no view for an agent that never reads it (random): building it was up to a sixth
            # of a random game's time; and no pieces (the client's drawing) for one that does
            choice = agent.choose(d, game.view(d.player, drawing=False) if getattr(agent, "reads_view", True)
                                  else None)
            game.submit(d.player, choice)
            n += 1
            if on_step is not None:
                on_step(game)
    return n


def seats(index: int, swap_sides: bool) -> tuple[int, int]:
    """The fixed design: which agent (0: the --p1 agent, 1: the --p2 agent) sits in seat 1 and in
    seat 2 for game ``index``: as given, or alternating game by game with ``swap_sides``."""
    return (1, 0) if swap_sides and index % 2 == 1 else (0, 1)


# --- the design ----------------------------------------------------------------------------
@dataclass(frozen=True)
class GamePlan:
    index: int                   # the game's number in the run (per map)
    block: int                   # the seed block it belongs to (a cluster in the statistics)
    seed: int                    # the game seed (dice, cards), shared by the block
    rosters: tuple               # roster in zone 1, in zone 2 (None: the ruleset's own)
    agents: tuple[str, str]      # agent in seat 1, in seat 2 (seat k deploys in zone k)


def default_rosters(ruleset: str) -> tuple:
    """The two rosters a new game uses when none are chosen (the launcher's defaults); None for a
    ruleset that has no named rosters."""
    rs = list(get_rules(ruleset).default_rosters(None)) + [None, None]
    return (rs[0], rs[1])


def roster_problem(ruleset: str, rosters) -> str | None:
    """Why ``rosters`` (two ids) cannot be played in ``ruleset``, or None."""
    known = get_rules(ruleset).roster_ids()
    if len(rosters) != 2:
        return f"give two rosters, one per side (e.g. {','.join(list(known)[:2]) or 'A,B'}), not {len(rosters)}"
    for r in rosters:
        if r not in known:
            listed = ", ".join(f"{k} ({v})" for k, v in known.items()) or "none: it has no named rosters"
            return f"{ruleset} has no roster {r!r} (available: {listed})"
    return None


def cells(rosters: tuple, agents: tuple[str, str], crossed: bool = True) -> list[tuple[tuple, tuple]]:
    """The (rosters by zone, agents by seat) of one block, in order. Equal rosters or equal
    agents are not swapped: that game would be the one already in the block."""
    rs = [tuple(rosters)]
    ags = [tuple(agents)]
    if crossed and rosters[0] != rosters[1]:
        rs.append((rosters[1], rosters[0]))
    if crossed and agents[0] != agents[1]:
        ags.append((agents[1], agents[0]))
    return [(r, a) for r in rs for a in ags]


def plan_game(index: int, seed: int, rosters: tuple, agents: tuple[str, str], crossed: bool = True,
              swap_sides: bool = False) -> GamePlan:
    """Game ``index`` of a run. Crossed: cell ``index mod K`` of block ``index div K``. Fixed
    (``crossed=False``): the rosters as given, each game its own seed, the agents alternating
    seats game by game with ``swap_sides``."""
    if not crossed:
        order = seats(index, swap_sides)
        return GamePlan(index, index, game_seed(seed, index), tuple(rosters),
                        (agents[order[0]], agents[order[1]]))
    cs = cells(rosters, agents)
    block, k = divmod(index, len(cs))
    r, a = cs[k]
    return GamePlan(index, block, game_seed(seed, block), r, a)


# --- one game --------------------------------------------------------------------------
def _setup_rosters(rosters: tuple) -> tuple:
    return () if all(r is None for r in rosters) else tuple(rosters)


def new_game(ruleset: str, mapfile: MapFile, plan: GamePlan, options: dict | None = None) -> Game:
    return Game(Setup(ruleset, mapfile, _setup_rosters(plan.rosters), dict(options or {}), plan.seed))


def game_record(plan: GamePlan, game: Game | None, played: Played | None, first_player: int | None,
                error: str | None = None) -> dict:
    """One game as the experiments record it (JSON-ready): who sat where and who won, by seat,
    zone, roster and agent, how it ended, and the final state hash (two rows with the same hash
    are the same game)."""
    rec = {"index": plan.index, "block": plan.block, "seed": plan.seed,
           "zones": {"1": 1, "2": 2},                       # side -> zone: player k deploys in zone k
           "rosters": {"1": plan.rosters[0], "2": plan.rosters[1]},   # zone -> roster
           "agents": {"1": plan.agents[0], "2": plan.agents[1]},      # seat -> agent
           "agent_seeds": {str(p): agent_seed(plan.seed, plan.agents[p - 1], p) for p in (1, 2)},
           "first_player": first_player, "winner": None, "winner_zone": None, "winner_roster": None,
           "winner_agent": None, "ending": None, "reason": None, "turns": None, "decisions": None,
           "scores": None, "final_hash": None, "error": error}
    if game is not None:
        rec["final_hash"] = game.state_hash()
        rec["decisions"] = len(game.decisions)
        rec["turns"] = getattr(game.state, "turn", None)
    if played is not None:
        res = played.result
        w = res.winner
        rec.update(winner=w, ending=res.ending, reason=res.reason,
                   scores={str(k): v for k, v in (res.scores or {}).items()})
        if w is not None:
            rec.update(winner_zone=w, winner_roster=plan.rosters[w - 1], winner_agent=plan.agents[w - 1])
    return rec


def play_planned(ruleset: str, mapfile: MapFile, plan: GamePlan, options: dict | None = None,
                 max_decisions: int = 50_000) -> tuple[dict, Game]:
    """Play one planned game; a setup refusal raises ``SetupError``, any other failure is part of
    the record (an experiment's job is also to find these)."""
    game = new_game(ruleset, mapfile, plan, options)
    first = None
    try:
        d = game.pending()
        first = None if d is None else d.player
        played = play(game, make_agents(plan.seed, plan.agents), max_decisions=max_decisions)
    except Exception as err:  # noqa: BLE001 - recorded, and counted by the caller
        return game_record(plan, game, None, first, f"{type(err).__name__}: {err}"), game
    return game_record(plan, game, played, first), game


# --- a run ------------------------------------------------------------------------------
def _count(recs: list[dict], key: str, none: str = "draw") -> dict:
    out: dict = {}
    for r in recs:
        k = none if r[key] is None else str(r[key])
        out[k] = out.get(k, 0) + 1
    return out


def _agent_key(plan: GamePlan, agents: tuple[str, str], seat: int) -> str:
    """"p1" for the --p1 agent wherever it sat; equal agents are told apart by seat."""
    if agents[0] == agents[1]:
        return f"p{seat}"
    return "p1" if plan.agents[seat - 1] == agents[0] else "p2"


def simulate(ruleset: str, mapfile: MapFile, games: int, seed: int, agents: tuple[str, str],
             map_name: str = "", options: dict | None = None, max_errors_listed: int = 5,
             swap_sides: bool = False, on_game: Callable[[int, int, Game], None] | None = None,
             rosters: tuple | None = None, crossed: bool = True) -> dict:
    """``games`` games on the crossed design (``crossed=False``: the fixed one, see
    ``plan_game``). ``wins`` counts per agent: "p1" is the first agent of ``agents`` wherever it
    sat; ``wins_by_seat`` per seat (= zone), ``wins_by_roster`` per roster id. ``on_game(index,
    seed, game)`` is called after each game, finished or stopped by an error (a save per game)."""
    get_rules(ruleset)  # refuses an unknown ruleset before any game starts
    rosters = tuple(rosters) if rosters else default_rosters(ruleset)
    t0 = time.perf_counter()
    wins = {"p1": 0, "p2": 0, "draw": 0}
    by_seat = {"seat1": 0, "seat2": 0, "draw": 0}
    hashes: list[str | None] = []
    messages: list[str] = []
    turns, errors, decisions, records = [], 0, 0, []
    for i in range(games):
        plan = plan_game(i, seed, rosters, agents, crossed, swap_sides)
        try:
            rec, game = play_planned(ruleset, mapfile, plan, options)
        except SetupError:
            raise  # the ruleset refuses this map, rosters or options: no game can be played
        rec["map"] = map_name or mapfile.id
        records.append(rec)
        if on_game is not None:
            on_game(i, plan.seed, game)
        if rec["error"]:
            errors += 1
            hashes.append(None)
            if len(messages) < max_errors_listed:
                messages.append(f"game {i} (seed {plan.seed}): {rec['error']}")
            continue
        w = rec["winner"]
        by_seat["draw" if w is None else f"seat{w}"] += 1
        wins["draw" if w is None else _agent_key(plan, agents, w)] += 1
        hashes.append(rec["final_hash"])
        turns.append(rec["turns"])
        decisions += rec["decisions"]
    ok = [r for r in records if not r["error"]]
    per_block = len(cells(rosters, agents)) if crossed else 1
    return {
        "ruleset": ruleset,
        "map": map_name or mapfile.id,
        "games": games,
        "seed": seed,
        "design": "crossed" if crossed else "fixed",
        "games_per_block": per_block,
        "agents": {"p1": agents[0], "p2": agents[1]},
        "rosters": list(rosters),
        "swap_sides": swap_sides,
        "wins": wins,
        "wins_by_seat": by_seat,
        "wins_by_roster": ({str(rosters[0]): 0, str(rosters[1]): 0, "draw": 0} | _count(ok, "winner_roster")
                           if rosters[0] != rosters[1] else None),
        "first_player_wins": sum(1 for r in ok if r["winner"] is not None and r["winner"] == r["first_player"]),
        "endings": _count(ok, "ending", none="unknown"),
        "mean_turns": round(sum(turns) / len(turns), 3) if turns else None,
        "mean_decisions": round(decisions / len(turns), 1) if turns else None,
        "errors": errors,
        "error_messages": messages,
        "seconds": round(time.perf_counter() - t0, 3),
        "final_hashes": hashes,
        "records": records,
    }
