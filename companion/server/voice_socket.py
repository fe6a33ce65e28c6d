"""Voice over Socket.IO: the GM page's microphone, listening modes, push-to-talk, the toast.

Client → server (GM only; anyone else is refused with a reason):
- `voz_audio` <bytes>: 16 kHz mono 16-bit PCM from the GM page's own microphone;
- `voz_fim`: that audio ended (push-to-talk released): close the utterance now;
- `voz_modo` {"modo": "ativacao"|"apertar"|"sempre"|"desligado"} → the new voice state;
- `voz_falar` {"fonte": "notebook"|"pagina"}: push-to-talk; "notebook" opens the laptop's
  microphone for the configured seconds;
- `voz_estado` → the voice state (a table screen open on the laptop itself may ask too).
Server → client: `voz` {"ouvi", "confianca", "comando", "motivo", "aceito", "codigo"} to the GM
room for every utterance read (`codigo`: aceito, confianca_baixa, nao_entendido or recusado);
`voz_estado` {"ligada", "modo", "palavra", "apertar_restante", "aviso"} to the GM and the table
screens on the laptop whenever it changes (a device elsewhere never learns it).
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any

from flask import request
from flask_socketio import SocketIO

from companion.server.rooms import GM_ROOM, LAPTOP_TABLE_ROOM, NAMESPACE
from companion.server.sockets import Hub
from companion.tables.narration import Narrator
from companion.voice.recognizer import VoiceUnavailable
from companion.voice.sources import Microphone

log = logging.getLogger(__name__)
BINARY_EVENTS = frozenset({"voz_audio"})  # the events that take bytes (server.guard)
MAX_CHUNK = 64_000  # two seconds of 16 kHz 16-bit audio per message at most


class VoiceHub:
    """The voice side of one server: the session's Voice (listener may be None)."""

    def __init__(self, socketio: SocketIO, hub: Hub, voice: Any) -> None:
        self.socketio = socketio
        self.hub = hub
        self.voice = voice
        self.microphone: Any = None
        self._mic_timer: threading.Timer | None = None

    @property
    def words(self) -> Narrator:
        """The session's narration (tables/narracao/voz_no_servidor.yaml)."""
        return self.hub.session.tables.narration

    def _gm_only(self) -> dict[str, Any]:
        """The refusal of a voice event sent by anyone but the GM."""
        return {"ok": False, "error": self.words.render("voz_no_servidor.voz_so_mestre", {})}

    # -------------------------------------------------------------- to the pages

    def heard(self, report: dict[str, Any]) -> None:
        self.socketio.server.emit("voz", report, to=GM_ROOM, namespace=NAMESPACE)

    def status_changed(self, status: dict[str, Any]) -> None:
        self.follow_mode(status.get("modo", "desligado"))
        for room in (GM_ROOM, LAPTOP_TABLE_ROOM):
            self.socketio.server.emit("voz_estado", status, to=room, namespace=NAMESPACE)

    def state(self) -> dict[str, Any]:
        listener = self.voice.listener if self.voice is not None else None
        if listener is None:
            line = self.voice.line if self.voice is not None else \
                self.words.render("voz_no_servidor.voz_desligada", {})
            return {"ligada": False, "modo": "desligado", "palavra": "",
                    "apertar_restante": 0.0, "aviso": line}
        return listener.status().to_json(time.monotonic())

    # -------------------------------------------------------------- from the GM page

    def asked_state(self) -> dict[str, Any]:
        """`voz_estado`: the GM, or a table screen on the laptop itself."""
        client = self.hub.connections.find(request.sid)  # type: ignore[attr-defined]
        if client is None or not (client.role == "mestre"
                                  or client.role == "mesa" and client.on_laptop):
            return {"ok": False, "error": self.hub.session.tables.narration.render(
                "seguranca.voz_so_mestre", {})}
        return self.state()

    def _role(self) -> str | None:
        client = self.hub.connections.find(request.sid)  # type: ignore[attr-defined]
        return client.role if client else None

    def _listener(self) -> Any:
        return self.voice.listener if self.voice is not None else None

    def audio(self, data: Any) -> dict[str, Any] | None:
        if self._role() != "mestre":
            return self._gm_only()
        listener = self._listener()
        if listener is None:
            return {"ok": False, "error": self.state()["aviso"]}
        if not isinstance(data, (bytes, bytearray)) or len(data) % 2 or len(data) > MAX_CHUNK:
            return {"ok": False, "error": self.words.render("voz_no_servidor.audio_invalido",
                                                            {"maximo": MAX_CHUNK})}
        listener.feed(bytes(data))
        return None  # no acknowledgement per chunk: the stream must not wait

    def end(self) -> dict[str, Any]:
        if self._role() != "mestre":
            return self._gm_only()
        listener = self._listener()
        if listener is not None:
            listener.flush()
        return {"ok": True}

    def mode(self, payload: Any) -> dict[str, Any]:
        if self._role() != "mestre":
            return self._gm_only()
        listener = self._listener()
        if listener is None:
            return {"ok": False, "error": self.state()["aviso"]}
        wanted = payload.get("modo") if isinstance(payload, dict) else None
        try:
            listener.set_mode(str(wanted))
        except ValueError as error:
            return {"ok": False, "error": str(error)}
        return {"ok": True, "estado": self.state()}

    def talk(self, payload: Any) -> dict[str, Any]:
        if self._role() != "mestre":
            return self._gm_only()
        listener = self._listener()
        if listener is None:
            return {"ok": False, "error": self.state()["aviso"]}
        source = payload.get("fonte", "notebook") if isinstance(payload, dict) else "notebook"
        listener.push()
        if source == "notebook":
            error = self._open_laptop_microphone(listener)
            if error:
                return {"ok": False, "error": error}
        return {"ok": True, "segundos": listener.config.push_seconds, "estado": self.state()}

    def follow_mode(self, mode: str) -> None:
        """The laptop's microphone stays open while listening for the wake word or always;
        push-to-talk opens it for a few seconds; off closes it."""
        listener = self._listener()
        if listener is None or not getattr(self.voice, "laptop_microphone", False):
            return
        if mode in ("ativacao", "sempre"):
            problem = self._microphone_on(listener)
            listener.notice = self.words.render("voz_no_servidor.microfone_indisponivel", {
                "motivo": problem}) if problem else ""
        elif self.microphone is not None and self._mic_timer is None:
            self.microphone.stop()

    def _microphone_on(self, listener: Any) -> str | None:
        try:
            if self.microphone is None:
                self.microphone = Microphone(listener.feed, self.words)
            self.microphone.start()
        except VoiceUnavailable as error:
            return error.message
        return None

    def _open_laptop_microphone(self, listener: Any) -> str | None:
        problem = self._microphone_on(listener)
        if problem:
            return problem
        if self._mic_timer is not None:
            self._mic_timer.cancel()
        self._mic_timer = threading.Timer(listener.config.push_seconds, self._close_mic)
        self._mic_timer.daemon = True
        self._mic_timer.start()
        return None

    def _close_mic(self) -> None:
        self._mic_timer = None
        listener = self._listener()
        mode = listener.status().mode if listener is not None else "desligado"
        if self.microphone is not None and mode not in ("ativacao", "sempre"):
            self.microphone.stop()
        if listener is not None:
            listener.flush()

    def stop(self) -> None:
        if self._mic_timer is not None:
            self._mic_timer.cancel()
        if self.microphone is not None:
            self.microphone.stop()
        if self.voice is not None:
            self.voice.stop()


def register(socketio: SocketIO, voice_hub: VoiceHub) -> None:
    """Wire the voice events (the Hub's own are wired by sockets.register)."""
    socketio.on_event("voz_audio", voice_hub.audio)
    socketio.on_event("voz_fim", lambda *_: voice_hub.end())
    socketio.on_event("voz_modo", voice_hub.mode)
    socketio.on_event("voz_falar", lambda payload=None: voice_hub.talk(payload))
    socketio.on_event("voz_estado", lambda *_: voice_hub.asked_state())
