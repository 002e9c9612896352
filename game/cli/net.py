"""``skirmish host`` (a network game's server) and ``skirmish join`` (a seat of it): their
arguments and handlers (issue 50; ``docs/network.md``).

``host`` sets a game up as ``play`` does (``--ruleset``, ``--map``, ``--seed``, ``--option``,
``--mission``) or loads a save (``--load``: any save, the server's own autosave included, whose
codes it keeps), prints each remote seat's code and serves until the game is over and both
players have left. ``join HOST:PORT --seat N --code CODE`` opens the client window on the
server's game; with ``--ai AGENT`` it plays the seat headless by that agent instead (the tests
play whole games so), ``--record FILE`` writing the decisions it answered.
Exit codes as everywhere: 0 done, 1 a file refused or a code refused, 2 bad usage.
"""
from __future__ import annotations

import json
import logging
import sys

from game.cli.args import add_mission_arg, bounded_float, bounded_int, fail, option_pairs
from game.cli.args import err as _err

DEFAULT_PORT = 8765


def add_net_parsers(sub) -> None:
    ho = sub.add_parser("host", help="serve a network game: two players on two machines (docs/network.md)")
    ho.add_argument("--ruleset", help="the ruleset of a new game")
    ho.add_argument("--map", help="map file or id of a shipped map (default: the ruleset's home table)")
    ho.add_argument("--seed", type=int, default=None, help="the game's seed (default: a random one, never shown)")
    ho.add_argument("--p1", default="remote", help="remote (a player joining) or ai:AGENT (played on this server)")
    ho.add_argument("--p2", default="remote", help="remote or ai:AGENT")
    ho.add_argument("--option", action="append", metavar="KEY=VALUE", help="a ruleset option (repeatable)")
    add_mission_arg(ho)
    ho.add_argument("--any-map", action="store_true", help="play on a map whose 'suits' leaves out the ruleset")
    ho.add_argument("--load", help="host a saved game (the server's autosave too; its codes are kept)")
    ho.add_argument("--new-codes", action="store_true", help="with --load: new codes instead of the save's")
    ho.add_argument("--port", type=bounded_int(0, 65535, "a port"), default=DEFAULT_PORT,
                    help=f"the TCP port to listen on (default {DEFAULT_PORT}; 0: any free port)")
    ho.add_argument("--bind", default="0.0.0.0", help="the address to listen on (default all: 0.0.0.0)")
    ho.add_argument("--autosave", help="the file the game is kept in after every decision "
                                       "(default: host-autosave.json in the data folder)")
    ho.add_argument("--info", help="write the address and the codes to this JSON file once listening")
    ho.add_argument("--keep-running", action="store_true", help="do not stop when the game is over")
    ho.add_argument("--quiet", action="store_true", help="no log lines on stderr")
    ho.set_defaults(func=cmd_host)

    jo = sub.add_parser("join", help="play a seat of a network game (docs/network.md)")
    jo.add_argument("address", help="HOST:PORT of the server (the port defaults to 8765)")
    jo.add_argument("--seat", type=bounded_int(1, 2, "a seat"), required=True, help="your seat: 1 or 2")
    jo.add_argument("--code", required=True, help="your seat's code, as the host shows it")
    jo.add_argument("--name", default="", help="your name, shown to the other player (at most 24 printable characters)")
    jo.add_argument("--ai", metavar="AGENT", help="headless: an agent plays this seat (random, easy, normal...)")
    jo.add_argument("--ai-seed", type=int, default=1, help="with --ai: the agent's seed")
    jo.add_argument("--record", help="with --ai: write the decisions answered (number and choice) to this JSON file")
    jo.add_argument("--accept-undo", choices=("yes", "no"), default="yes",
                    help="with --ai: agree when the other player asks to undo (default yes)")
    jo.add_argument("--timeout", type=bounded_float(0.1, 86400, "a number of seconds", "seconds from 0.1 to 86,400"),
                    default=20.0, help="seconds to wait for the server at first")
    jo.set_defaults(func=cmd_join)


