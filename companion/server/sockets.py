"""The Socket.IO side of the server: who is connected, what each one may see, and the fan-out.

Connecting (default namespace, `auth` dict):
- `{"token": <gm token>}` → the GM (rooms "gm" and "public");
- `{"nome": "Ana"}` → a new player (session.join_player), rooms "public" and "player:<id>";
- `{"token": <player token>}` → a returning player;
- `{"papel": "mesa"}` → the shared table screen, a read-only public viewer (room "public");
  its `boas_vindas` carries `url_jogador`, the address phones open (the same the QR code shows,
  the LAN address under `companion serve` even when the screen itself opened 127.0.0.1);
- any of them may add `"desde": <last seq seen>`.

Event numbers are per viewer (companion.server.numbering): the GM gets the log's global seqs; a
player and the table screen get 1, 2, 3, … counting only the events they may see, so the gaps
left by GM-only events (whose number depends on secret outcomes) never show. `desde`, the
`evento` messages and the `comando` acknowledgement all use the connection's own numbering.
So do a player's prompt ids (numbering.PromptNumbering): 1, 2, 3, … over the prompts addressed
to that player, in events, views, texts and refusals; `responder pedido N` from a player is read
in that numbering and turned into the engine's id here, before the session runs it.

Who sees what and who may run what is companion.protocol's; `boas_vindas` also carries
`paginas` (companion.pages: the pages' buttons, mode names, prompt titles, option labels).

After a connection is accepted the client gets `boas_vindas`, then every event it may see with
seq > desde (`evento`, in seq order), then `estado`. New events reach each client once, in seq
order, only through the rooms allowed to see them, followed by the GM's fresh `estado` and, for
players and table screens, `estado_mudou` with just the top-level keys of their view that
changed (nothing when none did).

New events go out from the thread that ran the command, as soon as it is committed: the
session calls its subscribers batch by batch in seq order, and the hub reads the committed log
from its cursor (session.events_since), so the order is the log's whatever thread ran what.
One dispatcher thread does the rest: welcomes, and the views, which follow the events once the
websocket writers have taken them (a burst of commands gets one round of views). A welcome
replays a client's missed events under the same lock as the live fan-out, so it never gets
one twice (each client remembers the last global seq it was sent) nor misses one.
"""
from __future__ import annotations

import json
import logging
import re
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from flask import request
from flask_socketio import SocketIO, ConnectionRefusedError

from companion import pages, protocol
from companion.engine import Command
from companion.engine.toolkit import slug
from companion.errors import AccessDenied, CommandRejected, CompanionError
from companion.report import prompt_ids
from companion.server import access
from companion.server.numbering import Numbering, PromptNumbering
from companion.server.served import ServedSession
from companion.session import Player, RunResult
from companion.tables import Tables

log = logging.getLogger(__name__)
NAMESPACE = "/"
GM_ROOM = "gm"
PUBLIC_ROOM = "public"
TABLE_ROOM = "mesa"  # shared screens: they get the public estado
WELCOME_WAIT = 5.0  # seconds to wait for the connection to be accepted before welcoming
# Views go out after the events they follow, once the websocket writers have the events
# (Hub._wait_sent): seconds.
VIEWS_WAIT = 0.02  # at most this long waiting for the send queues to empty
VIEWS_POLL = 0.0005  # how often to look at them meanwhile
VIEWS_SETTLE = 0.005  # then this much more


def rooms_for(visibility: str) -> list[str]:
    """The rooms an event of this visibility goes to (the GM room always sees player events)."""
    if visibility == protocol.PUBLIC:
        return [PUBLIC_ROOM]
    if protocol.is_player(visibility):
        return [visibility, GM_ROOM]
    return [GM_ROOM]


@dataclass
class Client:
    """One accepted connection."""

    sid: str
    role: str  # "mestre", "jogador" or "mesa"
    viewer: str  # "gm", "public" or "player:<id>"
    token: str | None
    player: dict[str, str] | None
    since: int  # desde, in this client's own numbering
    last_sent: int = 0  # the last GLOBAL seq this client was sent (or had no need of)
    welcome: dict[str, Any] = field(default_factory=dict)  # extra boas_vindas keys

    @property
    def rooms(self) -> list[str]:
        if self.role == "mestre":
            return [GM_ROOM, PUBLIC_ROOM]
        if self.role == "jogador":
            return [PUBLIC_ROOM, self.viewer]
        return [PUBLIC_ROOM, TABLE_ROOM]


