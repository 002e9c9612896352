"""The host's decision journal (issue 59): every change of the game on disk before any seat hears of it.

The autosave (the snapshot: a whole save) is written on a thread of its own and may be a write
or two behind the game, so a host killed at the wrong moment left a snapshot older than what
the players had been shown. Beside it (``autosave.json.journal``) the host appends one JSON line
per change and syncs it (``write`` + ``fdatasync``) *before* the new state is sent to any seat:

- a first line, ``{"format": "skirmish-host-journal", "version": 1, "token": T}``, written
  atomically when the journal starts (the host's start, or after a failed append);
- ``{"op": K, "n": N, "player": P, "choice": {...}, "hash": H}``: decision number ``N`` (the
  choice as a save writes it) and the state hash after it;
- ``{"op": K, "undo": KEEP, "hash": H}``: an agreed undo, ``KEEP`` decisions kept.

``K`` counts the lines after the first (0, 1, 2...). Each snapshot says in its ``client.net.
journal`` which journal it belongs to and how many of its lines it already holds (``{"token":
T, "ops": K}``); the journal is always at least as far on, because its line is written first.
``host --load`` (``replay_journal``) loads the snapshot and plays the journal's lines past it,
each checked as it goes (the decision number, the rules accepting it, the state hash after it),
so the game is exactly the one the seats were last told about. A journal of another token (a
crash between the snapshot and the journal it starts) holds nothing the snapshot lacks and is
left out; a last line cut short was never acknowledged (the seats hear of a change only after
its line is whole on disk) and is left out too; any other damage refuses the load with the
journal, the line and the reason (``DataError``): removing the journal loads the snapshot alone.

Why a sync per line: a killed process loses nothing already written, but a machine that stops
(power, a kernel panic) loses what is only in its page cache; the line and its ``fdatasync``
took 2.3 ms median on the shared 2-core machine (``bench/host_latency.py --keep``,
docs/performance.md), and a legal answer's latency went from 2.8 to 3.5 ms median, so every
acknowledged decision survives either, for less than a frame.
"""
from __future__ import annotations

import json
import logging
import os
from pathlib import Path

log = logging.getLogger("skirmish.net")
JOURNAL_FORMAT = "skirmish-host-journal"
JOURNAL_VERSION = 1
MAX_LINE = 1 << 20          # a longer line is no line this host wrote
MAX_JOURNAL = 1 << 28       # 256 MiB: thousands of times a long game's journal (a line is ~100-300 bytes)


def journal_path(autosave: Path) -> Path:
    """The journal kept beside a snapshot (``host-autosave.json`` -> ``host-autosave.json.journal``)."""
    autosave = Path(autosave)
    return autosave.with_name(autosave.name + ".journal")


def _sync(fd: int) -> None:
    (getattr(os, "fdatasync", None) or os.fsync)(fd)    # the data and the length; macOS and Windows: fsync