# --- host ------------------------------------------------------------------------------------
def _make_host(args):
    """(GameHost, None) or (None, exit code) after saying why."""
    from engine.core.errors import GameError
    from engine.data.errors import DataError
    from game.net.host import GameHost
    from game.userdirs import host_autosave_file

    autosave = args.autosave or host_autosave_file()
    seats = {1: args.p1, 2: args.p2}
    for p, s in seats.items():
        if s not in ("remote", "human"):
            from game.session import parse_seat
            try:
                parse_seat(s)
            except ValueError as e:
                _err(f"skirmish host: --p{p}: {e}")
                return None, 2
    if args.load:
        if args.ruleset or args.map:
            _err("skirmish host: --load hosts the saved game: leave out --ruleset and --map")
            return None, 2
        given = {p: s for p, s in seats.items() if s != "remote"}
        try:
            return GameHost.load(args.load, seats=given or None, new_codes=args.new_codes, autosave_path=autosave), None
        except DataError as e:
            _err(str(e))
            return None, 1
    if not args.ruleset:
        _err("skirmish host: give --ruleset R (and --map M) for a new game, or --load SAVE")
        return None, 2
    options, why = option_pairs(args.option, args.ruleset)
    if why:
        _err(f"skirmish host: {why}")
        return None, 2
    from engine.core.rules import get_rules
    from engine.data.maps import load_named_map
    from game.cli.checks import map_problem

    try:
        rules = get_rules(args.ruleset)
        name = args.map or rules.home_map or "town"
        mapfile = load_named_map(name)
    except GameError as e:
        _err(f"skirmish host: {e}")
        return None, 2
    except DataError as e:
        _err(str(e))
        return None, 1
    why = map_problem("host", args.ruleset, mapfile, name, (), args.any_map, options)
    if why:
        _err(why)
        return None, 2
    import secrets
    seed = args.seed if args.seed is not None else secrets.randbits(62)
    try:
        return GameHost.new(args.ruleset, mapfile, (), options, seed, seats, autosave_path=autosave), None
    except GameError as e:
        _err(f"skirmish host: {e}")
        return None, 2


class _InfoNotWritten(Exception):
    """The --info file could not be written (the server stops: whoever reads it would wait forever)."""


def cmd_host(args) -> int:
    from game.net.server import run_server

    if not args.quiet:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S",
                            stream=sys.stderr)
    host, code = _make_host(args)
    if host is None:
        return code
    g = host.game

    def ready(address):
        port = address[1]
        print(f"Skirmish network game: {g.rules.name} on {g.setup.map.name}, {len(g.decisions)} decisions played",
              flush=True)
        print(f"listening on port {port}; each player joins with: skirmish join ADDRESS:{port} --seat N --code CODE",
              flush=True)
        for p, s in sorted(host.seats.items()):
            print(f"player {p}: code {s.code}" if s.code else f"player {p}: {s.kind} (played on this server)",
                  flush=True)
        print(f"the game is kept in {host.autosave_path} (and its .journal) after every decision", flush=True)
        if args.info:
            from engine.core.saves import write_atomic
            try:
                write_atomic(args.info, json.dumps({"port": port, "bind": address[0],
                                                    "codes": {str(p): c for p, c in host.codes.items()}}))
            except (OSError, ValueError) as e:      # not "cannot listen": the port was fine
                raise _InfoNotWritten(f"skirmish host: cannot write --info {args.info}: {e}") from e

    # the game written whole and its journal started before anyone joins: a place the game
    # cannot be kept is refused now, not found out when a player drops
    if not host.start_journal():
        why = host.autosave_error or host.journal_error
        return fail(f"skirmish host: cannot keep the game in {host.autosave_path}: {why} "
                    f"(give --autosave a file you may write)", 1)
    try:
        rc = run_server(host, args.bind, args.port, ready=ready, stop_when_over=not args.keep_running)
    except _InfoNotWritten as e:
        return fail(str(e), 1)
    except OSError as e:
        return fail(f"skirmish host: cannot listen on {args.bind}:{args.port}: {e.strerror or e}", 1)
    finally:
        host.flush_autosave()
    if host.game.over:
        print(f"game over: {host.game.result().reason}; state hash {host.game.state_hash()}", flush=True)
    elif host.keep_error:     # neither the journal nor the last snapshot holds the game (a failure mended since does not count)
        print(f"stopped at decision {len(host.game.decisions)}; the last autosave to {host.autosave_path} failed "
              f"({host.keep_error})", flush=True)
    else:
        print(f"stopped at decision {len(host.game.decisions)}; the game is kept in {host.autosave_path} "
              f"(skirmish host --load it)", flush=True)
    return rc


