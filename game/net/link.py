"""A remote seat's connection on a thread of its own (hello, read, reconnect), its address and its errors."""
from __future__ import annotations

import json
import queue
import threading

from engine.core import GameError

from .protocol import MAX_SERVER_BYTES


class Refused(GameError):
    """The server refused a message (the reason is its own)."""


class NotConnected(GameError):
    """The connection is down (it is being made again)."""


def parse_address(text: str, default_port: int = 8765) -> tuple[str, int]:
    """HOST:PORT (or HOST, or [v6]:PORT) as (host, port); ValueError with the reason."""
    text = str(text).strip()
    if text.startswith("ws://"):
        text = text[5:].rstrip("/")
    if text.startswith("["):
        if "]" not in text:
            raise ValueError(f"{text!r}: the [ of an IPv6 address is not closed (write [::1]:8765)")
        h, _, rest = text[1:].partition("]")
        if rest and not rest.startswith(":"):
            raise ValueError(f"{text!r}: after ] comes :PORT (write [::1]:8765)")
        port = rest[1:] if rest.startswith(":") else ""
    elif text.count(":") == 1:
        h, _, port = text.partition(":")
    else:
        h, port = text, ""
    if not h:
        raise ValueError(f"{text!r}: no host (write HOST:PORT, e.g. 192.168.1.20:8765)")
    try:
        p = int(port) if port else default_port
    except ValueError:
        raise ValueError(f"{text!r}: the port is not a number") from None
    if not 1 <= p <= 65535:
        raise ValueError(f"{text!r}: the port must be 1 to 65535")
    return h, p


class _Link(threading.Thread):
    """The connection, on its own thread: hello, read, reconnect. Puts ("msg", text),
    ("down", why) and ("fatal", why) into ``inbox``."""

    def __init__(self, uri: str, hello: str, inbox: queue.Queue):
        super().__init__(daemon=True, name="skirmish-net")
        self.uri, self.hello, self.inbox = uri, hello, inbox
        self.stopping = threading.Event()
        self.ws = None
        self.lock = threading.Lock()
        self.connections = 0

    def run(self) -> None:
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
        from websockets.sync.client import connect

        wait = 0.2
        while not self.stopping.is_set():
            fatal = None
            try:
                with connect(self.uri, max_size=MAX_SERVER_BYTES, open_timeout=5, close_timeout=2) as ws:
                    with self.lock:
                        self.ws = ws
                    self.connections += 1
                    ws.send(self.hello)
                    welcomed = False
                    for raw in ws:
                        if not welcomed:
                            kind = _kind(raw)
                            if kind == "refused":          # before a welcome: the code is wrong
                                fatal = _reason(raw)
                            welcomed = kind == "welcome"
                        self.inbox.put(("msg", raw))
                        wait = 0.2
                    why = "the server closed the connection"
            except InvalidURI as err:
                self.inbox.put(("fatal", f"not an address: {err}"))
                return
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as err:
                why = f"{type(err).__name__}: {err}"
            except Exception as err:   # noqa: BLE001 - a bug here: say so, never a silent thread
                self.inbox.put(("fatal", f"the connection failed: {type(err).__name__}: {err}"))
                return
            finally:
                with self.lock:
                    self.ws = None
            if fatal:
                self.inbox.put(("fatal", fatal))
                return
            if self.stopping.is_set():
                return
            self.inbox.put(("down", why))
            self.stopping.wait(wait)
            wait = min(3.0, wait * 2)

    def send(self, text: str) -> bool:
        with self.lock:
            ws = self.ws
        if ws is None:
            return False
        try:
            ws.send(text)
            return True
        except Exception:   # noqa: BLE001 - a dropped connection: the thread connects again
            return False

    def stop(self, bye: str | None = None) -> None:
        self.stopping.set()
        with self.lock:
            ws = self.ws
        if ws is not None:
            try:
                if bye:
                    ws.send(bye)
                ws.close()
            except Exception:   # noqa: BLE001
                pass


def _kind(raw) -> str | None:
    try:
        d = json.loads(raw)
        return d.get("type") if isinstance(d, dict) else None
    except (ValueError, TypeError, RecursionError):
        return None


def _reason(raw) -> str:
    try:
        return str(json.loads(raw).get("reason", "refused"))
    except (ValueError, TypeError, AttributeError, RecursionError):
        return "refused"
