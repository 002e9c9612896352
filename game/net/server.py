"""The network game's server: asyncio and the ``websockets`` library around a ``GameHost``.

Each connection reads messages and hands them to the host one at a time (on the event loop, so
the game is only ever touched from one thread, except by an agent thinking on a worker thread
while the host refuses anything that would need the game); what the host returns is queued per
connection and written in order by that connection's own writer, so a slow reader never holds
up the other. An AI seat's turn runs on a thread (``asyncio.to_thread``). A wrong code is
answered after a short pause and the connection closed, which makes guessing codes slow.

The server stops when the game is over and nobody is connected (or on ``stop()``, Ctrl-C or
SIGTERM); the game is in its autosave and journal after every decision either way. A
connection that never opens as a WebSocket (a browser, a scan, junk) is one warning line.
"""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import signal
import time

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from .host import GameHost
from .host_seats import Outgoing
from .protocol import MAX_CLIENT_BYTES

log = logging.getLogger("skirmish.net")


class _OneLine(logging.Filter):
    """The ``websockets`` library logs a connection that never opened as a WebSocket (a port
    scan, a browser, junk) as an error with its whole traceback; here it is one warning line
    saying who was refused and why. Its other words pass as they are (a traceback there is a
    defect worth reading)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.msg == "opening handshake failed":
            err = record.exc_info[1]
            for _ in range(10):                  # the first cause says it best ("invalid HTTP request line: x")
                if err is None or err.__cause__ is None:
                    break
                err = err.__cause__
            why = (str(err) or type(err).__name__)[:200] if err is not None else "no reason given"
            peer = getattr(getattr(record, "websocket", None), "remote_address", None)
            who = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) and len(peer) >= 2 else "a connection"
            record.msg, record.args = "refused %s: not a WebSocket opening (%s)", (who, why)
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
        return True


wire_log = logging.getLogger("skirmish.net.wire")     # the library's own words, through _OneLine
wire_log.addFilter(_OneLine())
WRONG_CODE_PAUSE = 0.5        # seconds before a wrong code is answered and the connection closed
# a frame larger than this is closed by the library itself ("message too big"); between
# MAX_CLIENT_BYTES and this, the host refuses it with the reason
FRAME_LIMIT = 4 * MAX_CLIENT_BYTES


class GameServer:
    def __init__(self, host: GameHost, bind: str = "0.0.0.0", port: int = 0, stop_when_over: bool = True):
        self.host = host
        self.bind, self.port = bind, port
        self.stop_when_over = stop_when_over
        self._ids = itertools.count(1)
        self._queues: dict[int, asyncio.Queue] = {}
        self._stop: asyncio.Event | None = None
        self._ai_kick: asyncio.Event | None = None
        self.address: tuple[str, int] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wrong: list[float] = []

    # --- sending -----------------------------------------------------------------------
    def deliver(self, out: list[Outgoing]) -> None:
        for o in out:
            q = self._queues.get(o.conn)
            if q is not None:
                q.put_nowait(o)
        self._ai_kick.set()
        self._maybe_stop()

    async def _writer(self, ws: ServerConnection, q: asyncio.Queue) -> None:
        while True:
            o = await q.get()
            if o is None:
                return
            try:
                await ws.send(o.text)
            except ConnectionClosed:
                return
            if o.close:
                await ws.close(1000, "closed by the server")
                return

    # --- a connection ------------------------------------------------------------------
    async def _handler(self, ws: ServerConnection) -> None:
        cid = next(self._ids)
        q: asyncio.Queue = asyncio.Queue()
        self._queues[cid] = q
        writer = asyncio.create_task(self._writer(ws, q))
        self.deliver(self.host.connect(cid))
        try:
            async for raw in ws:
                out = self.host.receive(cid, raw)
                if any(o.close and o.conn == cid and '"the code is wrong"' in o.text for o in out):
                    await asyncio.sleep(self._wrong_code_pause())
                self.deliver(out)
                if any(o.close and o.conn == cid for o in out):
                    break
        except ConnectionClosed:
            pass
        finally:
            self.deliver(self.host.disconnect(cid))
            q.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 5.0)
            self._queues.pop(cid, None)
            self._maybe_stop()

    def _wrong_code_pause(self) -> float:
        """Half a second after a wrong code; three seconds while wrong codes come thick (more
        than 20 in 10 s, over every connection): guessing a code stays hopeless."""
        now = time.monotonic()
        self._wrong = [t for t in self._wrong if now - t < 10.0] + [now]
        return WRONG_CODE_PAUSE if len(self._wrong) <= 20 else 3.0

    # --- the AI's turns ----------------------------------------------------------------
    async def _ai_loop(self) -> None:
        while True:
            await self._ai_kick.wait()
            self._ai_kick.clear()
            due = self.host.ai_due()
            if due is None:
                continue
            self.host.ai_busy = True
            try:
                player, seq, choice = await asyncio.to_thread(self.host.ai_think)
            except Exception as err:   # noqa: BLE001 - an agent's failure must not stop the server
                self.host.ai_busy = False
                self.host.exceptions += 1
                log.error("the AI of player %d failed: %r", due[0], err)
                await asyncio.sleep(1.0)
                self._ai_kick.set()
                continue
            self.deliver(self.host.ai_done(player, seq, choice))

    def _maybe_stop(self) -> None:
        if self.stop_when_over and self._stop is not None and self.host.game.over \
                and not any(s is not None for s in self.host.conns.values()) and not self._queues_busy():
            self._stop.set()

    def _queues_busy(self) -> bool:
        return any(not q.empty() for q in self._queues.values())

    def stop(self) -> None:
        """Stop serving (from any thread)."""
        loop = self._loop
        if self._stop is None or loop is None or loop.is_closed():
            return
        try:
            if asyncio.get_running_loop() is loop:
                self._stop.set()
                return
        except RuntimeError:
            pass
        loop.call_soon_threadsafe(self._stop.set)

    async def run(self, ready=None) -> int:
        """Serve until stopped; ``ready(address)`` is called once listening."""
        self._stop = asyncio.Event()
        self._ai_kick = asyncio.Event()
        loop = self._loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self._stop.set)
        async with serve(self._handler, self.bind, self.port, max_size=FRAME_LIMIT, ping_interval=15,
                         ping_timeout=30, close_timeout=3, logger=wire_log) as server:
            sock = next(iter(server.sockets))
            self.address = sock.getsockname()[:2]
            if ready is not None:
                ready(self.address)
            ai = asyncio.create_task(self._ai_loop())
            self._ai_kick.set()
            await self._stop.wait()
            ai.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ai
        return 0


def run_server(host: GameHost, bind: str = "0.0.0.0", port: int = 0, ready=None, stop_when_over: bool = True) -> int:
    return asyncio.run(GameServer(host, bind, port, stop_when_over).run(ready))


def serve_in_thread(host: GameHost, bind: str = "0.0.0.0", port: int = 0, timeout: float = 10.0) -> GameServer:
    """Serve ``host`` from a daemon thread of this process (the launcher's Host: the window's
    player is seat 1 of its own server); returns once listening (``server.address``), or raises
    ``OSError`` (the port is taken). ``server.stop()`` ends it; it also ends with the process,
    the game kept in its autosave."""
    import threading

    server = GameServer(host, bind, port, stop_when_over=False)
    ready = threading.Event()
    failed: list[BaseException] = []

    def run():
        try:
            asyncio.run(server.run(lambda a: ready.set()))
        except BaseException as err:   # noqa: BLE001 - given to the caller
            failed.append(err)
            ready.set()

    threading.Thread(target=run, daemon=True, name="skirmish-server").start()
    if not ready.wait(timeout):
        raise OSError("the server did not start")
    if failed:
        err = failed[0]
        raise err if isinstance(err, OSError) else OSError(str(err))
    return server


def lan_address() -> str:
    """This machine's address on its local network, as another machine would reach it (the
    interface a route out would use; nothing is sent), else its host name."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
    except OSError:
        return socket.gethostname()
