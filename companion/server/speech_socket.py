"""Speech over Socket.IO: the laptop's speakers and the pages that speak (Web Speech API).

Each new batch of events is read for announcements (companion.speech.announce), and each one
goes to ONE speaker: the laptop's queue, or a page as `fala` {"id", "texto", "avisos"} (the id
and text in that page's own numbering). The events of a command said by voice are its answer.
A `silencio` command silences the laptop and sends `fala_parar` to every page.

Client → server:
- `fala_preferencias` {"pagina": bool, and from the GM page "avisos": [...], "notebook": bool,
  "notebook_segredos": bool} → {"ok", "avisos" (the kinds, named), "escolha", "notebook"
  (whether the laptop can speak, and with which voice)}: the device's own preference, sent on
  connecting and on every change; nothing is logged, nothing is undone;
- `fala_estado` {"falando": bool}: a page on the laptop started or stopped speaking (listening
  is deaf meanwhile).

Who may: the GM page chooses (`avisos`, `notebook`…); a table screen turns its own speaking on
or off only when it is open on the laptop itself; `fala_estado` only from a page on the laptop
(companion.server.hosts.on_laptop) — a phone calling itself a table screen can neither take
the announcements nor make the listener deaf.
"""
from __future__ import annotations

import itertools
import logging
import threading
from typing import Any, Callable, Mapping

from flask import request
from flask_socketio import SocketIO

from companion.history.replay import REPEAT
from companion.server.rooms import GM_ROOM, NAMESPACE, TABLE_ROOM
from companion.server.sockets import Hub
from companion.speech.announce import (SILENCE, Choice, Place, Said, speaker_for, to_say)
from companion.speech.speech_config import ANSWER, SpeechConfig, speech_config
from companion.speech.speaker import Output, Speaker, Speakers
from companion.speech.voices import SpeechUnavailable, choose_voice
from companion.tables.files import Tables
from companion.tables.narration import Narrator

log = logging.getLogger(__name__)
LAPTOP = "notebook"
PAGE_ROLES = {"mestre": "mestre", "mesa": "mesa"}
Deafen = Callable[[str, bool, float], None]  # (who, speaking, tail): the listener's set_speaking


def laptop_speaker(config: SpeechConfig, words: Narrator, on_speaking: Callable[[bool], None],
                   output: Output | None = None) -> tuple[Speaker | None, str]:
    """The laptop's speaker and the line that says which voice it has (or why it is off, in
    `words`)."""
    try:
        voice, line = choose_voice(config)
    except SpeechUnavailable as error:
        return None, error.message
    if output is None:
        try:
            output = Speakers(words)
        except ImportError:
            return None, words.render("voz_no_servidor.fala_sem_pacote", {})
        except OSError as error:
            return None, words.render("voz_no_servidor.fala_sem_alto_falantes",
                                      {"motivo": str(error)})
    return Speaker(voice, output, words, on_speaking), line


