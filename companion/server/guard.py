"""The wire's boundary: malformed Engine.IO / Socket.IO packets are refused, quietly.

python-engineio and python-socketio assume well-formed packets: a frame such as `x`, `42` with
no data, `42["comando"` or a binary attachment nobody announced raises inside the library and
prints a traceback (the server stays up, but the GM's terminal fills with noise and nothing says
what happened). Here each packet is checked before the library handles it; a malformed one
closes that connection only — the refusal a client that sends garbage gets — with one line in
the log. Nothing the companion accepts is binary.
"""
from __future__ import annotations

import logging
from typing import Any, Callable, Iterable

from socketio import packet

log = logging.getLogger(__name__)
WSGI = Callable[[dict, Callable[..., Any]], Iterable[bytes]]
NEEDS_DATA = {packet.EVENT: True, packet.ACK: True}


def well_formed(data: Any) -> bool:
    """Whether an Engine.IO message is a Socket.IO packet the companion may handle."""
    if not isinstance(data, str):
        return False  # binary attachments: nothing here takes them
    try:
        parsed = packet.Packet(encoded_packet=data)
    except Exception:  # any decoding failure of the library is a malformed packet
        return False
    if parsed.packet_type in (packet.BINARY_EVENT, packet.BINARY_ACK) or parsed.attachment_count:
        return False
    if parsed.packet_type == packet.EVENT:
        return (isinstance(parsed.data, list) and bool(parsed.data)
                and isinstance(parsed.data[0], str))
    if parsed.packet_type == packet.ACK:
        return isinstance(parsed.data, list)
    return parsed.packet_type in (packet.CONNECT, packet.DISCONNECT)


def guard_messages(server: Any) -> None:
    """Put the check in front of python-socketio's Engine.IO message handler."""
    eio = server.eio
    handle = eio.handlers["message"]

    def checked(eio_sid: str, data: Any) -> Any:
        if well_formed(data):
            return handle(eio_sid, data)
        log.info("conexão %s encerrada: pacote Socket.IO malformado", eio_sid)
        eio.disconnect(eio_sid)
        return None

    eio.on("message", checked)


def guard_transport(wsgi_app: WSGI, path: str = "/socket.io") -> WSGI:
    """Engine.IO decodes a WebSocket frame outside any try (a frame like `x` raises): drop that
    connection with one log line instead of werkzeug's traceback. Only Engine.IO requests go
    through here; Flask answers its own errors itself and never lets them out."""
    def app(environ: dict, start_response: Callable[..., Any]) -> Iterable[bytes]:
        if not environ.get("PATH_INFO", "").startswith(path):
            return wsgi_app(environ, start_response)
        try:
            return wsgi_app(environ, start_response)
        except (ValueError, IndexError, TypeError, KeyError) as error:
            log.info("conexão encerrada: quadro Engine.IO inválido (%s)", type(error).__name__)
            # how simple-websocket itself ends a WebSocket under werkzeug: the server drops
            # the connection (RequestHandler.connection_dropped) without a traceback
            raise ConnectionError("quadro Engine.IO inválido") from None

    return app