# --- join ------------------------------------------------------------------------------------
def cmd_join(args) -> int:
    from game.net.link import parse_address

    try:
        parse_address(args.address)
    except ValueError as e:
        return fail(f"skirmish join: {e}", 2)
    from game.names import name_problem
    args.name = args.name.strip()
    if name_problem(args.name):
        return fail(f"skirmish join: --name {args.name!r}: {name_problem(args.name)}", 2)
    if args.ai:
        from engine.ai import agent_problem
        why = agent_problem(args.ai)
        if why:
            return fail(f"skirmish join: {why}", 2)
        return _join_headless(args)
    session = _joined(args, args.name)
    if session is None:
        return 1
    from game.app import run_remote

    try:
        return run_remote(session)
    finally:
        session.close()


def _joined(args, name: str):
    """The session of ``args``' seat at the host, ready to play; None after saying why the host
    refused or did not answer within ``--timeout``."""
    from game.net.link import NotConnected, Refused
    from game.net.remote import RemoteSession

    session = RemoteSession(args.address, args.seat, args.code, name)
    try:
        session.wait_ready(args.timeout)
    except (Refused, NotConnected) as e:
        session.close()
        _err(f"skirmish join: {e}")
        return None
    return session


def _join_headless(args) -> int:
    """An agent plays the seat through the protocol until the game is over."""
    from engine.core import GameError
    from game.net.link import NotConnected

    session = _joined(args, args.name or f"ai:{args.ai}")
    if session is None:
        return 1
    session.agent(args.ai, args.ai_seed)
    record: list[dict] = []
    answered = -1
    unsure = None                 # an answer sent as the connection dropped: did it arrive?
    try:
        idle = False
        while True:
            session.pump(wait=0.2 if idle else 0.0)      # wait only when there was nothing to do
            idle = True
            if session.fatal:
                return fail(f"skirmish join: {session.fatal}", 1)
            if session.undo_asked is not None:
                session.reply_undo(args.accept_undo == "yes")
            if any(getattr(step, "full", False) for step in session.take_steps()):
                answered = -1                # a (re)connection: the server may be back at an earlier decision
            g = session.game
            assert g is not None, "a joined seat's session holds the game"
            if unsure is not None and session.up:
                seq, player, choice = unsure
                if len(g.decisions) > seq and g.decisions[seq][0] == args.seat:
                    record.append({"seq": seq, "player": player, "choice": choice.to_json()})
                    answered = seq
                unsure = None
            if g.over and session.up:
                break
            d = session.pending()
            if d is None or d.player != args.seat or d.seq == answered or not session.up:
                continue
            try:
                player, choice = session.ai_choose()
                session.submit(player, choice, d.seq)
            except NotConnected:
                # the state sent on reconnecting says whether the answer arrived
                unsure = (d.seq, player, choice)
                continue
            except GameError as e:
                _err(f"skirmish join: decision #{d.seq} refused: {e}")
                answered = d.seq
                continue
            answered = d.seq
            idle = False
            record.append({"seq": d.seq, "player": player, "choice": choice.to_json()})
            if args.record:
                _write_record(args.record, args, record, session, over=False)
        result = session.game.result() if session.game is not None else None
        print(f"game over: {result.reason if result else 'ended'}", flush=True)
    finally:
        if args.record:
            _write_record(args.record, args, record, session, over=session.game is not None and session.game.over)
        session.close()
    return 0


def _write_record(path, args, record, session, over: bool) -> None:
    from engine.core.saves import write_atomic

    write_atomic(path, json.dumps({"seat": args.seat, "agent": args.ai, "ai_seed": args.ai_seed, "over": over,
                                   "decisions": record}))
