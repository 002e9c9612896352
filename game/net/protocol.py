"""The messages of a network game (issue 50): pydantic models, one JSON object a WebSocket text
message, each with the protocol's ``version`` and its ``type``.

A seat's client sends: ``hello`` (the seat and its code: the first message, and again after a
reconnection), ``answer`` (the decision number it answers and the choice, written as saves write
choices: ``Choice.to_json``), ``undo`` (take back my last decision: the other player is asked),
``undo_reply`` (the other player's yes or no), ``save`` (the host writes a save on its disk) and
``bye``. The name a player gives in ``hello`` is a ``PlayerName``: at most ``NAME_MAX``
printable characters, no space at either end (``game.names.name_problem``; ``clean_name`` makes one
from what a player typed); anything else is refused.

The server sends: ``welcome`` (your seat, the game's public setup: ruleset, map, rosters,
options; never the seed), ``state`` (after every change: the seat's view, its world (the state
with nothing hidden from it, ``engine/core/worlds.py``), who decides now and what kind, the events
this seat may see; the whole log after a (re)connection or an undo), ``refused`` (the reason;
nothing changed), ``waiting_for`` (the other player is not connected: not yet joined, or dropped),
``joined`` (the other player is at the table, first or again, with the name it gave),
``undo_asked`` (the other player asks to take back their last decision), ``undo_result``,
``saved`` and ``bye``.

Sizes are bounded: a client's message at most ``MAX_CLIENT_BYTES`` (a choice is small), the
server's at most ``MAX_SERVER_BYTES``. A message that is not JSON, not one of these shapes, of
another version or too big is refused with the reason (``ProtocolError``); nothing else happens.
"""
from __future__ import annotations

import json
from typing import Annotated, Any, Final, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from game.names import NAME_MAX, clean_name, name_problem  # noqa: F401 - the protocol's rule for a name

VERSION: Final = 1
MAX_CLIENT_BYTES = 64 * 1024
MAX_SERVER_BYTES = 16 * 1024 * 1024
MAX_SEQ = 10 ** 9
CODE_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I: read out loud or typed from a screen
CODE_LEN = 6
MAX_DEPTH = 40          # nesting of a client's message (a choice is a few levels at most)


def _checked_name(name: str) -> str:
    why = name_problem(name)
    if why:
        raise ValueError(why)
    return name


PlayerName = Annotated[str, AfterValidator(_checked_name)]


class ProtocolError(ValueError):
    """A message refused before it reached the game (the reason is sent back)."""


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False, frozen=True)
    version: Literal[1] = VERSION


# --- client -> server -------------------------------------------------------------------------
class Hello(_Msg):
    type: Literal["hello"] = "hello"
    seat: int = Field(ge=1, le=8, description="the seat asked for (1 or 2)")
    code: str = Field(min_length=1, max_length=32, description="that seat's code, as the host shows it")
    name: PlayerName = Field("", description="the player's name, shown to the other seat")


class Answer(_Msg):
    type: Literal["answer"] = "answer"
    seq: int = Field(ge=0, le=MAX_SEQ, description="the number of the decision answered")
    choice: dict = Field(description="the choice as a save writes it (Choice.to_json)")


class UndoAsk(_Msg):
    type: Literal["undo"] = "undo"
    seq: int = Field(ge=0, le=MAX_SEQ, description="the decisions settled as the asker saw it")


class UndoReply(_Msg):
    type: Literal["undo_reply"] = "undo_reply"
    seq: int = Field(ge=0, le=MAX_SEQ)
    accept: bool


class SaveAsk(_Msg):
    type: Literal["save"] = "save"
    name: str = Field("", max_length=60, pattern=r"^[A-Za-z0-9_\-]*$",
                      description="a name for the file (letters, digits, - and _); empty: the time")


class Bye(_Msg):
    type: Literal["bye"] = "bye"
    reason: str = Field("", max_length=200)


ClientMessage = Annotated[Union[Hello, Answer, UndoAsk, UndoReply, SaveAsk, Bye], Field(discriminator="type")]
# an Annotated union is a type form mypy cannot take as an argument (PEP 747); pydantic can
_CLIENT: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)  # type: ignore[arg-type]


# --- server -> client -------------------------------------------------------------------------
class PublicSetup(_Msg):
    """What of the game's ``Setup`` a seat may know: everything but the seed."""
    model_config = ConfigDict(extra="forbid", strict=False, allow_inf_nan=False, frozen=True)
    ruleset: str = Field(max_length=100)
    map: dict
    rosters: list[Any]
    options: dict


class Welcome(_Msg):
    type: Literal["welcome"] = "welcome"
    seat: int
    setup: PublicSetup
    seats: dict[str, str] = Field(description="who plays each seat: 'remote' or 'ai:AGENT'")
    names: dict[str, PlayerName] = Field(default_factory=dict, max_length=8,
                                         description="the names the seats gave (seats with none are left out)")


class Pending(_Msg):
    player: int
    kind: str


class WireEvent(_Msg):
    model_config = ConfigDict(extra="forbid", strict=False, allow_inf_nan=False, frozen=True)
    text: str
    kind: str = "info"
    data: dict = Field(default_factory=dict)
    visible_to: list[int] | None = None


