"""A census of what the agents do (issue 61, item 1): per choice type, how many decisions offered
it and how often each agent took it, over games played by the simulator.

Run:  python bench/ai_census.py --ruleset counterblast --map outpost --agents easy easy --games 4 --seed 1
      python bench/ai_census.py --all --agents hard:budget=0.2 easy --games 2 --seed 1 [--json FILE]

The games are the simulator's own (``engine.simulate.simulate``, the path of ``skirmish
simulate``): its crossed design, game seeds and agent seeds, so ``skirmish simulate`` with the same
ruleset, map, agents (``--p1``, ``--p2``), games and seed plays the same games. ``--all`` plays
each ruleset on its home table with its default rosters.

A choice type is the ``type`` a saved game records for an answer (``Choice.tag``,
engine/core/protocol.py: "counterblast.Strike", "common.MoveTo"). A decision *offers* a type
when one of its enumerated options is of that type or one of its continuous spaces answers with
it (``ChoiceSpace.choice_type``): a type counts once per decision, however many options of it
the decision lists. Each decision's answer counts once as *taken*, for the agent that gave it.
"Only choice" counts the decisions where it was the single option (no choice to make).

After each game the census replays the game's answers from its setup (``Game(setup)``, then
``pending`` and ``submit`` per answer) to read what each decision offered, and checks that the
replay ends in the game's own final state.

A type is flagged when it was offered in at least ``--flag`` decisions (20 by default) and never
taken, by nobody ("never taken") or by an agent it was offered to that often ("never by A").
Agents are told apart by name, or by seat when both seats play the same agent.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core import Game  # noqa: E402
from engine.core.protocol import _CHOICE_TYPES  # noqa: E402
from engine.core.rules import get_rules  # noqa: E402

RULESETS = ("counterblast", "frontier", "doubles")
FLAG = 20


# ------------------------------------------------------------------ the census core
def offered_types(decision) -> set[str]:
    """The choice types ``decision`` offers: its options' tags and its spaces' answer types."""
    out = {type(o).tag for o in decision.options}
    for sp in decision.spaces:
        ct = getattr(sp, "choice_type", None)
        out.add(getattr(ct, "tag", None) or type(sp).__name__)
    return out


class Census:
    """Counts per choice type: decisions that offered it (``offered``; ``offered_to[agent]``),
    decisions where it was the only option (``forced``), answers of that type (``taken[agent]``).
    ``decisions[agent]`` counts every decision an agent answered."""

    def __init__(self):
        self.offered: Counter = Counter()
        self.forced: Counter = Counter()
        self.offered_to: dict[str, Counter] = {}
        self.taken: dict[str, Counter] = {}
        self.decisions: Counter = Counter()
        self.unoffered_answers = 0     # an answer whose type its decision did not offer (never, if sound)

    def add(self, decision, agent: str, choice) -> None:
        """One decision ``agent`` answered with ``choice``."""
        types = offered_types(decision)
        self.offered.update(types)
        self.offered_to.setdefault(agent, Counter()).update(types)
        if len(decision.options) == 1 and not decision.spaces:
            self.forced[type(decision.options[0]).tag] += 1
        tag = type(choice).tag
        self.taken.setdefault(agent, Counter())[tag] += 1
        self.decisions[agent] += 1
        self.unoffered_answers += tag not in types

    def add_game(self, game: Game, seat_agents: dict[int, str]) -> None:
        """Every decision of ``game`` (finished or stopped), replayed from its setup;
        ``seat_agents`` names who answered in each seat."""
        g = Game(game.setup, table=game.table)
        g.keep_labels = False          # nobody reads the labels here
        for player, choice in game.decisions:
            d = g.pending()
            if d is None or d.player != player:
                raise RuntimeError(f"the replay of game seed {game.setup.seed} left the recorded game")
            self.add(d, seat_agents[player], choice)
            g.submit(player, choice)
        if g.state_hash() != game.state_hash():
            raise RuntimeError(f"the replay of game seed {game.setup.seed} ended in another state")

    def flags(self, threshold: int = FLAG) -> dict[str, str]:
        """Type -> why it is flagged: offered in at least ``threshold`` decisions and never taken
        (by anybody; else by an agent it was offered to that often)."""
        out = {}
        for t, n in self.offered.items():
            if n < threshold:
                continue
            if not any(tk[t] for tk in self.taken.values()):
                out[t] = "never taken"
                continue
            idle = [a for a in self.agents() if self.offered_to[a][t] >= threshold and not self.taken[a][t]]
            if idle:
                out[t] = "never by " + ", ".join(idle)
        return out

    def agents(self) -> list[str]:
        return list(self.offered_to)

    def to_json(self, threshold: int = FLAG) -> dict:
        flags = self.flags(threshold)
        return {"decisions": dict(self.decisions), "unoffered_answers": self.unoffered_answers,
                "types": {t: {"offered": self.offered[t], "only_choice": self.forced[t],
                              "offered_to": {a: self.offered_to[a][t] for a in self.agents()},
                              "taken_by": {a: self.taken[a][t] for a in self.agents()},
                              "flag": flags.get(t)}
                          for t in sorted(self.offered, key=lambda t: (-self.offered[t], t))}}


# ------------------------------------------------------------------ playing the games
def seat_keys(agents: tuple[str, str], plan_agents: tuple[str, str]) -> dict[int, str]:
    """Who answers in each seat, as the census names them: the agent's name, or, when both seats
    play the same agent, the name and the seat."""
    if agents[0] == agents[1]:
        return {p: f"{agents[0]} (seat {p})" for p in (1, 2)}
    return {p: plan_agents[p - 1] for p in (1, 2)}


def agent_words(name: str) -> str:
    """An agent's budget in words, for every table's header."""
    from engine.ai import check_agent

    _, params = check_agent(name)
    iters = getattr(params, "iters", 0)
    budget = getattr(params, "budget", None)
    if iters:
        return f"{iters} search rounds a decision (no clock)"
    if budget is not None:
        return f"budget {budget:g} s of its own CPU a decision"
    return "no search budget (answers from the decision at hand)"


def commit() -> str:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return out + ("+changes" if out and dirty else "")
    except Exception:
        return ""


def run(ruleset: str, map_name: str, agents: tuple[str, str], games: int, seed: int,
        threshold: int = FLAG, rosters: tuple | None = None, options: dict | None = None) -> dict:
    """``games`` games of the simulator and their census, as one JSON-ready record."""
    from engine.core.errors import SetupError
    from engine.data.maps import load_named_map, suits_problem
    from engine.simulate import default_rosters, plan_game, simulate

    mapfile = load_named_map(map_name)
    why = suits_problem(mapfile, ruleset)       # as ``skirmish simulate`` refuses it
    if why:
        raise SetupError(why)
    rosters = tuple(rosters) if rosters else default_rosters(ruleset)
    census = Census()

    def on_game(index: int, game_seed: int, game: Game) -> None:
        plan = plan_game(index, seed, rosters, agents)        # the simulator's own plan of that game
        assert plan.seed == game_seed
        census.add_game(game, seat_keys(agents, plan.agents))

    t0 = time.perf_counter()
    out = simulate(ruleset, mapfile, games, seed, agents, map_name=map_name, options=options,
                   on_game=on_game, rosters=rosters)
    known = sorted(t for t in _CHOICE_TYPES if t.startswith(ruleset + ".") or t.startswith("common."))
    rec = {"ruleset": ruleset, "map": out["map"], "rosters": list(rosters), "options": dict(options or {}),
           "agents": list(agents),
           "budgets": {a: agent_words(a) for a in dict.fromkeys(agents)}, "games": games, "seed": seed,
           "design": out["design"], "games_per_block": out["games_per_block"], "wins": out["wins"],
           "played_decisions": sum(r["decisions"] or 0 for r in out["records"]), "errors": out["errors"], "error_messages": out["error_messages"], "mean_turns": out["mean_turns"],
           "threshold": threshold, "commit": commit(), "cores": os.cpu_count(), "python": platform.python_version(),
           "seconds": round(time.perf_counter() - t0, 1)}
    rec.update(census.to_json(threshold))
    rec["never_offered"] = [t for t in known if t not in rec["types"]]
    return rec


# ------------------------------------------------------------------ the table
def markdown(rec: dict) -> str:
    """One run's census as a markdown heading line, a header and a table."""
    a, b = rec["agents"]
    ags = list(seat_keys((a, b), (a, b)).values())     # the first agent's column first
    wins = rec["wins"]
    lines = [f"**{rec['ruleset']} on {rec['map']}**: `{a}` v `{b}`, {rec['games']} games, seed {rec['seed']} "
             f"({rec['design']} design, {rec['games_per_block']} games a seed), rosters {', '.join(map(str, rec['rosters']))}"
             + "".join(f", {k}={v}" for k, v in (rec.get("options") or {}).items()) + "; "
             f"commit {rec['commit'] or '?'}, {rec['cores']} cores, {rec['seconds']:g} s.",
             "",
             "Agents: " + "; ".join(f"`{n}`: {w}" for n, w in rec["budgets"].items()) + ". "
             + (f"Wins by seat: 1 {wins['p1']}, 2 {wins['p2']}" if a == b else f"Wins: `{a}` {wins['p1']}, `{b}` {wins['p2']}")
             + f", draws {wins['draw']}"
             + f"; errors {rec['errors']}; decisions " + ", ".join(f"{k} {rec['decisions'].get(k, 0)}" for k in ags)
             + f". Flag: offered in at least {rec['threshold']} decisions, never taken.",
             "",
             "| choice type | offered in | only choice | " + " | ".join(f"{k}: taken / offered" for k in ags)
             + " | flag |",
             "|---|---|---|" + "---|" * len(ags) + "---|"]
    for t, row in rec["types"].items():
        cells = [f"{row['taken_by'].get(k, 0)} / {row['offered_to'].get(k, 0)}" for k in ags]
        flag = f"**{row['flag']}**" if row["flag"] else ""
        lines.append(f"| {t} | {row['offered']} | {row['only_choice'] or ''} | " + " | ".join(cells) + f" | {flag} |")
    if rec["never_offered"]:
        lines += ["", "Never offered in these games: " + ", ".join(rec["never_offered"]) + "."]
    for m in rec["error_messages"]:
        lines.append(f"Error: {m}")
    return "\n".join(lines)