class SpeechHub:
    """Who says what, for one server."""

    def __init__(self, socketio: SocketIO, hub: Hub, tables: Tables,
                 speaker: Speaker | None, line: str) -> None:
        self.socketio = socketio
        self.hub = hub
        self.config = speech_config(tables)
        self.words = tables.narration
        self.speaker = speaker
        self.line = line
        self.choice = Choice.defaults(self.config)
        self.deafen: Deafen | None = None
        self._pages: dict[str, Place] = {}  # sid → a page whose switch is on, in join order
        self._said: set[int] = set()  # global seqs already given to a speaker
        self._repeats = itertools.count(1)  # each spoken `repetir` is said anew
        self._lock = threading.Lock()

    # -------------------------------------------------------------- the session's events

    def on_events(self, batch: list[dict[str, Any]]) -> None:
        """A new batch (session subscriber): its announcements, and a silence."""
        if not batch:
            return
        if any(event.get("command") == SILENCE for event in batch):
            self.silence()
            return
        self._announce(batch, by_voice=False)

    def answered(self, events: list[dict[str, Any]], command: str | None = None) -> None:
        """The events of a command said by voice (`command`, its name): its answer. A spoken
        `repetir` asks for events already said: they are said again."""
        if events and not any(event.get("command") == SILENCE for event in events):
            self._announce(events, by_voice=True, again=command == REPEAT)

    def refused(self, reason: str, table_safe: bool) -> None:
        """Why a spoken command did nothing, said as its answer to the GM (GM-only; the laptop
        says it when it may say the GM's, or when it is `table_safe`: "não entendi …")."""
        try:
            said = Said(0, "gm", frozenset({ANSWER}), table_safe)
            with self._lock:
                places = ([Place(LAPTOP, "notebook")] if self.speaker is not None else []) + \
                    [p for sid, p in self._pages.items() if self.hub.connections.find(sid)]
                place = speaker_for(said, self.choice, places)
                number = next(self._repeats)
            if place is None:
                return
            text = self.config.spoken(reason)
            if place.role == "notebook":
                assert self.speaker is not None
                self.speaker.say(("recusa", number), text)
                return
            self.socketio.server.emit("fala", {"id": f"recusa-{number}", "texto": text,
                                               "avisos": [ANSWER], "de_novo": False},
                                      to=place.id, namespace=NAMESPACE)
        except Exception:  # speech must never break a command
            log.exception(self.words.render("servidor.falha_recusa_falada", {}))

    def _announce(self, batch: list[dict[str, Any]], by_voice: bool,
                  again: bool = False) -> None:
        with self._lock:
            if self.speaker is None and not self._pages:
                return  # nobody to say it: no need to read the batch (it runs before the ack)
        try:
            stored = self._with_codes(batch)
            for said in to_say(stored, self.config, by_voice):
                self._give(said, again)
        except Exception:  # speech must never break a command
            log.exception(self.words.render("log_do_servidor.falha_ao_anunciar", {}))

    def _with_codes(self, batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
        first, last = min(e["seq"] for e in batch), max(e["seq"] for e in batch)
        stored = self.hub.session.history_since(first - 1, limit=last - first + 1)
        codes = {event.seq: event.code for event in stored}
        return [{**event, "code": codes.get(event["seq"])} for event in batch]

    def _give(self, said: Said, again: bool = False) -> None:
        """Give an announcement to its one speaker, once (`again`: asked for anew)."""
        with self._lock:
            if said.seq in self._said and not again:
                return  # once, by one speaker: never twice
            places = ([Place(LAPTOP, "notebook")] if self.speaker is not None else []) + \
                [p for sid, p in self._pages.items() if self.hub.connections.find(sid)]
            place = speaker_for(said, self.choice, places)
            if place is None:
                return
            self._said.add(said.seq)
            key: Any = (REPEAT, next(self._repeats), said.seq) if again else said.seq
        if place.role == "notebook":
            viewer = "gm" if said.visibility != "public" else "public"
            text = self._copy(said.seq, viewer)["text"]
            assert self.speaker is not None
            self.speaker.say(key, self.config.spoken(text))
            return
        copy = self._copy(said.seq, "gm" if place.role == "mestre" else "public")
        self.socketio.server.emit("fala", {"id": copy["seq"],
                                           "texto": self.config.spoken(copy["text"]),
                                           "avisos": sorted(said.kinds),
                                           "de_novo": again},
                                  to=place.id, namespace=NAMESPACE)

    def _copy(self, seq: int, viewer: str) -> dict[str, Any]:
        return self.hub.projections.show({"seq": seq}, viewer)

    def silence(self) -> None:
        if self.speaker is not None:
            self.speaker.silence()
        for room in (GM_ROOM, TABLE_ROOM):
            self.socketio.server.emit("fala_parar", {}, to=room, namespace=NAMESPACE)

    # -------------------------------------------------------------- from the pages

    def _only_pages(self) -> dict[str, Any]:
        """The refusal of a speech event from a connection that is no speaking page."""
        return {"ok": False, "error": self.words.render("voz_no_servidor.fala_so_paginas", {})}

    def _client(self) -> Any:
        return self.hub.connections.find(request.sid)  # type: ignore[attr-defined]

    def preferences(self, payload: Any) -> dict[str, Any]:
        client = self._client()
        role = PAGE_ROLES.get(client.role) if client is not None else None
        if role is None:
            return self._only_pages()
        if role != "mestre" and not client.on_laptop:
            return {"ok": False, "error": self.words.render("seguranca.fala_so_mestre", {})}
        wanted: Mapping[str, Any] = payload if isinstance(payload, dict) else {}
        with self._lock:
            if role == "mestre":
                self.choice = Choice.read(wanted, self.config, self.choice)
            if wanted.get("pagina") is True:
                self._pages[client.sid] = Place(client.sid, role)  # type: ignore[arg-type]
            elif wanted.get("pagina") is False:
                self._pages.pop(client.sid, None)
            choice = self.choice
        return {"ok": True, **self.config.to_json(), "escolha": choice.to_json(),
                "notebook": {"pode": self.speaker is not None, "linha": self.line}}

    def page_speaking(self, payload: Any) -> dict[str, Any]:
        client = self._client()
        if client is None or client.role not in PAGE_ROLES:
            return self._only_pages()
        if not client.on_laptop:
            return {"ok": False, "error": self.words.render("seguranca.so_no_notebook", {})}
        on = bool(payload.get("falando")) if isinstance(payload, dict) else False
        if self.deafen is not None:
            self.deafen(f"pagina:{client.sid}", on, self.config.deaf_after)
        return {"ok": True}

    def laptop_speaking(self, on: bool) -> None:
        if self.deafen is not None:
            self.deafen(LAPTOP, on, self.config.deaf_after)

    def forget(self, sid: str) -> None:
        with self._lock:
            self._pages.pop(sid, None)
        if self.deafen is not None:
            self.deafen(f"pagina:{sid}", False, 0.0)

    def stop(self) -> None:
        self.hub.session.unsubscribe(self.on_events)
        if self.speaker is not None:
            self.speaker.close()


def register(socketio: SocketIO, speech_hub: SpeechHub) -> None:
    socketio.on_event("fala_preferencias", lambda payload=None: speech_hub.preferences(payload))
    socketio.on_event("fala_estado", lambda payload=None: speech_hub.page_speaking(payload))
