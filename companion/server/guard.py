"""The wire's boundary: malformed Engine.IO / Socket.IO packets are refused, quietly.

python-engineio and python-socketio assume well-formed packets: a frame such as `x`, `42` with
no data, `42["comando"` or a binary attachment nobody announced raises inside the library and
prints a traceback (the server stays up, but the GM's terminal fills with noise and nothing says
what happened). Here each packet is checked before the library handles it; a malformed one
closes that connection only — the refusal a client that sends garbage gets — with one line in
the log. Binary data is accepted only as announced attachments (one per packet) of the events
that take bytes (`binary_events`: the GM page's microphone, `voz_audio`), each attachment right
after the packet that announced it.

Event names the library keeps for itself (`connect`, `disconnect`, `connect_error`) are never
a client's to send: such an event is dropped — not acknowledged, not handled — with one line in
the log. (python-socketio would run the server's own `disconnect` handler for it, forgetting a
connection whose socket stays open in its rooms.) The log lines are the session's words
(tables/narracao/log_do_servidor.yaml).
"""
from __future__ import annotations

import logging
from typing import Any, Callable

from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI
from socketio import packet

from companion.tables.narration import Narrator

log = logging.getLogger(__name__)
MAX_ATTACHMENTS = 1  # an audio chunk is one bytes value
RESERVED_EVENTS = frozenset({"connect", "disconnect", "connect_error"})


def reserved_event(data: Any) -> str | None:
    """The name of a text event packet that names a reserved event (None for any other)."""
    if not isinstance(data, str) or not any(name in data for name in RESERVED_EVENTS):
        return None
    try:
        parsed = packet.Packet(encoded_packet=data)
    except Exception:
        return None
    if parsed.packet_type not in (packet.EVENT, packet.BINARY_EVENT):
        return None
    name = parsed.data[0] if isinstance(parsed.data, list) and parsed.data else None
    return name if isinstance(name, str) and name in RESERVED_EVENTS else None


def attachments(data: Any, binary_events: frozenset[str] = frozenset()) -> int | None:
    """How many binary attachments a well-formed text packet announces (0 for most), or None
    for a malformed one or a bytes message (those are checked against what was announced)."""
    if not isinstance(data, str):
        return None
    try:
        parsed = packet.Packet(encoded_packet=data)
    except Exception:  # any decoding failure of the library is a malformed packet
        return None
    if parsed.packet_type == packet.BINARY_EVENT:
        named = (isinstance(parsed.data, list) and bool(parsed.data)
                 and parsed.data[0] in binary_events)
        ok = named and 1 <= parsed.attachment_count <= MAX_ATTACHMENTS
        return parsed.attachment_count if ok else None
    if parsed.packet_type == packet.BINARY_ACK or parsed.attachment_count:
        return None
    if parsed.packet_type == packet.EVENT:
        ok = isinstance(parsed.data, list) and bool(parsed.data) and isinstance(parsed.data[0], str)
        return 0 if ok else None
    if parsed.packet_type == packet.ACK:
        return 0 if isinstance(parsed.data, list) else None
    return 0 if parsed.packet_type in (packet.CONNECT, packet.DISCONNECT) else None


def guard_messages(server: Any, words: Narrator,
                   binary_events: frozenset[str] = frozenset()) -> None:
    """Put the check in front of python-socketio's Engine.IO message handler (its log lines
    said with `words`)."""
    eio = server.eio
    handle = eio.handlers["message"]
    awaited: dict[str, int] = {}  # connection → binary attachments announced, not yet received

    def checked(eio_sid: str, data: Any) -> Any:
        if isinstance(data, (bytes, bytearray)) and awaited.get(eio_sid, 0) > 0:
            awaited[eio_sid] -= 1
        elif eio_sid in awaited and awaited[eio_sid] > 0:
            return _refuse(eio_sid)  # text where an announced attachment should be
        else:
            count = attachments(data, binary_events)
            if count is None:
                return _refuse(eio_sid)
            awaited[eio_sid] = count
            name = reserved_event(data)
            if name is not None:
                log.info(words.render("log_do_servidor.evento_reservado",
                                      {"conexao": eio_sid, "evento": repr(name)}))
                return None
        try:
            return handle(eio_sid, data)
        except KeyError:
            if eio_sid in server.environ:
                raise
            # a packet handled after its connection was closed (e.g. by a malformed one)
            log.info(words.render("log_do_servidor.ja_encerrada", {"conexao": eio_sid}))
            return None

    def _refuse(eio_sid: str) -> None:
        log.info(words.render("log_do_servidor.pacote_malformado", {"conexao": eio_sid}))
        awaited.pop(eio_sid, None)
        eio.disconnect(eio_sid)
        return None

    eio.on("message", checked)
    previous = eio.handlers.get("disconnect")

    def forget(eio_sid: str, *args: Any) -> Any:
        awaited.pop(eio_sid, None)
        return previous(eio_sid, *args) if previous else None

    eio.on("disconnect", forget)


class _SafeWebSocket(SimpleWebSocketWSGI):
    """engine.io's simple-websocket wrapper, for frames it cannot decode: it decodes each frame
    outside any try (a frame like `x` raises ValueError out of the handler, and werkzeug prints
    the traceback), and its writer thread may close a socket werkzeug already closed (OSError
    in a thread). Here the first ends that connection with one log line, the second is quiet.
    guard_transport makes one for a server, with its `words`."""

    words: Narrator

    def __call__(self, environ: dict, start_response: Callable[..., Any]) -> Any:
        try:
            return super().__call__(environ, start_response)
        except (ValueError, IndexError, TypeError, KeyError) as error:
            log.info(self.words.render("log_do_servidor.quadro_invalido",
                                       {"erro": type(error).__name__}))
            self.close()
            # how simple-websocket itself ends a WebSocket under werkzeug: the server drops
            # the connection (RequestHandler.connection_dropped) without a traceback
            raise ConnectionError(self.words.render("log_do_servidor.quadro_invalido_curto",
                                                    {})) from None

    def close(self) -> None:
        try:
            super().close()
        except Exception:  # OSError, wsproto's LocalProtocolError: closing is best effort
            pass  # already closed (by us, by the other side or by werkzeug)


def guard_transport(server: Any, words: Narrator) -> None:
    """Use a _SafeWebSocket saying `words` for this server's WebSocket connections (a copy of
    the driver table: the library's own is shared by every server in the process)."""
    eio = server.eio
    safe = type("SafeWebSocket", (_SafeWebSocket,), {"words": words})
    eio._async = {**eio._async, "websocket": safe}
