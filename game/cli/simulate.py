"""``skirmish simulate``: AI-vs-AI games headless, their summary, and a save per game."""
from __future__ import annotations

import json
from pathlib import Path

from engine.data.errors import DataError
from engine.paths import resolve_map
from game.cli.args import fail
from game.cli.checks import _suits


def cmd_simulate(args) -> int:
    from engine.core.errors import SetupError
    from engine.data.maps import load_named_map
    from engine.simulate import simulate
    from game.cli.args import option_pairs
    from game.cli.checks import rosters_arg, ruleset_and_agents_problem

    why = ruleset_and_agents_problem("simulate", args.ruleset, (args.p1, args.p2))
    if why:
        return fail(why, 2)
    rosters, why = rosters_arg("simulate", args.ruleset, args.rosters)
    if why:
        return fail(why, 2)
    options, why = option_pairs(args.option, args.ruleset)
    if why:
        return fail(f"skirmish simulate: {why}", 2)
    path = resolve_map(args.map)
    try:
        mapfile = load_named_map(args.map)
    except DataError as err:
        return fail(str(err), 1)
    if not _suits(args, mapfile, "simulate"):
        return 2
    on_game = None
    if args.save_dir:
        from engine.workshop.experiment import out_problem

        why = out_problem(args.save_dir)   # before the first game, not after it
        if why:
            return fail(f"skirmish simulate: --save-dir: {why}", 1)
        on_game = _game_saver(Path(args.save_dir), args.ruleset, mapfile.id)
    try:
        out = simulate(args.ruleset, mapfile, args.games, args.seed, (args.p1, args.p2), map_name=str(args.map),
                       options=options, swap_sides=args.swap_sides, on_game=on_game, rosters=rosters, crossed=not args.fixed)
    except SetupError as err:
        return fail(f"skirmish simulate: cannot set up {args.ruleset} on {path}: {err}", 2)
    if args.json:
        if not args.records:
            out.pop("records")
        print(json.dumps(out))
    else:
        w = out["wins"]
        ra, rb = out["rosters"]
        design = (f"crossed design, blocks of {out['games_per_block']} on one seed" if not args.fixed
                  else "fixed seats" + (", agents alternating" if args.swap_sides else ""))
        print(f"{out['games']} game{'s' if out['games'] != 1 else ''} of {out['ruleset']} on {out['map']} ({args.p1} vs {args.p2}"
              + (f"; {ra} vs {rb}" if ra else "") + f"), seed {args.seed}, {design}")
        agent_words = (f"p1 ({args.p1}) {w['p1']}, p2 ({args.p2}) {w['p2']}" if args.p1 != args.p2
                       else f"p1 {w['p1']}, p2 {w['p2']} (the same agent: by seat)")
        print(f"  wins: {agent_words}, draws {w['draw']}; mean turns {out['mean_turns']}; "
              f"errors {out['errors']}; {out['seconds']} s")
        b = out["wins_by_seat"]
        line = f"  by zone: zone 1 {b['seat1']}, zone 2 {b['seat2']}"
        if out["wins_by_roster"] is not None:
            line += "; by roster: " + ", ".join(f"{k} {v}" for k, v in out["wins_by_roster"].items() if k != "draw")
        line += f"; first player won {out['first_player_wins']}"
        print(line)
        print("  endings: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sorted(out["endings"].items())))
        for m in out["error_messages"]:
            print("  error:", m)
    return 1 if out["errors"] else 0


def _game_saver(folder: Path, ruleset: str, map_id: str):
    """``simulate``'s hook: one save per game (finished or not), named by game and seed."""
    from engine.core.saves import save_game

    def on_game(index: int, seed: int, game) -> None:
        save_game(game, folder / f"{ruleset}-{map_id}-game{index + 1:04d}-seed{seed}.json")
    return on_game