class Journal:
    """One journal file being appended to (``start`` makes it; ``decision`` and ``undo`` add a
    line each, written and synced before they return; ``ops``: the lines after the first)."""

    def __init__(self, path: Path, token: str, fd: int):
        self.path, self.token, self._fd = Path(path), token, fd
        self.ops = 0

    @classmethod
    def start(cls, path, token: str) -> Journal:
        """A new journal (an old one at ``path`` replaced atomically: its snapshot was just written)."""
        from engine.core.saves import write_atomic

        path = Path(path)
        head = {"format": JOURNAL_FORMAT, "version": JOURNAL_VERSION, "token": token}
        write_atomic(path, json.dumps(head) + "\n")
        return cls(path, token, os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0)))

    def decision(self, n: int, player: int, choice, state_hash: str) -> None:
        self._append({"op": self.ops, "n": n, "player": player, "choice": choice.to_json(), "hash": state_hash})

    def undo(self, keep: int, state_hash: str) -> None:
        self._append({"op": self.ops, "undo": keep, "hash": state_hash})

    def _append(self, d: dict) -> None:
        data = (json.dumps(d, separators=(",", ":"), allow_nan=False) + "\n").encode()
        view = memoryview(data)
        while view:                             # one write in practice; a short write goes on
            view = view[os.write(self._fd, view):]
        _sync(self._fd)
        self.ops += 1

    def close(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None


# --- loading --------------------------------------------------------------------------------------
def _lines(path: Path) -> list[tuple[int, dict | None, str]]:
    """(line number, the parsed object or None, why not) of each line; a last line cut short is left out."""
    with open(path, "rb") as f:
        data = f.read()
    rows = data.split(b"\n")
    torn = rows.pop()            # after the last newline: empty, or a line whose write never finished
    if torn:
        log.warning("%s: its last line was cut short (a write the host never finished); left out", path)
    out = []
    for i, raw in enumerate(rows, 1):
        try:
            d = json.loads(raw.decode("utf-8")) if len(raw) <= MAX_LINE else None
            why = "" if isinstance(d, dict) else "not a JSON object"
        except (UnicodeDecodeError, ValueError, RecursionError) as err:
            d, why = None, f"not JSON: {str(err)[:200]}"
        out.append((i, d if isinstance(d, dict) else None, why))
    return out


def replay_journal(snapshot, game, mark):
    """``game`` (loaded from ``snapshot``) with the journal's lines past it played (``mark``: the
    snapshot's ``client.net.journal``); the game itself when there is no journal to play.
    ``DataError`` (the journal, the line, the reason) for a journal of this game that is damaged."""
    from engine.core import Choice, replay
    from engine.data.errors import DataError

    path = journal_path(snapshot)
    if not isinstance(mark, dict) or not isinstance(mark.get("token"), str) or not path.is_file():
        return game
    held = mark.get("ops")
    if isinstance(held, bool) or not isinstance(held, int) or held < 0:
        raise DataError(snapshot, [("client.net.journal.ops", f"{held!r} is not a count of journal lines")])
    try:
        size = path.stat().st_size
        if size > MAX_JOURNAL:
            raise DataError(path, [("file", f"{size:,} bytes: no journal of one game is that long "
                                            f"(remove it to load {Path(snapshot).name} alone)")])
        rows = _lines(path)
    except OSError as err:
        raise DataError(path, [("file", f"cannot be read: {err.strerror or err}")]) from None
    if not rows:
        return game
    alone = f"{Path(snapshot).name} alone ({len(game.decisions)} decisions)"

    def bad(line: int, why: str):
        return DataError(path, [(f"line {line}", f"{why} (remove the journal to load {alone})")])

    n0, head, why = rows[0]
    if head is None or head.get("format") != JOURNAL_FORMAT:
        raise bad(n0, why or f"not a {JOURNAL_FORMAT} header")
    if head.get("token") != mark["token"]:
        log.info("%s belongs to another run of the host than %s; the snapshot holds all of it", path, snapshot)
        return game

    ops = rows[1:]
    if len(ops) < held:
        log.warning("%s holds %d lines, its snapshot %d; the snapshot alone", path, len(ops), held)
        return game
    for k, (line, d, why) in enumerate(ops):
        if d is None:
            raise bad(line, why)
        if d.get("op") != k:
            raise bad(line, f"line number {d.get('op')!r} where {k} was due")
        if k < held:
            continue
        try:
            if "undo" in d:
                keep = d["undo"]
                if isinstance(keep, bool) or not isinstance(keep, int) or not 0 <= keep < len(game.decisions):
                    raise bad(line, f"an undo keeping {keep!r} of {len(game.decisions)} decisions")
                game = replay(game.setup, game.decisions[:keep], table=game.table)
            else:
                if d.get("n") != len(game.decisions):
                    raise bad(line, f"decision #{d.get('n')!r} where #{len(game.decisions)} was due")
                player = d.get("player")
                if isinstance(player, bool) or not isinstance(player, int) or not isinstance(d.get("choice"), dict):
                    raise bad(line, "a decision needs a player number and a choice")
                game.submit(player, Choice.from_json(d["choice"]))
        except DataError:
            raise
        except Exception as err:   # noqa: BLE001 - as load_game: whatever the rules raise, the line is refused
            raise bad(line, f"does not replay: {type(err).__name__}: {str(err)[:300]}") from None
        if game.state_hash() != d.get("hash"):
            raise bad(line, f"replaying gives the state hash {game.state_hash()}, the journal says {d.get('hash')!r}")
    return game