class Hub:
    """Connections, rooms and the single dispatcher thread for one session."""

    def __init__(self, socketio: SocketIO, session: ServedSession, tables: Tables,
                 view_state: Callable[..., dict], visible_to: Callable[[str, str], bool],
                 rate_limiter: access.RateLimiter | None = None,
                 gm_rate_limiter: access.RateLimiter | None = None,
                 base_url: str | None = None, limits: bool = True,
                 view_states: Callable[..., dict[str, dict]] | None = None) -> None:
        self.socketio = socketio
        self.base_url = base_url
        self.session = session
        self.tables = tables
        self.view_state = view_state
        self.view_states = view_states or (
            lambda state, viewers, tables: {v: view_state(state, v, tables) for v in viewers})
        self.visible_to = visible_to
        self.limiters: dict[str, Any] = {
            "jogador": rate_limiter or access.RateLimiter(access.COMMANDS_PER_WINDOW,
                                                          access.WINDOW_SECONDS),
            "mestre": gm_rate_limiter or access.RateLimiter(access.GM_COMMANDS_PER_WINDOW,
                                                            access.WINDOW_SECONDS),
        }
        self.joins: Any = access.RateLimiter(access.JOINS_PER_MINUTE, 60.0)
        if not limits:  # --sem-limites: load benchmarks on loopback only
            self.limiters = {"jogador": access.NoLimit(), "mestre": access.NoLimit()}
            self.joins = access.NoLimit()
        self.clients: dict[str, Client] = {}
        self.pending: dict[str, Client] = {}
        self.lock = threading.Lock()
        self.jobs: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.last_views: dict[str, dict] = {}  # the estado each viewer kind was last sent
        self.prompts = PromptNumbering(lambda seq: self.session.events_since(seq),
                                       session.narrations, tables.narration.render)
        # numbered from the visibilities alone: no data decoding
        self.numbering = Numbering(session.visibilities_since, visible_to, session.events_of,
                                   prompts=self.prompts)
        self.pages = pages.page_data(tables)
        self.cursor = session.last_seq()
        self.sending = threading.RLock()  # live events, and the welcomes' replays
        self.unviewed: list[dict] = []  # events sent since the last views
        self.stopped = threading.Event()
        self.thread: threading.Thread | None = None

    # ------------------------------------------------------------------ life cycle

    def start(self) -> None:
        """Subscribe to the session and start the dispatcher thread."""
        self.session.subscribe(self._on_events)
        self.thread = threading.Thread(target=self._dispatch_forever, name="mesa-dispatch",
                                       daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.session.unsubscribe(self._on_events)
        self.stopped.set()
        self.jobs.put(("stop", None))
        if self.thread is not None:
            self.thread.join(timeout=5)

    def _on_events(self, _events: list[dict]) -> None:
        """Session callback, batch by batch in seq order, in the thread that ran the command
        (without the session's lock): the new events go out at once; the views follow from
        the dispatcher."""
        self._send_events()
        self.jobs.put(("views", None))

    def _dispatch_forever(self) -> None:
        actions = {"views": lambda _: self._send_views(), "welcome": self._welcome,
                   "stop": lambda _: None}
        while not self.stopped.is_set():
            kind, payload = self.jobs.get()
            try:
                actions[kind](payload)
            except Exception:  # the dispatcher must survive any one failure
                log.exception("falha ao distribuir eventos (%s)", kind)

    # ------------------------------------------------------------------ connecting

    def connect(self, auth: Any) -> None:
        """The connect handler: authenticate, then queue the welcome. Refusals raise."""
        try:
            client = self._authenticate(auth if auth is not None else {})
        except (AccessDenied, CompanionError) as refused:
            raise ConnectionRefusedError(refused.message) from None
        with self.lock:
            self.pending[client.sid] = client
        self.jobs.put(("welcome", client.sid))

    def disconnect(self, sid: str) -> None:
        with self.lock:
            self.clients.pop(sid, None)
            self.pending.pop(sid, None)
        for limiter in self.limiters.values():
            limiter.forget(sid)

    def _authenticate(self, auth: Any) -> Client:
        if not isinstance(auth, dict):
            raise AccessDenied(
                'dados de conexão inválidos; envie {"token": …} ou {"nome": …}')
        since = access.since_value(auth.get("desde"))
        sid = request.sid  # type: ignore[attr-defined]
        if "token" in auth:
            return self._by_token(sid, auth["token"], since)
        if "nome" in auth:
            return self._new_player(sid, auth["nome"], since)
        if auth.get("papel") == "mesa":
            return Client(sid, "mesa", protocol.viewer_for_role("mesa"), None, None, since,
                          welcome={"url_jogador": self._player_url()})
        raise AccessDenied(
            "falta o nome: para entrar como jogador informe seu nome; o Mestre usa o link "
            "com o token secreto"
        )

    def _by_token(self, sid: str, token: Any, since: int) -> Client:
        if access.same_token(token, self.session.gm_token):
            return Client(sid, "mestre", protocol.viewer_for_role("mestre"), token, None, since)
        player = self.session.player_by_token(token) if isinstance(token, str) else None
        if player is None:
            raise AccessDenied(
                "token inválido ou expirado: o Mestre deve usar o link que o servidor "
                "mostrou; jogadores entram de novo informando o nome"
            )
        return self._player_client(sid, player, since)

    def _new_player(self, sid: str, name: Any, since: int) -> Client:
        clean = access.player_name(name)
        if not self.joins.allow(request.remote_addr or "?"):
            raise AccessDenied("muitas entradas seguidas deste aparelho; espere um minuto")
        player = self.session.join_player(clean)
        return self._player_client(sid, player, since)

    def _player_url(self) -> str:
        """What phones open: the configured LAN base, else the address this client used."""
        base = self.base_url or request.host_url  # type: ignore[attr-defined]
        return f"{base.rstrip('/')}/jogador"

    @staticmethod
    def _player_client(sid: str, player: Player, since: int) -> Client:
        viewer = protocol.viewer_for_role("jogador", player.character_id)
        info = {"id": player.character_id, "nome": player.name}
        return Client(sid, "jogador", viewer, player.token, info, since)

    def _welcome(self, sid: str) -> None:
        """Greet one client: boas_vindas, the events it missed, estado; then it is live."""
        if not self._wait_accepted(sid):
            with self.lock:
                self.pending.pop(sid, None)
            return
        with self.lock:  # it stays pending (its commands are taken) until it is live
            client = self.pending.get(sid)
        if client is None:
            return
        sio = self.socketio.server
        with self.sending:  # no live event goes out between its replay and its rooms
            since = self._replay_from(client)
            sio.emit("boas_vindas", {"papel": client.role, "token": client.token,
                                     "jogador": client.player, "paginas": self.pages,
                                     **client.welcome},
                     to=sid, namespace=NAMESPACE)
            state = self._caught_up()  # the others of its kind have every event of it
            missed = self.session.events_since(since)
            for event in missed:
                if self.visible_to(event["visibility"], client.viewer):
                    sio.emit("evento", self.numbering.localize(event, client.viewer), to=sid,
                             namespace=NAMESPACE)
            client.last_sent = missed[-1]["seq"] if missed else max(since, self.cursor)
            view = self._sync_view(client.viewer, view=self._view(client.viewer, state))
            for room in client.rooms:
                sio.enter_room(sid, room, namespace=NAMESPACE)
            with self.lock:
                self.clients[sid] = client
                self.pending.pop(sid, None)
        if not sio.manager.is_connected(sid, NAMESPACE):  # it left during the welcome
            self._forget(client)
            return
        sio.emit("estado", view, to=sid, namespace=NAMESPACE)

    def _replay_from(self, client: Client) -> int:
        """The global seq after which the client's missed events come. A stale desde (past
        the end of what this viewer may see: another session's phone) replays everything."""
        if client.viewer == protocol.GM:
            latest = self._last_seq(self.cursor)
            return client.since if client.since <= latest else 0
        seen = client.since if client.since <= self.numbering.count(client.viewer) else 0
        return self.numbering.global_after(seen, client.viewer)

    def _forget(self, client: Client) -> None:
        with self.lock:
            self.clients.pop(client.sid, None)
        for room in client.rooms:
            self.socketio.server.leave_room(client.sid, room, namespace=NAMESPACE)

    def _wait_accepted(self, sid: str) -> bool:
        """The connect packet goes out after the handler returns; wait for it (briefly)."""
        manager = self.socketio.server.manager
        deadline = time.monotonic() + WELCOME_WAIT
        while time.monotonic() < deadline:
            if manager.is_connected(sid, NAMESPACE):
                return True
            with self.lock:
                if sid not in self.pending:
                    return False
            time.sleep(0.002)
        return False

    # ------------------------------------------------------------------ fan-out

    def _send_events(self) -> None:
        """Send every committed event past the cursor to its rooms (skipping the clients
        whose welcome already replayed it); remember them for the next views."""
        with self.sending:
            fresh = self.session.events_since(self.cursor)
            sio = self.socketio.server
            for event in fresh:
                with self.lock:
                    live = list(self.clients.values())
                already = [c.sid for c in live if c.last_sent >= event["seq"]]
                for local, rooms in self._localized(event, live):
                    sio.emit("evento", local, to=rooms, skip_sid=already, namespace=NAMESPACE)
                for client in live:
                    client.last_sent = max(client.last_sent, event["seq"])
                self.cursor = event["seq"]
            self.unviewed += fresh

    def _send_views(self) -> None:
        """The views after the events sent since the last views, once the phones have those
        events: building the views holds the GIL the websocket writers need, and a view is
        worth less than the event it follows. A burst of commands gets one round of views
        (the later jobs of the burst find nothing left to show, and wait for nothing)."""
        with self.sending:
            if not self.unviewed:
                return
        self._wait_sent()
        with self.sending:
            state = self._caught_up()
            fresh, self.unviewed = self.unviewed, []
        self._send_states(fresh, state)

    def _caught_up(self) -> Any:
        """The session's state, with every event it follows from already sent to the phones
        (a command may have committed while its own fan-out lags: its events go out now, from
        here, so that no view runs ahead of the events a phone has). Hold `sending`."""
        state = self.session.state
        self._send_events()  # reads the log after the state: it covers every event of it
        return state

    def _wait_sent(self) -> None:
        """Wait until every connection's send queue is empty (at most VIEWS_WAIT seconds),
        then VIEWS_SETTLE more: the writers have taken the events and are sending them."""
        eio = self.socketio.server.eio
        deadline = time.monotonic() + VIEWS_WAIT
        while time.monotonic() < deadline:
            if all(s.queue.empty() for s in list(eio.sockets.values())):
                break
            time.sleep(VIEWS_POLL)
        time.sleep(VIEWS_SETTLE)

    def _localized(self, event: dict, live: list[Client]) -> list[tuple[dict, list[str]]]:
        """The event as each of its rooms receives it, rooms receiving the same numbers grouped
        together: each distinct message is encoded once, however many rooms get it."""
        groups: dict[tuple[int, str], tuple[dict, list[str]]] = {}
        for room, viewer in self._targets(event["visibility"], live):
            local = self.numbering.localize(event, viewer)
            # an undo's desfeito, a player's prompt ids: per viewer
            rewritten = local["data"] is not event["data"] or local["text"] != event["text"]
            key = (local["seq"], json.dumps([local["data"], local["text"]], sort_keys=True)
                   if rewritten else "")
            groups.setdefault(key, (local, []))[1].append(room)
        return list(groups.values())

    @staticmethod
    def _targets(visibility: str, live: list[Client]) -> list[tuple[str, str]]:
        """(room, viewer key) pairs an event goes to: one room per numbering, so each viewer
        gets its own seq. The public room is split into the table screens', each connected
        player's own room and the GM's, the GM last: its own commands' events already reach it
        in the acknowledgement."""
        players = sorted({c.viewer for c in live if c.role == "jogador"})
        targets: list[tuple[str, str]] = []
        for room in rooms_for(visibility):
            if room == PUBLIC_ROOM:
                targets.append((TABLE_ROOM, "public"))
                targets += [(player, player) for player in players]
                targets.append((GM_ROOM, protocol.GM))
            elif room == GM_ROOM:
                targets.append((GM_ROOM, protocol.GM))
            elif room in players:
                targets.append((room, room))
        return targets

    def _send_states(self, fresh: list[dict], state: Any) -> None:
        """After new events, each kind of viewer gets what changed in its view of `state` (see
        _sync_view); a viewer that saw none of them and whose view did not change gets
        nothing, so a GM-only command leaves no trace on the players' phones."""
        with self.lock:
            viewers = sorted({c.viewer for c in self.clients.values()})
        views = {viewer: self._localize_view(view, viewer) for viewer, view in
                 self.view_states(state, viewers, self.tables).items()}
        changes: dict[str, tuple[dict, list[str]]] = {}  # one message for every room it suits
        for viewer in viewers:
            saw = any(self.visible_to(e["visibility"], viewer) for e in fresh)
            self._sync_view(viewer, saw, views[viewer], changes)
        sio = self.socketio.server
        for changed, rooms in changes.values():
            sio.emit("estado_mudou", changed, to=rooms, namespace=NAMESPACE)

    def _sync_view(self, viewer: str, saw: bool = False, view: dict | None = None,
                   changes: dict[str, tuple[dict, list[str]]] | None = None) -> dict:
        """Bring every connected client of `viewer` to the current view; return that view.

        Every client of a viewer holds `last_views[viewer]` (the dispatcher alone sends views).
        The GM gets the whole `estado` after every batch (its page marks command boundaries
        with it); players and table screens get `estado_mudou`, only the top-level keys whose
        value changed (a key that disappeared comes as null) — `{}` when none did but they saw
        one of the batch's events (it marks "the view is current"), nothing when they saw
        none. The view is built once per viewer and sent once to its room, however many
        phones share it.
        """
        view = view if view is not None else self._view(viewer)
        before = self.last_views.get(viewer)
        self.last_views[viewer] = view
        room = {"gm": GM_ROOM, "public": TABLE_ROOM}.get(viewer, viewer)
        sio = self.socketio.server
        if viewer == protocol.GM or before is None:
            sio.emit("estado", view, to=room, namespace=NAMESPACE)
            return view
        changed = {key: value for key, value in view.items() if before.get(key) != value}
        changed.update({key: None for key in before if key not in view})
        if not (changed or saw):
            return view
        if changes is None:
            sio.emit("estado_mudou", changed, to=room, namespace=NAMESPACE)
        else:  # gathered by _send_states: the same change to many rooms goes out once
            key = json.dumps(changed, sort_keys=True)
            changes.setdefault(key, (changed, []))[1].append(room)
        return view

    def _view(self, viewer: str, state: Any = None) -> dict:
        """The viewer's view of `state` (default: the session's now)."""
        state = self.session.state if state is None else state
        return self._localize_view(self.view_state(state, viewer, self.tables), viewer)

    def _localize_view(self, view: dict, viewer: str) -> dict:
        """A player's view with its prompt ids in that player's numbers."""
        return self.prompts.localize_data(view, viewer)

    def _last_seq(self, after: int) -> int:
        newer = self.session.events_since(after)
        return newer[-1]["seq"] if newer else after

    # ------------------------------------------------------------------ commands

    def command(self, payload: Any) -> dict[str, Any]:
        """The `comando` handler: returns the acknowledgement."""
        sid = request.sid  # type: ignore[attr-defined]
        with self.lock:
            client = self.clients.get(sid) or self.pending.get(sid)
        if client is None:
            return {"ok": False, "error": "conexão ainda não aceita; tente de novo"}
        actor = protocol.actor_for_viewer(client.viewer)
        if actor is None:
            return protocol.refusal("a tela da mesa só mostra; comandos vêm do Mestre",
                                    "so_mestre")
        limiter = self.limiters[client.role]
        if not limiter.allow(sid):
            return {"ok": False, "error": access.rate_limited(int(limiter.capacity))}
        try:
            text = access.command_text(payload)
        except AccessDenied as refused:
            return {"ok": False, "error": refused.message}
        if protocol.is_player(actor):
            return self._player_command(client, actor, text)
        result = self.session.run(text, actor=actor)
        return self._ack(result, client)

    def _ack(self, result: RunResult, client: Client) -> dict[str, Any]:
        if not result.ok:
            return protocol.refusal(self._refusal_text(result, client.viewer), result.code)
        events = [self.numbering.localize(e, client.viewer) for e in result.events
                  if self.visible_to(e["visibility"], client.viewer)]
        return {"ok": True, "events": events}

    def _refusal_text(self, result: RunResult, viewer: str) -> str:
        """What the viewer reads of a refusal. The GM reads the engine's text. For a player, a
        refusal whose params name prompts is written again from its template with the params in
        the player's numbers and only the player's own prompts (numbering.localize_params);
        any other keeps its text, with the regex pass (localize_text) as the last resort for a
        prompt quoted in prose (a refusal about a refusal: comandos.na_vez)."""
        message = result.error or ""
        code, params = result.code, result.params
        if viewer == protocol.GM or not protocol.is_player(viewer):
            return message
        if code in self.tables.narration.codes and prompt_ids.carries_prompt_ids(params):
            return self.tables.narration.render(code, self.prompts.localize_params(params,
                                                                                   viewer))
        return self.prompts.localize_text(message, viewer)

    def _refused(self, refusal: CommandRejected) -> dict[str, Any]:
        """The server's own refusal (said by its code) as the acknowledgement."""
        text = refusal.message or self.tables.narration.render(refusal.code, refusal.params)
        return protocol.refusal(text, refusal.code)

    def _player_command(self, client: Client, actor: str, text: str) -> dict[str, Any]:
        """A player's line: parsed once (Session.parse: the session's cache, which its own
        `run` shares), refused unless it is theirs to give (the session handles `desfazer`
        before the engine's own check), the prompt it names read in the player's own numbers,
        then run as that player."""
        command = self.session.parse(text).command
        if command is None:
            return self._ack(self.session.run(text, actor=actor), client)  # its parse error
        if not protocol.may_run(actor, command.name, self.tables):
            return protocol.refusal(protocol.refusal_to_run(command.name, self.tables),
                                    "so_mestre")
        args = dict(command.args)
        try:
            said = self._own_prompt(client.viewer, command.name, args, text.strip())
        except CommandRejected as refused:
            return self._refused(refused)
        result = self.session.run_command(Command(command.name, args, actor), text=said)
        return self._ack(result, client)

    def _own_prompt(self, viewer: str, name: str, args: dict[str, Any], text: str) -> str:
        """For an answer, the prompt it names in the player's numbers becomes the engine's id
        (in `args`, and in the text kept in the log); returns that text. A number the player
        never had, or whose prompt is no longer pending, is refused here (tables/narracao/
        pedidos_jogador.yaml), listing only the player's own pending prompts."""
        if name != "responder":
            return text
        mine = [p for p in self.session.state.prompts
                if protocol.may_answer(viewer, p.character)]
        local = self.prompts.numbers(viewer)
        if "pedido" not in args:
            named = args.get("personagem")
            if named is not None and slug(str(named)) != protocol.character_of(viewer):
                raise CommandRejected.because("pedidos_jogador.pedido_alheio", nome=named)
            if not mine:
                raise CommandRejected.because("pedidos_jogador.sem_pedido")
            return text
        said = str(args["pedido"]).strip()
        number = int(said) if said.isascii() and said.isdigit() else 0
        wanted = self.prompts.to_global(viewer, number) if number else None
        pending = [local[p.id] for p in mine if p.id in local]
        if wanted is None:
            raise CommandRejected.because("pedidos_jogador.pedido_desconhecido", pedido=said,
                                          pendentes=pending)
        if not any(p.id == wanted for p in mine):
            raise CommandRejected.because("pedidos_jogador.pedido_encerrado", pedido=number,
                                          pendentes=pending)
        args["pedido"] = wanted
        return re.sub(rf"\bpedido\s+0*{number}\b", f"pedido {wanted}", text, count=1,
                      flags=re.IGNORECASE)


def register(socketio: SocketIO, hub: Hub) -> None:
    """Wire the Socket.IO events to the hub."""

    @socketio.on("connect")
    def on_connect(auth: Any = None) -> None:
        hub.connect(auth)

    @socketio.on("disconnect")
    def on_disconnect(*_reason: Any) -> None:
        hub.disconnect(request.sid)  # type: ignore[attr-defined]

    @socketio.on("comando")
    def on_command(payload: Any = None) -> dict[str, Any]:
        return hub.command(payload)
