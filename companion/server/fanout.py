"""The fan-out: each new event to the rooms allowed to see it, in each viewer's numbering, then
the views (`estado`, `estado_mudou`), from one dispatcher thread.

New events reach each client once, in seq order, only through the rooms allowed to see them,
followed by the GM's fresh `estado` and, for players and table screens, `estado_mudou` with just
the top-level keys of their view that changed (nothing when none did).

New events go out from the thread that ran the command, as soon as it is committed: the
session calls its subscribers batch by batch in seq order, and the hub reads the committed log
from its cursor (session.history_since), so the order is the log's whatever thread ran what.
One dispatcher thread does the rest: welcomes, and the views, which follow the events once the
websocket writers have taken them (a burst of commands gets one round of views). A welcome
replays a client's missed events under the same lock as the live fan-out (`FanOut.sending`),
so it never gets one twice (each client remembers the last global seq it was sent) nor misses
one.
"""
from __future__ import annotations

import collections
import logging
import threading
import time
from typing import Any, Callable

from flask_socketio import SocketIO

from companion.tables import protocol
from companion.engine import State
from companion.engine.dice_rolls import die_range
from companion.history.outcome import CODE, by_weight, ranked
from companion.history.projection import StoredEvent
from companion.rules.pages import PageTexts
from companion.server import rooms
from companion.server.projections import Projections
from companion.server.rooms import GM_ROOM, NAMESPACE, TABLE_ROOM, Client, Connections
from companion.server.served import ServedSession
from companion.tables.files import Tables
from companion.tables.narration import Narrator

log = logging.getLogger(__name__)
# Views go out after the events they follow, once the websocket writers have sent the events
# (FanOut._wait_sent): seconds.
VIEWS_WAIT = 0.05  # at most this long waiting for the writers (a phone that stopped reading)
# how often to look at them meanwhile: each look takes the GIL from the writers sending the
# events (every 0.5 ms cost 30 phones' events ~1/3 more latency, issue 33's profile)
VIEWS_POLL = 0.003
VIEWS_SETTLE = 0.005  # then this much more

RANGE_TEXT = "cartao.valor_fora_do_dado"  # a die value outside the prompt's dice, in its card

ViewState = Callable[[State, str, Tables], dict]
ViewStates = Callable[[State, list[str], Tables], dict[str, dict]]