# ------------------------------------------------------------------ several runs side by side
NEEDED = ("ruleset", "map", "agents", "budgets", "games", "seed", "commit", "decisions", "types", "threshold",
          "never_offered")


def read_runs(paths) -> tuple[list[dict], str | None]:
    """The records of ``--json`` files, or the first file's problem (the file, the record, why)."""
    recs = []
    for path in paths:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as err:
            return [], f"{path}: cannot be read as JSON ({err})"
        if not isinstance(data, list):
            return [], f"{path}: not a list of census records (as --json writes them)"
        for i, rec in enumerate(data):
            missing = [k for k in NEEDED if not isinstance(rec, dict) or k not in rec]
            if missing:
                return [], f"{path}: record {i}: no {', '.join(missing)}"
            recs.append(rec)
    return recs, None


def combined(recs: list[dict]) -> str:
    """One table per ruleset and map with each run's columns side by side (the runs in order)."""
    out = []
    for ruleset, map_id in dict.fromkeys((r["ruleset"], r["map"]) for r in recs):
        runs = [r for r in recs if (r["ruleset"], r["map"]) == (ruleset, map_id)]
        names = [" v ".join(r["agents"]) for r in runs]
        out.append(f"**{ruleset} on {map_id}**")
        out.append("")
        for n, r in zip(names, runs):
            keys = seat_keys(tuple(r["agents"]), tuple(r["agents"])).values()
            wins = r.get("wins") or {}
            out.append(f"- {n}: {r['games']} games, seed {r['seed']}, commit {r['commit'] or '?'}; "
                       + "; ".join(f"`{a}`: {w}" for a, w in r["budgets"].items()) + "; decisions "
                       + ", ".join(f"{k} {r['decisions'].get(k, 0)}" for k in keys)
                       + (f"; wins {wins.get('p1')}-{wins.get('p2')}, draws {wins.get('draw')}" if wins else ""))
        out.append("")
        cols, head = [], ["choice type"]
        for n, r in zip(names, runs):
            keys = list(seat_keys(tuple(r["agents"]), tuple(r["agents"])).values())
            cols.append(keys)
            head += [f"{n}: offered in"] + [f"{k}: taken / offered" for k in keys]
        out += ["| " + " | ".join(head) + " | flag |", "|---" * (len(head) + 1) + "|"]
        types = {}
        for r in runs:
            for t, row in r["types"].items():
                types[t] = types.get(t, 0) + row["offered"]
        for t in sorted(types, key=lambda t: (-types[t], t)):
            cells, flags = [t], []
            for n, r, keys in zip(names, runs, cols):
                row = r["types"].get(t)
                cells.append(str(row["offered"]) if row else "0")
                cells += [f"{row['taken_by'].get(k, 0)} / {row['offered_to'].get(k, 0)}" if row else "" for k in keys]
                if row and row.get("flag"):
                    flags.append(f"{n}: {row['flag']}")
            out.append("| " + " | ".join(cells) + " | " + ("**" + "; ".join(flags) + "**" if flags else "") + " |")
        never = [t for t in runs[0]["never_offered"] if all(t in r["never_offered"] for r in runs)]
        if never:
            out += ["", "Never offered in these games: " + ", ".join(never) + "."]
        out.append("")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", choices=RULESETS)
    ap.add_argument("--map", help="a shipped map's id or a map file (default: the ruleset's home map)")
    ap.add_argument("--all", action="store_true", help="the three rulesets, each on its home map")
    ap.add_argument("--agents", nargs=2, default=["easy", "easy"], metavar=("A", "B"))
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--flag", type=int, default=FLAG, help="flag a type offered in this many decisions and never taken")
    ap.add_argument("--rosters", help="A,B: the two rosters (default: the ruleset's default pairing)")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a table option, as skirmish simulate --option (mission=relic-hunt, thrown_weapon=dropped)")
    ap.add_argument("--json", metavar="FILE", help="also write the records as JSON (atomically)")
    ap.add_argument("--combine", nargs="+", metavar="FILE",
                    help="play nothing: print the runs of these --json files side by side, a table per ruleset")
    args = ap.parse_args(argv)
    if args.combine:
        if args.ruleset or args.all:
            ap.error("--combine reads runs already played; it takes no --ruleset or --all")
        recs, why = read_runs(args.combine)
        if why:
            print(f"ai_census: {why}", file=sys.stderr)
            return 2
        print(combined(recs))
        return 0
    from engine.ai import agent_problem
    for a in args.agents:
        why = agent_problem(a)
        if why:
            ap.error(f"--agents: {why}")
    if args.games < 1 or args.flag < 1:
        ap.error("--games and --flag are at least 1")
    if args.all == bool(args.ruleset):
        ap.error("give --ruleset R (and --map M) or --all")
    if args.all and args.map:
        ap.error("--all plays each ruleset on its home map; --map goes with --ruleset")
    runs = [(r, get_rules(r).home_map) for r in RULESETS] if args.all else \
        [(args.ruleset, args.map or get_rules(args.ruleset).home_map)]
    if args.json and not Path(args.json).resolve().parent.is_dir():
        ap.error(f"--json: the folder of {args.json} does not exist")
    if args.json and Path(args.json).exists() and not Path(args.json).is_file():
        ap.error(f"--json: {args.json} is not a regular file")        # refused before any game is played
    from engine.core.errors import SetupError
    from engine.data.errors import DataError
    recs = []
    for ruleset, map_name in runs:
        try:
            rec = run(ruleset, map_name, tuple(args.agents), args.games, args.seed, args.flag,
                      rosters=tuple(args.rosters.split(",")) if args.rosters else None,
                      options=dict(kv.partition("=")[::2] for kv in args.option) or None)
        except (DataError, SetupError) as err:     # a map that cannot be read or does not suit
            print(f"ai_census: {ruleset} on {map_name}: {err}", file=sys.stderr)
            return 2
        recs.append(rec)
        print(markdown(rec) + "\n", flush=True)
    if args.json:
        from engine.core.saves import SaveError, write_atomic
        try:
            write_atomic(args.json, json.dumps(recs, indent=1) + "\n")
        except (SaveError, OSError) as err:
            print(f"ai_census: {err}", file=sys.stderr)
            return 1
    return 1 if any(r["errors"] for r in recs) else 0


if __name__ == "__main__":
    sys.exit(main())