class StateMsg(_Msg):
    model_config = ConfigDict(extra="forbid", strict=False, allow_inf_nan=False, frozen=True)
    type: Literal["state"] = "state"
    seq: int = Field(description="decisions settled")
    view: dict = Field(description="Rules.view for this seat (its log travels as events)")
    world: Any = Field(description="the state as this seat may know it (engine/core/worlds.py)")
    pending: Pending | None = Field(description="who decides now and what kind; None: the game is over")
    deciders: list[int] = Field(description="who decided each decision after the ones the seat had")
    events: list[WireEvent] = Field(description="the events this seat may see, new since its last state")
    full: bool = Field(False, description="deciders and events are the whole game's (after a join or an undo)")
    connected: dict[str, bool] = Field(default_factory=dict, description="which seats are connected now")
    by: int | None = Field(None, description="who made the change (the decision's player, or an undo's)")
    undone: bool = False


class Refused(_Msg):
    type: Literal["refused"] = "refused"
    reason: str
    seq: int | None = None


class WaitingFor(_Msg):
    type: Literal["waiting_for"] = "waiting_for"
    seat: int
    text: str = ""
    joined: bool = Field(False, description="the seat was at the table before (it dropped); else not yet joined")


class Joined(_Msg):
    type: Literal["joined"] = "joined"
    seat: int
    name: PlayerName = ""
    again: bool = Field(False, description="it was at the table before (it is back)")


class UndoAsked(_Msg):
    type: Literal["undo_asked"] = "undo_asked"
    by: int
    seq: int
    keep: int = Field(description="decisions that would stay")


class UndoResult(_Msg):
    type: Literal["undo_result"] = "undo_result"
    accepted: bool
    by: int
    reason: str = ""


class Saved(_Msg):
    type: Literal["saved"] = "saved"
    file: str


class ServerBye(_Msg):
    type: Literal["bye"] = "bye"
    reason: str = ""


ServerMessage = Annotated[Union[Welcome, StateMsg, Refused, WaitingFor, Joined, UndoAsked, UndoResult, Saved,
                                ServerBye], Field(discriminator="type")]
_SERVER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)  # type: ignore[arg-type]


def _depth_problem(text: str, limit: int) -> str | None:
    """A cheap scan of the brackets outside strings: deeper than ``limit`` is refused before any
    parser recurses into it."""
    depth = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return f"nested more than {limit} levels deep"
        elif ch in "]}":
            depth -= 1
    return None


def _reason(err: ValidationError) -> str:
    parts = []
    for e in err.errors()[:3]:
        where = ".".join(str(x) for x in e.get("loc", ()))
        parts.append(f"{where or 'message'}: {e.get('msg', 'invalid')}")
    return "; ".join(parts)


def parse_client(raw: Any) -> Hello | Answer | UndoAsk | UndoReply | SaveAsk | Bye:
    """A client's message, or ``ProtocolError`` with the reason it is refused."""
    if isinstance(raw, (bytes, bytearray, memoryview)):
        if len(raw) > MAX_CLIENT_BYTES:
            raise ProtocolError(f"a message of {len(raw)} bytes; at most {MAX_CLIENT_BYTES}")
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("not UTF-8 text") from None
    if not isinstance(raw, str):
        raise ProtocolError("not a text message")
    if len(raw) > MAX_CLIENT_BYTES or len(raw.encode("utf-8", "surrogatepass")) > MAX_CLIENT_BYTES:
        raise ProtocolError(f"a message of more than {MAX_CLIENT_BYTES} bytes")
    why = _depth_problem(raw, MAX_DEPTH)
    if why:
        raise ProtocolError(why)
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError) as err:
        raise ProtocolError(f"not JSON: {str(err)[:80]}") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object")
    version = data.get("version")
    if version != VERSION or type(version) is not int:
        raise ProtocolError(f"protocol version {str(version)[:20]!r}: this server speaks version {VERSION}")
    if data.get("type") not in ("hello", "answer", "undo", "undo_reply", "save", "bye"):
        raise ProtocolError(f"no message type {str(data.get('type'))[:30]!r} (hello, answer, undo, undo_reply, "
                            "save, bye)")
    try:
        return _CLIENT.validate_python(data, strict=True)
    except ValidationError as err:
        raise ProtocolError(_reason(err)) from None


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def parse_server(raw: Any):
    """A server's message (the client's side), or ``ProtocolError``."""
    if isinstance(raw, (bytes, bytearray, memoryview)):
        raw = bytes(raw).decode("utf-8", "replace")
    if not isinstance(raw, str) or len(raw) > MAX_SERVER_BYTES:
        raise ProtocolError("not a text message of a bounded size")
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError) as err:
        raise ProtocolError(f"not JSON: {str(err)[:80]}") from None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise ProtocolError(f"not a message of protocol version {VERSION}")
    try:
        return _SERVER.validate_python(data)
    except ValidationError as err:
        raise ProtocolError(_reason(err)) from None


def dump(msg: _Msg) -> str:
    """The message as its JSON text (what goes on the wire)."""
    return json.dumps(msg.model_dump(mode="json"), separators=(",", ":"), allow_nan=False)


def normal_code(text: str) -> str:
    """A code as typed (any case, spaces or dashes) in the form the host made it."""
    return "".join(ch for ch in str(text).upper() if ch not in " -")