class Dispatcher:
    """The one thread that sends what does not go out with its command: welcomes and views,
    job by job. Two queues, each in the order its jobs were asked for: the GM's (views, the
    GM's own welcome, seats and the door) always first, then the other viewers' welcomes
    (`put(..., behind=True)`), so a storm of table screens reconnecting never delays the GM's
    `estado` nor the GM's reconnection by more than the one welcome being sent. A job that
    fails is one line in the log, said with `words`."""

    def __init__(self, words: Narrator) -> None:
        self.words = words
        self._first: collections.deque[tuple[str, Callable[[], Any]]] = collections.deque()
        self._behind: collections.deque[tuple[str, Callable[[], Any]]] = collections.deque()
        self._ready = threading.Condition()
        self.stopped = threading.Event()
        self.thread: threading.Thread | None = None

    def put(self, kind: str, job: Callable[[], Any], behind: bool = False) -> None:
        """Queue a job; `behind`: after every job of the GM's queue (another viewer's
        welcome)."""
        with self._ready:
            (self._behind if behind else self._first).append((kind, job))
            self._ready.notify()

    def waiting(self) -> int:
        """Jobs queued, both queues."""
        with self._ready:
            return len(self._first) + len(self._behind)

    def start(self) -> None:
        self.thread = threading.Thread(target=self._forever, name="mesa-dispatch", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()
        self.put("stop", lambda: None)
        if self.thread is not None:
            self.thread.join(timeout=5)

    def _next(self) -> tuple[str, Callable[[], Any]]:
        with self._ready:
            while not (self._first or self._behind):
                self._ready.wait()
            return (self._first or self._behind).popleft()

    def _forever(self) -> None:
        while not self.stopped.is_set():
            kind, job = self._next()
            try:
                job()
            except Exception:  # the dispatcher must survive any one failure
                log.exception(self.words.render("log_do_servidor.falha_ao_distribuir",
                                                {"tipo": kind}))


class FanOut:
    """The live events and the views of one session's connections."""

    def __init__(self, socketio: SocketIO, session: ServedSession, tables: Tables,
                 connections: Connections, projections: Projections, dispatcher: Dispatcher, view_state: ViewState, view_states: ViewStates,
                 visible_to: Callable[[str, str], bool]) -> None:
        self.socketio = socketio
        self.session = session
        self.tables = tables
        self.connections = connections
        self.projections = projections
        self.dispatcher = dispatcher
        self.view_state = view_state
        self.view_states = view_states
        self.visible_to = visible_to
        self.last_views: dict[str, dict] = {}  # the estado each viewer kind was last sent
        self.cursor = session.last_seq()
        self.sending = threading.RLock()  # live events, and the welcomes' replays
        self.unviewed: list[StoredEvent] = []  # events sent since the last views

    def on_events(self, _events: list[dict]) -> None:
        """Session callback, batch by batch in seq order, in the thread that ran the command
        (without the session's lock): the new events go out at once; the views follow from
        the dispatcher. The websocket writers woken by the events run first (the GIL let go
        once): the phones get the result before this thread acknowledges it to its asker and
        wakes the dispatcher (issue 33: ~3 % sooner at 10 phones; docs/desempenho.md)."""
        self.send_events()
        time.sleep(0)  # CPython lets the waiting writers take the GIL here
        self.dispatcher.put("views", self.send_views)

    # ------------------------------------------------------------------ events

    def send_events(self) -> None:
        """Send every committed event past the cursor to its rooms (skipping the clients
        whose welcome already replayed it); remember them for the next views."""
        with self.sending:
            fresh = self.session.history_since(self.cursor)
            self.projections.follow(self.cursor, fresh)
            sio = self.socketio.server
            for event in fresh:
                live = self.connections.live()
                already = [c.sid for c in live if c.last_sent >= event.seq]
                for local, to in self._localized(event, live):
                    sio.emit("evento", local, to=to, skip_sid=already, namespace=NAMESPACE)
                for client in live:
                    client.last_sent = max(client.last_sent, event.seq)
                self.cursor = event.seq
            self.unviewed += fresh

    def _localized(self, event: StoredEvent, live: list[Client]
                   ) -> list[tuple[dict, list[str]]]:
        """The event as each of its rooms receives it (each viewer's projection), rooms
        receiving the same message grouped together: each distinct message is encoded once,
        however many rooms get it."""
        room_of = {viewer: room for room, viewer in rooms.targets(event.visibility, live)}
        return [(local, [room_of[viewer] for viewer in viewers]) for local, viewers in
                self.projections.copies(event, list(room_of))]

    # ------------------------------------------------------------------ views

    def send_views(self) -> None:
        """The views after the events sent since the last views, once the phones have those
        events: building the views holds the GIL the websocket writers need, and a view is
        worth less than the event it follows. A burst of commands gets one round of views
        (the later jobs of the burst find nothing left to show, and wait for nothing)."""
        with self.sending:
            if not self.unviewed:
                return
        self._wait_sent()
        with self.sending:
            state = self.caught_up()
            fresh, self.unviewed = self.unviewed, []
        self._send_states(fresh, state)

    def caught_up(self) -> State:
        """The session's state, with every event it follows from already sent to the phones
        (a command may have committed while its own fan-out lags: its events go out now, from
        here, so that no view runs ahead of the events a phone has). Hold `sending`."""
        state = self.session.state
        self.send_events()  # reads the log after the state: it covers every event of it
        return state

    def _wait_sent(self) -> None:
        """Wait until every connection's writer has sent what it was given and waits for more
        (at most VIEWS_WAIT seconds), then VIEWS_SETTLE more: with 50 phones the writers
        take ~20 ms, and views built meanwhile took the GIL from the last ones."""
        eio = self.socketio.server.eio
        deadline = time.monotonic() + VIEWS_WAIT
        while time.monotonic() < deadline:
            if all(_sent(s) for s in list(eio.sockets.values())):
                break
            time.sleep(VIEWS_POLL)
        time.sleep(VIEWS_SETTLE)

    def _send_states(self, fresh: list[StoredEvent], state: State) -> None:
        """After new events, each kind of viewer gets what changed in its view of `state` (see
        sync_view); a viewer that saw none of them and whose view did not change gets
        nothing, so a GM-only command leaves no trace on the players' phones."""
        viewers = self.connections.viewers()
        views = {viewer: self._localize_view(view, viewer, self.cursor) for viewer, view in
                 self.view_states(state, viewers, self.session.tables).items()}
        if protocol.GM in viewers:
            self._send_result(fresh)
        headlines = self._headlines(fresh, [viewer for viewer in viewers if viewer != protocol.GM])
        changes: dict[Any, tuple[dict, list[str]]] = {}  # one message for every room it suits
        compared: dict[tuple[int, int], bool] = {}  # the views share parts: each compared once
        held = [self.last_views.get(viewer) for viewer in viewers]  # alive: their ids stay theirs
        for viewer in viewers:
            saw = any(self.visible_to(e.visibility, viewer) for e in fresh)
            self.sync_view(viewer, saw, views[viewer], changes, compared)
        sio = self.socketio.server
        # the players' and the table's messages together: a writer woken by the first finds
        # the second already queued and sends both (one wake-up per phone, not two)
        for headline, to in headlines:
            sio.emit("manchete", headline, to=to, namespace=NAMESPACE)
        for changed, to in changes.values():
            sio.emit("estado_mudou", changed, to=to, namespace=NAMESPACE)
        del held

    def _send_result(self, fresh: list[StoredEvent]) -> None:
        """The GM page's last result of the events sent since the last views, ranked by the
        server (companion.history.outcome): `resultado` `{"linhas": [events, the headline
        first, then the heaviest], "total": n}` (an answer to a question is never a
        result) — the page shows as many lines as it has room for, and says how many more
        the log has. Sent just before the GM's `estado` (nothing when there is
        nothing to show: the box keeps the last one)."""
        rules = self.session.tables.piece(PageTexts).ultimo_resultado
        stored = {event.seq: event for event in fresh}
        best = ranked([{**event.wire(), CODE: event.code} for event in fresh
                       if event.command not in rules.perguntas], rules,
                      tables=self.session.tables)
        if not best.lines:
            return
        lines = [self.projections.show(stored[line["seq"]], protocol.GM) for line in best.lines]
        self.socketio.server.emit("resultado", {"linhas": lines, "total": best.total},
                                  to=GM_ROOM, namespace=NAMESPACE)

    def _headlines(self, fresh: list[StoredEvent], viewers: list[str]
                   ) -> list[tuple[dict, list[str]]]:
        """Each player's and the table screen's headline of the events sent since the last
        views, as (the `manchete` message, its rooms): the heaviest event it may see
        (companion.history.outcome.headline), in its own numbering, `{"evento": event}` —
        nothing when it saw no result. The events are weighed once for all: a viewer's
        headline is the first of the batch's results, heaviest first, that it may see (what
        `headline` picks from the ones it sees); viewers with the same headline get it as one
        message per distinct copy."""
        rules = self.session.tables.piece(PageTexts).ultimo_resultado
        results = [event for event in fresh if event.command not in rules.perguntas
                   and event.kind not in rules.nao_sao_resultado]
        if not results or not viewers:
            return []
        stored = {event.seq: event for event in results}
        order = [stored[e["seq"]] for e in by_weight(
            [{**event.wire(), CODE: event.code} for event in results], self.session.tables)]
        readers: dict[int, list[str]] = {}
        for viewer in viewers:
            top = next((e for e in order if self.visible_to(e.visibility, viewer)), None)
            if top is not None:
                readers.setdefault(top.seq, []).append(viewer)
        return [({"evento": local}, [TABLE_ROOM if viewer == protocol.PUBLIC else viewer
                                     for viewer in group])
                for seq, who in readers.items()
                for local, group in self.projections.copies(stored[seq], who)]

    def sync_view(self, viewer: str, saw: bool = False, view: dict | None = None,
                  changes: dict[Any, tuple[dict, list[str]]] | None = None,
                  compared: dict[tuple[int, int], bool] | None = None) -> dict:
        """Bring every connected client of `viewer` to the current view; return that view.

        Every client of a viewer holds `last_views[viewer]` (the dispatcher alone sends views).
        The GM gets the whole `estado` after every batch (its page marks command boundaries
        with it); players and table screens get `estado_mudou`, only the top-level keys whose
        value changed (a key that disappeared comes as null) — `{}` when none did but they saw
        one of the batch's events (it marks "the view is current"), nothing when they saw
        none. The view is built once per viewer and sent once to its room, however many
        phones share it. `compared`: what this round already compared (the viewers' views
        share their common parts and the party's public entries: each pair once, by
        identity, while both views are held).
        """
        view = view if view is not None else self.view(viewer)
        before = self.last_views.get(viewer)
        self.last_views[viewer] = view
        room = {"gm": GM_ROOM, "public": TABLE_ROOM}.get(viewer, viewer)
        sio = self.socketio.server
        if viewer == protocol.GM or before is None:
            sio.emit("estado", view, to=room, namespace=NAMESPACE)
            return view
        compared = {} if compared is None else compared
        changed = {key: value for key, value in view.items()
                   if _differs(before.get(key), value, compared)}
        changed.update({key: None for key in before if key not in view})
        if not (changed or saw):
            return view
        if changes is None:
            sio.emit("estado_mudou", changed, to=room, namespace=NAMESPACE)
        else:  # gathered by _send_states: the same change (the same values, shared by the
            # views) to many rooms goes out once
            key = tuple(sorted((name, id(value)) for name, value in changed.items()))
            changes.setdefault(key, (changed, []))[1].append(room)
        return view

    def view(self, viewer: str, state: State | None = None) -> dict:
        """The viewer's view of `state` (default: the session's now)."""
        state = self.session.state if state is None else state
        view = self.view_state(state, viewer, self.session.tables)
        return self._localize_view(view, viewer)

    def _localize_view(self, view: dict, viewer: str, through: int | None = None) -> dict:
        """A player's view with its prompt ids in that player's numbers (`through`: the
        newest event its state follows; None: the log's newest); every prompt answered
        with a die says the values that die can give (`faixa`)."""
        local = self.projections.view(view, viewer, through)
        prompts = local.get("pedidos")
        if isinstance(prompts, list) and prompts:
            local = {**local, "pedidos": [self._with_range(p) for p in prompts]}
        return local

    def _with_range(self, prompt: Any) -> Any:
        """A prompt of the view with `faixa` `{"minimo", "maximo", "aviso"}`: the lowest and
        highest value of its dice and what its card says of a value outside them
        (tables/narracao/cartao.yaml); the prompt as it was when its dice have no range."""
        bounds = die_range(str(prompt.get("dados") or "")) if isinstance(prompt, dict) else None
        if bounds is None:
            return prompt
        low, high = bounds
        said = self.session.tables.narration.render(
            RANGE_TEXT, {"minimo": low, "maximo": high})
        return {**prompt, "faixa": {"minimo": low, "maximo": high, "aviso": said}}


def _differs(old: Any, new: Any, compared: dict[tuple[int, int], bool]) -> bool:
    """`old != new`, each pair of objects compared once (`compared`, by identity: hold both
    while it lives), a list item by item (a party's public entries are shared by the views)."""
    if old is new:
        return False
    pair = (id(old), id(new))
    found = compared.get(pair)
    if found is None:
        if type(old) is list and type(new) is list and len(old) == len(new):
            found = False
            for a, b in zip(old, new):  # most pairs were compared for an earlier viewer
                if a is b:
                    continue
                item = compared.get((id(a), id(b)))
                if item if item is not None else _differs(a, b, compared):
                    found = True
                    break
        else:
            found = bool(old != new)
        compared[pair] = found
    return found


def _sent(socket: Any) -> bool:
    """An Engine.IO socket has nothing left to send: its queue is empty and, on a websocket,
    its writer thread is back waiting on it (the queue's `not_empty` has a waiter: a writer
    that took the events is sending them until then). Without that detail of the queue, an
    empty queue is enough."""
    queue = socket.queue
    if not queue.empty():
        return False
    if not getattr(socket, "upgraded", False):
        return True  # long-polling: the next HTTP request takes what is queued
    waiters = getattr(getattr(queue, "not_empty", None), "_waiters", None)
    return waiters is None or len(waiters) > 0
